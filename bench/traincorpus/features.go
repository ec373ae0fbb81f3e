package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/rtch/rtch/bench/internal/trees"
	"github.com/rtch/rtch/pkg/cmd/rtchintake"
	"github.com/rtch/rtch/pkg/cmd/rtchprobe"
	"github.com/rtch/rtch/pkg/cmd/rtchscout"
	"github.com/rtch/rtch/pkg/cmd/rtchzone"
	"github.com/rtch/rtch/pkg/evalscore"
	"github.com/rtch/rtch/pkg/pipeline"
	"github.com/rtch/rtch/pkg/rank"
	"github.com/rtch/rtch/pkg/zone"
)

var errInterrupted = errors.New("interrupted")

// enough is bench/eval's fixed --enough text.
const enough = "the files and line ranges that must change to resolve the task are located and hydrated"

// featureHeader is the first line of a features file: the columns of every
// candidate's f (rank.FeatureNames) and h (historyNames).
type featureHeader struct {
	Kind    string   `json:"kind"`
	Names   []string `json:"names"`
	History []string `json:"history"`
}

// taskFeatures is one task's line: its candidates (the hand-written
// ranking's first files, in its order) with their features and labels, or
// the error that left it without them.
type taskFeatures struct {
	ID    string   `json:"id"`
	Repo  string   `json:"repo"`
	Lang  string   `json:"lang"`
	Gold  []string `json:"gold"`
	Error string   `json:"error,omitempty"`
	// Paths, Labels (1 gold, 0 not), F and H are parallel, one per
	// candidate.
	Paths   []string    `json:"paths,omitempty"`
	Labels  []int       `json:"labels,omitempty"`
	F       [][]float64 `json:"f,omitempty"`
	H       [][]float64 `json:"h,omitempty"`
	Seconds float64     `json:"seconds"`
}

// cmdFeatures runs the lane's first stages on each task's tree, in an
// order that interleaves the repositories (so any prefix is balanced), and
// appends one line per task to --out. A run resumes: the tasks already in
// --out are skipped, and a last line cut short by an interruption is
// dropped first.
func cmdFeatures(args []string) error {
	return runExtraction(extraction{
		name:    "features",
		timeout: 5 * time.Minute,
		check:   checkHeader,
		header:  featureHeader{Kind: "traincorpus.features", Names: rank.FeatureNames, History: historyNames},
		extract: func(ctx context.Context, mat *trees.Materialiser, gitDir string, t task, timeout time.Duration) (any, string) {
			tf := extract(ctx, mat, gitDir, t, timeout)
			return tf, status(fmt.Sprintf("%d candidates", len(tf.Paths)), tf.Error, tf.Seconds)
		},
	}, args)
}

// extraction is one command that writes a line per training task: its
// flags, its file's header and how a task's line is made.
type extraction struct {
	name string
	// timeout is the default limit of one task's lane.
	timeout time.Duration
	// check refuses an existing --out whose header is not this one's.
	check  func(file, line string) error
	header any
	// extract makes one task's line and its progress note.
	extract func(ctx context.Context, mat *trees.Materialiser, gitDir string, t task, timeout time.Duration) (line any, note string)
}

