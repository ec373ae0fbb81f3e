package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rtch/rtch/pkg/brief"
	"github.com/rtch/rtch/pkg/evalscore"
	"github.com/rtch/rtch/pkg/tokens"
)

// pipelineTools are the binaries of one localization run, in pipeline order.
// The packet stage runs twice on the hydrated stream: once as JSON (the
// ranking and the packet's chunk records) and once as the md brief an agent
// reads (its real size and the gold lines inside it).
var pipelineTools = []string{"rtch-intake", "rtch-zone", "rtch-scout", "rtch-probe", "rtch-hydrate", "rtch-packet"}

// packetFormats are the two runs of the packet stage.
var packetFormats = []string{"json", "md"}

// pipelineOptions configure how the binaries are run.
type pipelineOptions struct {
	// Bin is the directory holding the binaries.
	Bin string
	// Enough is the fixed --enough text of every intake.
	Enough string
	// Timeout bounds one task's whole pipeline.
	Timeout time.Duration
	// ProbeArgs are added to rtch-probe's arguments (--ranker classic).
	ProbeArgs []string
	// HydrateArgs are added to rtch-hydrate's arguments (--enough-floor N,
	// --function-order O).
	HydrateArgs []string
}

// packetView is the part of an rtch.packet record the scorer reads.
type packetView struct {
	Kind             string `json:"kind"`
	SelectedSurfaces []struct {
		Path        string   `json:"path"`
		Rank        int      `json:"rank"`
		Score       float64  `json:"score"`
		WhySelected []string `json:"why_selected"`
		ChunkIDs    []string `json:"chunk_ids"`
	} `json:"selected_surfaces"`
	HydratedChunks []struct {
		Path      string `json:"path"`
		StartLine int    `json:"start_line"`
		EndLine   int    `json:"end_line"`
		EstTokens int    `json:"est_tokens"`
	} `json:"hydrated_chunks"`
	Budget *struct {
		EstTokens int `json:"est_tokens"`
		Cap       int `json:"cap"`
	} `json:"budget"`
	HaltingReason   string           `json:"halting_reason"`
	RankedFunctions []rankedFunction `json:"ranked_functions"`
}

// surface is one selected surface as reported per task.
type surface struct {
	// Path, Score and Why are the packet's path, score and why_selected.
	Path  string   `json:"path"`
	Score float64  `json:"score"`
	Why   []string `json:"why_selected,omitempty"`
}

// pipelineResult is what one pipeline run produced.
type pipelineResult struct {
	Ranked   []string
	Surfaces []surface
	Spans    []evalscore.Span
	Tokens   int
	Cap      int
	Halting  string
	Seconds  float64
	// BriefSpans are the chunk ranges of the md brief as written;
	// BriefTokens its whole size by ceil(chars/4); BriefStated the size its
	// header states.
	BriefSpans  []evalscore.Span
	BriefTokens int
	BriefStated int
	// Units are the packet's ranked functions as unit keys, best first.
	Units []string
}

// stageError is a failed pipeline: which stage, its exit status and the tail of
// every stage's stderr.
type stageError struct {
	Stage  string
	Status string
	Tail   string
}

func (e *stageError) Error() string {
	return fmt.Sprintf("%s: %s", e.Stage, e.Status)
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
	cut bool
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
		t.cut = true
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := string(t.buf)
	if t.cut {
		s = "…" + s
	}
	return strings.TrimRight(s, "\n")
}

