// Command eval measures rtch's localization quality on tasks with known answers.
// For every task it materialises the repository tree at the task's base commit
// (git archive, cached by commit), runs the real pipeline
//
//	rtch-intake --goal-file F … | rtch-zone --dir TREE | rtch-scout | rtch-probe | rtch-hydrate | rtch-packet --format json
//
// with cwd and RTCH_ZONE_ROOT set to the tree, ranks the same tree's files with
// plain BM25 as the baseline, and scores both per SPEC §11: acc@k, hit@k and
// MRR of the ranking; gold-file and gold-line recall, tokens and seconds of the
// packet. It prints a markdown table per task file (per repository and overall,
// both systems side by side) on stdout, progress and failures on stderr, and
// with --json the full per-task results. A task whose pipeline fails is counted
// as a miss and listed with the tail of every stage's stderr.
//
// It is run by `make eval`, never by go test. See docs/BENCHMARKS.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rtch/rtch/bench/internal/trees"
	"github.com/rtch/rtch/pkg/bm25"
	"github.com/rtch/rtch/pkg/evalscore"
)

// defaultEnough is the fixed halting condition of every evaluation intake.
const defaultEnough = "the files and line ranges that must change to resolve the task are located and hydrated"

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

// options are the parsed flags.
type options struct {
	tasks        []string
	repos        string
	cache        string
	bin          string
	baselineOnly bool
	limit        int
	repoFilter   *regexp.Regexp
	jobs         int
	jsonOut      string
	timeout      time.Duration
	enough       string
	baseline     baselineOptions
	// rankers are the rankings (rtch-probe --ranker NAME) reported beside
	// the default pipeline, each as rtch-NAME; defaultRanker is the one
	// rtch-probe uses unasked, whose column is the default run's.
	rankers       []string
	defaultRanker string
	// wholeFiles also scores whole files read in the packet's own order
	// within its budget (the baseline the windows must beat).
	wholeFiles bool
	// enoughFloor, when > 0, is rtch-hydrate's --enough-floor (the stop
	// rule's parameter, for its curve).
	enoughFloor int
	// functionOrder, when set, is rtch-hydrate's --function-order.
	functionOrder string
}

const usage = `usage: eval --repos DIR [flags]

Runs the rtch pipeline and a BM25 baseline over localization tasks and scores
both. Progress and failures go to stderr, the table to stdout.

Flags:
  --tasks FILE        task file (JSONL, go-commits or SWE-bench format); repeatable
                      (default: ../shared/eval/go-commits.jsonl and
                      ../shared/eval/swebench-verified-dev.jsonl)
  --repos DIR         directory of git dirs or clones: OWNER+NAME/repo, OWNER+NAME,
                      OWNER+NAME.git, OWNER/NAME, OWNER/NAME.git, OWNER__NAME or NAME,
                      each a bare repository or a clone (required)
  --cache DIR         tree cache (default $XDG_CACHE_HOME/rtch-eval or ~/.cache/rtch-eval)
  --bin DIR           directory of the rtch binaries (default: go build ./cmd/... into
                      a temporary directory)
  --baseline-only     run and report the BM25 baseline only
  --limit N           first N tasks of each task file (after --repo-filter; 0 = all)
  --repo-filter RE    only tasks whose repo matches the regular expression
  --jobs N            tasks run at once (default 1)
  --json FILE         write per-task results and summaries as JSON
  --timeout D         limit for one task's pipeline (default 5m)
  --enough TEXT       the intake's --enough text (default: a fixed sentence)
  --baseline-exts L   comma-separated extensions the reference BM25 ranks (default: the
                      tree's main source language, e.g. .go or .py)
  --rankers LIST      rankings reported beside the default pipeline, each as rtch-NAME: the
                      pipeline again with rtch-probe --ranker NAME, unless NAME is its default
                      (default classic,learned; "" for none)
  --whole-files       also score whole files read in the packet's own order within
                      its budget (gold-line recall beside the packet's chunks)
  --enough-floor N    run rtch-hydrate with --enough-floor N (percent of the chunk budget
                      spent before the lane may stop; 100 spends it all; default: its own)
  --function-order O  run rtch-hydrate with --function-order O (hand or learned; default: its own)

Exit codes: 0 done (failed tasks are reported, not fatal), 1 the run failed,
2 usage or missing input.
`

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	o, err := parseFlags(args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Print(usage)
			return 0
		}
		fmt.Fprintf(os.Stderr, "eval: error: %v\n", err)
		fmt.Fprintln(os.Stderr, "eval: hint: eval --help lists the flags")
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	code := evaluate(ctx, o, os.Stdout, os.Stderr)
	if ctx.Err() != nil {
		fmt.Fprintln(os.Stderr, "eval: interrupted")
		return 130
	}
	return code
}