// runExtraction parses e's flags (--mirrors, --tasks, --out, --limit,
// --tmp, --timeout, --shard), then runs e on each task not yet in --out,
// in the interleaved order, appending its line.
func runExtraction(e extraction, args []string) error {
	fs := flag.NewFlagSet(e.name, flag.ContinueOnError)
	mirrors := fs.String("mirrors", "", "")
	tasksFile := fs.String("tasks", "", "")
	out := fs.String("out", "", "")
	limit := fs.Int("limit", 0, "")
	tmp := fs.String("tmp", "", "")
	timeout := fs.Duration("timeout", e.timeout, "")
	shardFlag := fs.String("shard", "", "")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *mirrors == "" || *tasksFile == "" || *out == "" || *limit < 0 {
		return usageError{fmt.Errorf("%s needs --mirrors, --tasks and --out (and --limit ≥ 0)", e.name)}
	}
	sh, err := parseShard(*shardFlag)
	if err != nil {
		return usageError{err}
	}
	tasks, err := readTasks(*tasksFile)
	if err != nil {
		return usageError{err}
	}
	tasks = interleave(tasks)
	if *limit > 0 {
		tasks = tasks[:min(*limit, len(tasks))]
	}
	tasks = sh.of(tasks)
	done, err := resumeWith(*out, e.check)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(*out, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	if len(done) == 0 {
		if err := writeLine(f, e.header); err != nil {
			return err
		}
	}
	cache := *tmp
	if cache == "" {
		cache = filepath.Join(os.TempDir(), "traincorpus-trees")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	mat := &trees.Materialiser{Cache: cache}
	n := 0
	for _, t := range tasks {
		id := taskKey(t)
		if done[id] {
			n++
			continue
		}
		if ctx.Err() != nil {
			return errInterrupted
		}
		gitDir, err := trees.FindGitDir(*mirrors, t.Repo)
		if err != nil {
			return usageError{err}
		}
		line, note := e.extract(ctx, mat, gitDir, t, *timeout)
		if ctx.Err() != nil {
			return errInterrupted // a task cut short is not written
		}
		if err := writeLine(f, line); err != nil {
			return err
		}
		n++
		fmt.Fprintf(os.Stderr, "traincorpus: [%d/%d] %s %s\n", n, len(tasks), id, note)
	}
	return nil
}

// status is a task's progress note: what it gave, or its error, and its
// time.
func status(gave, errText string, seconds float64) string {
	if errText != "" {
		gave = "error: " + errText
	}
	return fmt.Sprintf("%s %.1fs", gave, seconds)
}

// readTasks reads the tasks file `traincorpus tasks` wrote.
func readTasks(file string) ([]task, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []task
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	no := 0
	for sc.Scan() {
		no++
		var t task
		if err := json.Unmarshal(sc.Bytes(), &t); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", file, no, err)
		}
		if t.Repo == "" || !hexName(t.Parent) || t.Intent == "" || len(t.GoldFiles) == 0 {
			return nil, fmt.Errorf("%s:%d: a task needs repo, parent, intent and gold_files", file, no)
		}
		out = append(out, t)
	}
	return out, sc.Err()
}

// interleave orders tasks so that the k-th task of every repository comes
// before the (k+1)-th of any: a prefix of the list is spread over every
// repository alike.
func interleave(tasks []task) []task {
	seen := map[string]int{}
	type keyed struct {
		t     task
		k, at int
	}
	ks := make([]keyed, len(tasks))
	for i, t := range tasks {
		ks[i] = keyed{t, seen[t.Repo], i}
		seen[t.Repo]++
	}
	sort.SliceStable(ks, func(i, j int) bool { return ks[i].k < ks[j].k })
	out := make([]task, len(ks))
	for i, k := range ks {
		out[i] = k.t
	}
	return out
}

func taskKey(t task) string { return t.Repo + "@" + t.Commit[:12] }

// resume reads the tasks an earlier run wrote to file, after cutting off a
// last line without its newline (a run killed mid-write). A header naming
// other columns than this build's is an error: features of two builds do
// not mix.
func resume(file string) (map[string]bool, error) { return resumeWith(file, checkHeader) }

// resumeWith is resume for a file whose header check is check.
func resumeWith(file string, check func(file, line string) error) (map[string]bool, error) {
	done := map[string]bool{}
	data, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return done, nil
	}
	if err != nil {
		return nil, err
	}
	if i := strings.LastIndexByte(string(data), '\n'); i+1 < len(data) {
		if err := os.Truncate(file, int64(i+1)); err != nil {
			return nil, err
		}
		data = data[:i+1]
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(data) == 0 {
		return done, nil
	}
	if err := check(file, lines[0]); err != nil {
		return nil, err
	}
	for no, l := range lines[1:] {
		id, err := lineID(file, no+2, l)
		if err != nil {
			return nil, err
		}
		done[id] = true
	}
	return done, nil
}

// checkHeader refuses a first line that is not a features header of this
// build's columns.
func checkHeader(file, line string) error {
	var h featureHeader
	if err := json.Unmarshal([]byte(line), &h); err != nil || h.Kind != "traincorpus.features" {
		return fmt.Errorf("%s:1: not a features file", file)
	}
	if strings.Join(h.Names, ",") != strings.Join(rank.FeatureNames, ",") || strings.Join(h.History, ",") != strings.Join(historyNames, ",") {
		return fmt.Errorf("%s:1: written with other feature columns than this build's: start a new file", file)
	}
	return nil
}

// lineID is the task id of a features line.
func lineID(file string, no int, line string) (string, error) {
	var tf struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(line), &tf); err != nil || tf.ID == "" {
		return "", fmt.Errorf("%s:%d: not a task's features", file, no)
	}
	return tf.ID, nil
}

func writeLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// extract materialises the task's tree, runs intake | zone | scout |
// probe --features on it in this process, reads the git history before the
// parent, labels the candidates and removes the tree.
func extract(ctx context.Context, mat *trees.Materialiser, gitDir string, t task, timeout time.Duration) taskFeatures {
	start := time.Now()
	tf := taskFeatures{ID: taskKey(t), Repo: t.Repo, Lang: t.Lang}
	for _, g := range t.GoldFiles {
		tf.Gold = append(tf.Gold, evalscore.CleanPath(g))
	}
	fail := func(err error) taskFeatures {
		tf.Error = err.Error()
		tf.Seconds = time.Since(start).Seconds()
		return tf
	}
	tree, _, err := mat.Tree(ctx, gitDir, t.Repo, t.Parent)
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(tree)
	defer os.Remove(tree + ".missing")
	cands, err := lane(ctx, tree, t.Intent, timeout)
	if err != nil {
		return fail(err)
	}
	hist, err := readHistory(gitDir, t.Parent)
	if err != nil {
		return fail(err)
	}
	gold := map[string]bool{}
	for _, g := range tf.Gold {
		gold[g] = true
	}
	for _, c := range cands.rows {
		tf.Paths = append(tf.Paths, c.Path)
		tf.F = append(tf.F, c.F)
		l := 0
		if gold[c.Path] {
			l = 1
		}
		tf.Labels = append(tf.Labels, l)
	}
	tf.H = hist.features(t.Intent, tf.Paths)
	tf.Seconds = time.Since(start).Seconds()
	return tf
}

// laneOut is what --features wrote.
type laneOut struct {
	rows []struct {
		Path string    `json:"path"`
		F    []float64 `json:"f"`
	}
}

// lane runs the lane's first four stages as bench/eval does (the same
// intake flags, the tree as the zone root, no tree index) with rtch-probe
// --plan-only --features, and reads the features.
func lane(ctx context.Context, tree, intent string, timeout time.Duration) (laneOut, error) {
	var lo laneOut
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	tmp, err := os.MkdirTemp("", "traincorpus-lane-")
	if err != nil {
		return lo, err
	}
	defer os.RemoveAll(tmp)
	goal := filepath.Join(tmp, "goal.txt")
	feats := filepath.Join(tmp, "features.ndjson")
	if err := os.WriteFile(goal, []byte(intent), 0o644); err != nil {
		return lo, err
	}
	stages := []pipeline.Stage{
		{Tool: rtchintake.Tool(), Args: []string{"--goal-file", goal, "--profile", "code_path", "--fanout", "normal", "--risk", "read_only",
			"--output-kind", "hydration_packet", "--enough", enough}},
		{Tool: rtchzone.Tool(), Args: []string{"--dir", tree}},
		{Tool: rtchscout.Tool(), Args: []string{"--no-index"}},
		// The ranking and its features come before the hits: --plan-only
		// leaves out the hits and their redaction, which can cost seconds on
		// a minified file's long lines, and nothing of the features.
		{Tool: rtchprobe.Tool(), Args: []string{"--no-index", "--plan-only", "--features", feats}},
	}
	getenv := func(k string) string {
		if k == zone.EnvRoot {
			return tree
		}
		return os.Getenv(k)
	}
	if _, err := pipeline.Run(ctx, pipeline.Options{Dir: tree, Getenv: getenv}, stages, nil, io.Discard); err != nil {
		return lo, err
	}
	data, err := os.ReadFile(feats)
	if err != nil {
		return lo, err
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	var h featureHeader
	if err := json.Unmarshal([]byte(lines[0]), &h); err != nil || strings.Join(h.Names, ",") != strings.Join(rank.FeatureNames, ",") {
		return lo, fmt.Errorf("%s:1: unexpected header", feats)
	}
	for no, l := range lines[1:] {
		var r struct {
			Path string    `json:"path"`
			F    []float64 `json:"f"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil || len(r.F) != len(rank.FeatureNames) {
			return lo, fmt.Errorf("%s:%d: not a feature row", feats, no+2)
		}
		lo.rows = append(lo.rows, r)
	}
	return lo, nil
}
