package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"

	"github.com/rtch/rtch/pkg/evalscore"
	"github.com/rtch/rtch/pkg/symbols"
)

// rankerDefault finds the default in rtch-probe --help's line for
// --ranker: "(default classic)".
var rankerDefault = regexp.MustCompile(`(?m)^\s*--ranker \S+.*\(default (\w+)\)`)

// probeDefaultRanker is the ranking rtch-probe of bin uses unasked.
func probeDefaultRanker(ctx context.Context, bin string) (string, error) {
	out, err := exec.CommandContext(ctx, filepath.Join(bin, "rtch-probe"), "--help").Output()
	if err != nil {
		return "", fmt.Errorf("rtch-probe --help: %v", err)
	}
	m := rankerDefault.FindSubmatch(out)
	if m == nil {
		return "", errors.New("rtch-probe --help names no default --ranker: a binary without rankings cannot be compared by them (--rankers \"\")")
	}
	return string(m[1]), nil
}

// runRankers runs the pipeline under each ranking of o.rankers but the
// default (whose column is the default run's: withDefaultRanker).
func runRankers(ctx context.Context, tree string, t evalscore.Task, po pipelineOptions, o options) map[string]*systemResult {
	var out map[string]*systemResult
	for _, name := range o.rankers {
		if name == o.defaultRanker {
			continue
		}
		if out == nil {
			out = map[string]*systemResult{}
		}
		out[name] = runRanker(ctx, tree, t, po, name)
	}
	return out
}

// withDefaultRanker is the task's rankings with the default's filled in
// from the default run.
func withDefaultRanker(r taskResult, o options) map[string]*systemResult {
	for _, name := range o.rankers {
		if name == o.defaultRanker && r.Pipeline != nil {
			if r.Rankers == nil {
				r.Rankers = map[string]*systemResult{}
			}
			r.Rankers[name] = r.Pipeline
		}
	}
	return r.Rankers
}

// runRanker runs the pipeline with rtch-probe --ranker name and scores its
// ranking and packet as the default pipeline's.
func runRanker(ctx context.Context, tree string, t evalscore.Task, po pipelineOptions, name string) *systemResult {
	po.ProbeArgs = append(po.ProbeArgs, "--ranker", name)
	p, err := runPipeline(ctx, tree, t.Intent, po)
	if err != nil {
		return failedRun(err)
	}
	sr := scoreRanking(p.Ranked, t)
	sr.HasPacket = true
	pk := evalscore.ScorePacket(p.Spans, t.Gold, t.GoldLines)
	sr.Packet = &pk
	sr.Tokens, sr.Cap, sr.Halting, sr.Seconds = p.Tokens, p.Cap, p.Halting, p.Seconds
	sr.Surfaces = p.Surfaces[:min(len(p.Surfaces), 10)]
	return sr
}

// failedRun is the result of a pipeline run that failed: its error and
// the failing stage's stderr tail.
func failedRun(err error) *systemResult {
	sr := &systemResult{Failed: true, Error: err.Error(), HasPacket: true}
	var se *stageError
	if errors.As(err, &se) {
		sr.StderrTail = se.Tail
	}
	return sr
}

// taskLanguage is the language of a task's first gold file (symbols.Lang;
// TypeScript and JavaScript together), "other" when it has none.
func taskLanguage(r taskResult) string {
	if len(r.Gold) == 0 {
		return "other"
	}
	switch l := symbols.Lang(r.Gold[0]); l {
	case "":
		return "other"
	case "typescript", "javascript":
		return "ts/js"
	default:
		return l
	}
}

// printLanguages writes file acc@k and MRR of every system per language
// over all task files.
func printLanguages(w io.Writer, rep report) {
	by := map[string][]taskResult{}
	for _, t := range rep.Tasks {
		by[taskLanguage(t)] = append(by[taskLanguage(t)], t)
	}
	langs := make([]string, 0, len(by))
	for l := range by {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	type system struct {
		name string
		get  func(taskResult) *systemResult
	}
	systems := []system{
		{"bm25", func(t taskResult) *systemResult { return t.BM25 }},
		{"rtch", func(t taskResult) *systemResult { return t.Pipeline }},
	}
	for _, name := range rep.Rankers {
		systems = append(systems, system{"rtch-" + name, func(t taskResult) *systemResult { return t.Rankers[name] }})
	}
	fmt.Fprintln(w, "\n### by language (every task file)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| language | n | system | acc@1 | acc@3 | acc@5 | acc@10 | MRR | s/task (median) |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	for _, l := range langs {
		for _, sys := range systems {
			var os []evalscore.Outcome
			for _, t := range by[l] {
				if r := sys.get(t); r != nil {
					os = append(os, r.outcome())
				}
			}
			if len(os) == 0 {
				continue
			}
			m := evalscore.Summarize(os)
			fmt.Fprintf(w, "| %s | %d | %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.3f (%.3f) |\n",
				l, m.Tasks, sys.name, m.Acc[0], m.Acc[1], m.Acc[2], m.Acc[3], 100*m.MRR, m.MeanSeconds, m.MedianSeconds)
		}
	}
}