func parseFlags(args []string) (options, error) {
	var o options
	var tasks listFlag
	var filter string
	var exts string
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(new(strings.Builder))
	fs.Var(&tasks, "tasks", "")
	fs.StringVar(&o.repos, "repos", "", "")
	fs.StringVar(&o.cache, "cache", "", "")
	fs.StringVar(&o.bin, "bin", "", "")
	fs.BoolVar(&o.baselineOnly, "baseline-only", false, "")
	fs.IntVar(&o.limit, "limit", 0, "")
	fs.StringVar(&filter, "repo-filter", "", "")
	fs.IntVar(&o.jobs, "jobs", 1, "")
	fs.StringVar(&o.jsonOut, "json", "", "")
	fs.DurationVar(&o.timeout, "timeout", 5*time.Minute, "")
	fs.StringVar(&o.enough, "enough", defaultEnough, "")
	fs.StringVar(&exts, "baseline-exts", "", "")
	rankers := fs.String("rankers", "classic,learned", "")
	fs.BoolVar(&o.wholeFiles, "whole-files", false, "")
	fs.IntVar(&o.enoughFloor, "enough-floor", 0, "")
	fs.StringVar(&o.functionOrder, "function-order", "", "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, err
		}
		return o, errors.New(strings.TrimSpace(strings.SplitN(err.Error(), "\n", 2)[0]))
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if o.repos == "" {
		return o, errors.New("--repos DIR is required")
	}
	if err := trees.CheckDir(o.repos); err != nil {
		return o, fmt.Errorf("--repos: %v", err)
	}
	if o.jobs < 1 || o.limit < 0 || o.timeout <= 0 {
		return o, errors.New("--jobs must be ≥ 1, --limit ≥ 0 and --timeout > 0")
	}
	if o.enoughFloor < 0 || o.enoughFloor > 100 {
		return o, errors.New("--enough-floor must be a percentage from 1 to 100")
	}
	if o.functionOrder != "" && o.functionOrder != "hand" && o.functionOrder != "learned" {
		return o, fmt.Errorf("--function-order %q: must be hand or learned", o.functionOrder)
	}
	if filter != "" {
		re, err := regexp.Compile(filter)
		if err != nil {
			return o, fmt.Errorf("--repo-filter: %v", err)
		}
		o.repoFilter = re
	}
	o.tasks = tasks
	if len(o.tasks) == 0 {
		o.tasks = []string{"../shared/eval/go-commits.jsonl", "../shared/eval/swebench-verified-dev.jsonl"}
	}
	if o.cache == "" {
		base := os.Getenv("XDG_CACHE_HOME")
		if base == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				return o, fmt.Errorf("no --cache and no home directory: %v", err)
			}
			base = filepath.Join(home, ".cache")
		}
		o.cache = filepath.Join(base, "rtch-eval")
	}
	// The pipeline runs with the tree as its working directory, so every
	// path it is given must be absolute.
	for _, p := range []*string{&o.repos, &o.cache, &o.bin} {
		if *p == "" {
			continue
		}
		abs, err := filepath.Abs(*p)
		if err != nil {
			return o, err
		}
		*p = abs
	}
	if *rankers != "" {
		o.rankers = strings.Split(*rankers, ",")
	}
	o.baseline = baselineOptions{K1: bm25.Baseline.K1, B: bm25.Baseline.B}
	if exts != "" {
		o.baseline.Exts = strings.Split(exts, ",")
	}
	return o, nil
}

// taskSet is the tasks of one task file.
type taskSet struct {
	Name  string
	File  string
	Tasks []evalscore.Task
}

func loadSets(o options) ([]taskSet, error) {
	var sets []taskSet
	for _, f := range o.tasks {
		fh, err := os.Open(f)
		if err != nil {
			return nil, err
		}
		tasks, err := evalscore.ReadTasks(fh, f)
		fh.Close()
		if err != nil {
			return nil, err
		}
		var kept []evalscore.Task
		for _, t := range tasks {
			if o.repoFilter != nil && !o.repoFilter.MatchString(t.Repo) {
				continue
			}
			kept = append(kept, t)
			if o.limit > 0 && len(kept) == o.limit {
				break
			}
		}
		name := strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
		sets = append(sets, taskSet{Name: name, File: f, Tasks: kept})
	}
	return sets, nil
}