// runPipeline runs intake | zone | scout | probe | hydrate | packet with cwd =
// tree and RTCH_ZONE_ROOT = tree, the intent passed through a goal file kept
// outside the tree, and decodes the packet.
func runPipeline(ctx context.Context, tree, intent string, o pipelineOptions) (pipelineResult, error) {
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	tmp, err := os.MkdirTemp("", "rtch-eval-goal-")
	if err != nil {
		return pipelineResult{}, err
	}
	defer os.RemoveAll(tmp)
	goal := filepath.Join(tmp, "goal.txt")
	if err := os.WriteFile(goal, []byte(intent), 0o644); err != nil {
		return pipelineResult{}, err
	}
	args := [][]string{
		{"--goal-file", goal, "--profile", "code_path", "--fanout", "normal", "--risk", "read_only",
			"--output-kind", "hydration_packet", "--enough", o.Enough},
		{"--dir", tree},
		// Every task's tree is new: a tree index would be built and never
		// reused, and its output is byte-identical to --no-index.
		{"--no-index"}, append([]string{"--no-index"}, o.ProbeArgs...), o.HydrateArgs,
	}
	env := append(os.Environ(), "RTCH_ZONE_ROOT="+tree)
	stages := pipelineTools[:len(pipelineTools)-1]
	cmds := make([]*exec.Cmd, len(stages))
	tails := make([]*tailBuffer, len(pipelineTools))
	tails[len(stages)] = &tailBuffer{max: 2048}
	for i, tool := range stages {
		c := exec.CommandContext(ctx, filepath.Join(o.Bin, tool), args[i]...)
		c.Dir = tree
		c.Env = env
		c.WaitDelay = 5 * time.Second
		tails[i] = &tailBuffer{max: 2048}
		c.Stderr = tails[i]
		cmds[i] = c
	}
	var out bytes.Buffer
	var closers []io.Closer
	for i := 0; i+1 < len(cmds); i++ {
		r, w, err := os.Pipe()
		if err != nil {
			return pipelineResult{}, err
		}
		cmds[i].Stdout = w
		cmds[i+1].Stdin = r
		closers = append(closers, r, w)
	}
	cmds[len(cmds)-1].Stdout = &out
	start := time.Now()
	started := 0
	var startErr error
	for _, c := range cmds {
		if err := c.Start(); err != nil {
			startErr = err
			break
		}
		started++
	}
	// The parent's copies of the pipe ends must close so each stage sees EOF
	// when its upstream exits.
	for _, c := range closers {
		c.Close()
	}
	waitErrs := make([]error, len(cmds))
	for i := 0; i < started; i++ {
		waitErrs[i] = cmds[i].Wait()
	}
	if startErr != nil {
		return pipelineResult{}, fmt.Errorf("start %s: %w", pipelineTools[started], startErr)
	}
	tail := func() string {
		var b strings.Builder
		for i, t := range tails {
			if s := t.String(); s != "" {
				fmt.Fprintf(&b, "[%s] %s\n", pipelineTools[i], s)
			}
		}
		return strings.TrimRight(b.String(), "\n")
	}
	if ctx.Err() == context.DeadlineExceeded {
		return pipelineResult{}, &stageError{Stage: "pipeline", Status: fmt.Sprintf("timed out after %s", o.Timeout), Tail: tail()}
	}
	// The first stage that failed is the cause: later stages usually fail
	// only because their input ended early, and earlier ones that died of
	// SIGPIPE only because a later one stopped reading.
	cause := -1
	for i, err := range waitErrs {
		if err != nil && !brokenPipe(err) {
			cause = i
			break
		}
	}
	for i, err := range waitErrs {
		if cause < 0 && err != nil {
			cause = i
		}
	}
	if cause >= 0 {
		return pipelineResult{}, &stageError{Stage: pipelineTools[cause], Status: waitErrs[cause].Error(), Tail: tail()}
	}
	outs := map[string][]byte{}
	for _, format := range packetFormats {
		c := exec.CommandContext(ctx, filepath.Join(o.Bin, "rtch-packet"), "--format", format)
		c.Dir, c.Env, c.WaitDelay = tree, env, 5*time.Second
		c.Stdin = bytes.NewReader(out.Bytes())
		c.Stderr = tails[len(stages)]
		var b bytes.Buffer
		c.Stdout = &b
		if err := c.Run(); err != nil {
			return pipelineResult{}, &stageError{Stage: "rtch-packet --format " + format, Status: err.Error(), Tail: tail()}
		}
		outs[format] = b.Bytes()
	}
	elapsed := time.Since(start).Seconds()
	p, err := decodePacket(outs["json"])
	if err != nil {
		return pipelineResult{}, &stageError{Stage: "rtch-packet", Status: err.Error(), Tail: tail()}
	}
	res := packetResult(p)
	res.Seconds = elapsed
	md := string(outs["md"])
	for _, sp := range brief.Spans(md) {
		res.BriefSpans = append(res.BriefSpans, evalscore.Span{Path: sp.Path, Start: sp.Start, End: sp.End})
	}
	res.BriefTokens = tokens.Estimate(md)
	if m := statedSize.FindStringSubmatch(md); m != nil {
		res.BriefStated, _ = strconv.Atoi(m[1])
	}
	if res.BriefStated != res.BriefTokens || res.BriefTokens > res.Cap {
		return pipelineResult{}, &stageError{Stage: "rtch-packet --format md", Status: fmt.Sprintf("the brief is %d tokens, its header states %d, the budget is %d", res.BriefTokens, res.BriefStated, res.Cap), Tail: tail()}
	}
	return res, nil
}

// statedSize is the brief header's statement of its own size.
var statedSize = regexp.MustCompile(`(?m)^- \*\*size:\*\* (\d+) of \d+ tokens`)

// brokenPipe reports whether a stage was killed by SIGPIPE, or exited with a
// shell's 128+SIGPIPE status.
func brokenPipe(err error) bool {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && (ws.Signaled() && ws.Signal() == syscall.SIGPIPE || ws.Exited() && ws.ExitStatus() == 128+int(syscall.SIGPIPE))
}

// decodePacket finds the rtch.packet record in rtch-packet's output: the last
// NDJSON line of that kind, or the whole output when it is one JSON object.
func decodePacket(out []byte) (packetView, error) {
	var found *packetView
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 1<<20), 256<<20)
	no := 0
	for sc.Scan() {
		no++
		line := bytes.TrimSpace(sc.Bytes())
		if !bytes.Contains(line, []byte(`"rtch.packet"`)) {
			continue
		}
		var p packetView
		if json.Unmarshal(line, &p) == nil && p.Kind == "rtch.packet" {
			found = &p
		}
	}
	if found != nil {
		return *found, nil
	}
	var p packetView
	if err := json.Unmarshal(out, &p); err == nil && p.Kind == "rtch.packet" {
		return p, nil
	}
	if len(bytes.TrimSpace(out)) == 0 {
		return packetView{}, errors.New("no output")
	}
	return packetView{}, fmt.Errorf("no rtch.packet record in %d lines of output", no)
}

func packetResult(p packetView) pipelineResult {
	ss := p.SelectedSurfaces
	sort.SliceStable(ss, func(i, j int) bool { return ss[i].Rank < ss[j].Rank })
	var res pipelineResult
	for _, s := range ss {
		res.Ranked = append(res.Ranked, s.Path)
		res.Surfaces = append(res.Surfaces, surface{Path: s.Path, Score: s.Score, Why: s.WhySelected})
	}
	sum := 0
	for _, c := range p.HydratedChunks {
		res.Spans = append(res.Spans, evalscore.Span{Path: c.Path, Start: c.StartLine, End: c.EndLine})
		sum += c.EstTokens
	}
	res.Tokens = sum
	if p.Budget != nil {
		res.Tokens, res.Cap = p.Budget.EstTokens, p.Budget.Cap
	}
	res.Halting = p.HaltingReason
	res.Units = unitKeys(p.RankedFunctions)
	return res
}