// buildTools builds the pipeline binaries into a temporary directory.
func buildTools(ctx context.Context, stderr io.Writer) (dir string, cleanup func(), err error) {
	dir, err = os.MkdirTemp("", "rtch-eval-bin-")
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	pkgs := []string{}
	for _, t := range pipelineTools {
		pkgs = append(pkgs, "./cmd/"+t)
	}
	cmd := exec.CommandContext(ctx, "go", append([]string{"build", "-o", dir + string(filepath.Separator)}, pkgs...)...)
	cmd.Stdout, cmd.Stderr = stderr, stderr
	if err := cmd.Run(); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("go build %s: %v (run from the module root, or pass --bin DIR)", strings.Join(pkgs, " "), err)
	}
	return dir, cleanup, nil
}

func evaluate(ctx context.Context, o options, stdout, stderr io.Writer) int {
	sets, err := loadSets(o)
	if err != nil {
		fmt.Fprintf(stderr, "eval: error: %v\n", err)
		return 2
	}
	total := 0
	for _, s := range sets {
		total += len(s.Tasks)
	}
	if total == 0 {
		fmt.Fprintln(stderr, "eval: error: no task matches --repo-filter in the task files")
		return 2
	}
	// Resolve every repository before any work, so a missing corpus is one
	// clear error rather than a column of failed tasks.
	gitDirs := map[string]string{}
	var missing []string
	for _, s := range sets {
		for _, t := range s.Tasks {
			if _, ok := gitDirs[t.Repo]; ok {
				continue
			}
			g, err := trees.FindGitDir(o.repos, t.Repo)
			if err != nil {
				missing = append(missing, err.Error())
			}
			gitDirs[t.Repo] = g
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		for _, m := range missing {
			fmt.Fprintf(stderr, "eval: error: %s\n", m)
		}
		fmt.Fprintln(stderr, "eval: hint: fetch the missing repositories into --repos, or leave them out with --repo-filter")
		return 2
	}
	if !o.baselineOnly {
		if o.bin == "" {
			fmt.Fprintln(stderr, "eval: building the pipeline binaries")
			dir, cleanup, err := buildTools(ctx, stderr)
			if err != nil {
				fmt.Fprintf(stderr, "eval: error: %v\n", err)
				return 2
			}
			defer cleanup()
			o.bin = dir
		}
		for _, t := range pipelineTools {
			if _, err := os.Stat(filepath.Join(o.bin, t)); err != nil {
				fmt.Fprintf(stderr, "eval: error: %v\n", err)
				fmt.Fprintln(stderr, "eval: hint: --bin must hold every pipeline binary; --baseline-only runs without them")
				return 2
			}
		}
	}
	if !o.baselineOnly && len(o.rankers) > 0 {
		if o.defaultRanker, err = probeDefaultRanker(ctx, o.bin); err != nil {
			fmt.Fprintf(stderr, "eval: error: %v\n", err)
			return 2
		}
	}
	mat := &trees.Materialiser{Cache: o.cache}
	po := pipelineOptions{Bin: o.bin, Enough: o.enough, Timeout: o.timeout}
	if o.enoughFloor > 0 {
		po.HydrateArgs = []string{"--enough-floor", strconv.Itoa(o.enoughFloor)}
	}
	if o.functionOrder != "" {
		po.HydrateArgs = append(po.HydrateArgs, "--function-order", o.functionOrder)
	}
	rep := report{
		Date:          time.Now().UTC().Format(time.RFC3339),
		Args:          os.Args,
		GoVersion:     runtime.Version(),
		BaselineOnly:  o.baselineOnly,
		Baseline:      o.baseline,
		Rankers:       o.rankers,
		DefaultRanker: o.defaultRanker,
		Enough:        o.enough,
	}
	done := 0
	var progressMu sync.Mutex
	for _, s := range sets {
		results := make([]taskResult, len(s.Tasks))
		work := make(chan int)
		var wg sync.WaitGroup
		for w := 0; w < o.jobs; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range work {
					r := runTask(ctx, s.Tasks[i], gitDirs[s.Tasks[i].Repo], mat, o, po)
					r.Rankers = withDefaultRanker(r, o)
					r.Set = s.Name
					results[i] = r
					progressMu.Lock()
					done++
					fmt.Fprintf(stderr, "eval: [%d/%d] %s\n", done, total, r.progress())
					progressMu.Unlock()
				}
			}()
		}
	feed:
		for i := range s.Tasks {
			select {
			case work <- i:
			case <-ctx.Done():
				break feed
			}
		}
		close(work)
		wg.Wait()
		if ctx.Err() != nil {
			return 130
		}
		rep.Sets = append(rep.Sets, summarizeSet(s, results, o.baselineOnly))
		rep.Tasks = append(rep.Tasks, results...)
	}
	printMarkdown(stdout, rep)
	printLanguages(stdout, rep)
	printFailures(stderr, rep)
	if o.jsonOut != "" {
		if err := writeJSON(o.jsonOut, rep); err != nil {
			fmt.Fprintf(stderr, "eval: error: %v\n", err)
			return 1
		}
	}
	return 0
}

// runTask materialises one task's tree and runs both systems on it.
func runTask(ctx context.Context, t evalscore.Task, gitDir string, mat *trees.Materialiser, o options, po pipelineOptions) taskResult {
	r := taskResult{ID: t.ID, Repo: t.Repo, Commit: t.Commit, Gold: t.Gold, GoldLines: t.GoldLines, Source: t.Source}
	r.Lang = taskLanguage(r)
	fail := func(err error) taskResult {
		r.Error = err.Error()
		r.BM25 = &systemResult{Failed: true, Error: err.Error()}
		r.BM25All = &systemResult{Failed: true, Error: err.Error()}
		if !o.baselineOnly {
			r.Pipeline = &systemResult{Failed: true, Error: err.Error()}
		}
		return r
	}
	if err := trees.HasCommit(ctx, gitDir, t.Commit); err != nil {
		return fail(err)
	}
	tree, _, err := mat.Tree(ctx, gitDir, t.Repo, t.Commit)
	if err != nil {
		return fail(err)
	}
	if missing, err := os.ReadFile(tree + ".missing"); err == nil {
		r.Omitted = strings.Fields(string(missing))
	}
	b, err := runBaseline(ctx, tree, t.Intent, o.baseline)
	if err != nil {
		r.BM25 = &systemResult{Failed: true, Error: err.Error()}
		r.BM25All = &systemResult{Failed: true, Error: err.Error()}
	} else {
		r.BM25 = scoreRanking(b.Ref, t)
		r.BM25.Seconds, r.BM25.Files, r.BM25.Exts = b.Seconds, b.RefFiles, b.RefExts
		r.BM25All = scoreRanking(b.All, t)
		r.BM25All.Seconds, r.BM25All.Files = b.Seconds, b.AllFiles
	}
	if o.baselineOnly {
		return r
	}
	r.Rankers = runRankers(ctx, tree, t, po, o)
	p, err := runPipeline(ctx, tree, t.Intent, po)
	if err != nil {
		r.Pipeline = failedRun(err)
		return r
	}
	sr := scoreRanking(p.Ranked, t)
	sr.HasPacket = true
	pk := evalscore.ScorePacket(p.Spans, t.Gold, t.GoldLines)
	sr.Packet = &pk
	sr.GoldChunks = goldSpans(p.Spans, t.Gold)
	sr.BriefGoldChunks = goldSpans(p.BriefSpans, t.Gold)
	bs := evalscore.ScorePacket(p.BriefSpans, t.Gold, t.GoldLines)
	sr.Brief, sr.BriefTokens = &bs, p.BriefTokens
	sr.Tokens, sr.Cap, sr.Halting, sr.Seconds = p.Tokens, p.Cap, p.Halting, p.Seconds
	sr.Surfaces = p.Surfaces[:min(len(p.Surfaces), 10)]
	r.GoldUnits = goldUnits(tree, t)
	fs := evalscore.ScoreFunctions(p.Units, r.GoldUnits)
	sr.Functions = &fs
	if o.wholeFiles {
		ws := evalscore.ScorePacket(wholeFiles(tree, p.Ranked, p.Cap), t.Gold, t.GoldLines)
		sr.WholeFiles = &ws
	}
	r.Pipeline = sr
	return r
}

// goldSpans are the line ranges of spans in the gold files, by file (nil
// when none is in a gold file).
func goldSpans(spans []evalscore.Span, gold []string) map[string][][2]int {
	var out map[string][][2]int
	for _, sp := range spans {
		path := evalscore.CleanPath(sp.Path)
		if slices.Contains(gold, path) {
			if out == nil {
				out = map[string][][2]int{}
			}
			out[path] = append(out[path], [2]int{sp.Start, sp.End})
		}
	}
	return out
}

func scoreRanking(ranked []string, t evalscore.Task) *systemResult {
	sr := &systemResult{Rank: evalscore.ScoreRanking(ranked, t.Gold)}
	pos := map[string]int{}
	for i, p := range ranked {
		p = evalscore.CleanPath(p)
		if _, ok := pos[p]; !ok {
			pos[p] = i + 1
		}
	}
	sr.GoldRanks = map[string]int{}
	for _, g := range t.Gold {
		sr.GoldRanks[g] = pos[g]
	}
	sr.Top = ranked[:min(len(ranked), 10)]
	return sr
}
