package main

import (
	"encoding/json"
	"fmt"
	"io"
	pathpkg "path"
	"slices"
	"sort"
	"strings"

	"github.com/rtch/rtch/pkg/atomicfile"

	"github.com/rtch/rtch/pkg/evalscore"
)

// systemResult is one system's result on one task.
type systemResult struct {
	// Failed is true when the system produced no ranking; Error says why.
	Failed bool   `json:"failed,omitempty"`
	Error  string `json:"error,omitempty"`
	// StderrTail holds the last lines of every pipeline stage's stderr when
	// the pipeline failed.
	StderrTail string `json:"stderr_tail,omitempty"`
	// Rank is the ranking's score.
	Rank evalscore.RankScore `json:"rank"`
	// GoldRanks maps each gold file to its 1-based rank, 0 when not ranked.
	GoldRanks map[string]int `json:"gold_ranks,omitempty"`
	// Top is the first ten ranked paths.
	Top []string `json:"top,omitempty"`
	// Surfaces is the packet's first ten selected surfaces with their scores
	// and reasons (pipeline only).
	Surfaces []surface `json:"surfaces,omitempty"`
	// HasPacket is true for the pipeline.
	HasPacket bool `json:"-"`
	// Packet is the hydrated chunks' gold-file and gold-line recall;
	// GoldChunks the hydrated line ranges of each gold file, for looking at
	// line-level misses beside the task's gold lines.
	Packet     *evalscore.PacketScore `json:"packet,omitempty"`
	GoldChunks map[string][][2]int    `json:"gold_chunks,omitempty"`
	// Brief is the gold-file and gold-line recall inside the md brief as
	// written; BriefTokens the brief's whole size, ceil(chars/4).
	Brief       *evalscore.PacketScore `json:"brief,omitempty"`
	BriefTokens int                    `json:"brief_tokens,omitempty"`
	// BriefGoldChunks are the line ranges of each gold file inside the md
	// brief's chunks, beside GoldChunks for the JSON packet.
	BriefGoldChunks map[string][][2]int `json:"brief_gold_chunks,omitempty"`
	// Tokens and Cap are the packet's budget.est_tokens and budget.cap.
	Tokens int `json:"tokens,omitempty"`
	Cap    int `json:"cap,omitempty"`
	// Halting is the packet's halting_reason.
	Halting string `json:"halting_reason,omitempty"`
	// Files is the number of files a baseline indexed; Exts the extensions
	// the reference baseline kept.
	Files int      `json:"files,omitempty"`
	Exts  []string `json:"exts,omitempty"`
	// Seconds is the system's wall time on the task.
	Seconds float64 `json:"seconds"`
	// Functions scores the packet's ranked_functions against the task's
	// gold units; WholeFiles is the gold-line recall of whole files read
	// in the packet's order within its budget (--whole-files).
	Functions  *evalscore.FuncScore   `json:"functions,omitempty"`
	WholeFiles *evalscore.PacketScore `json:"whole_files,omitempty"`
}

func (s *systemResult) outcome() evalscore.Outcome {
	o := evalscore.Outcome{Rank: s.Rank, HasPacket: s.HasPacket, Tokens: s.Tokens, Seconds: s.Seconds, Failed: s.Failed}
	if s.Packet != nil {
		o.Packet = *s.Packet
	}
	if s.Brief != nil {
		o.Brief, o.BriefTokens, o.HasBrief = *s.Brief, s.BriefTokens, true
	}
	return o
}

// taskResult is one task's line in the JSON report.
type taskResult struct {
	// Set is the task file's base name; Source the task's file and line.
	Set    string `json:"set"`
	Source string `json:"source"`
	// ID, Repo and Commit identify the task and its tree.
	ID     string `json:"id"`
	Repo   string `json:"repo"`
	Commit string `json:"commit"`
	// Gold is the task's non-test gold files; GoldLines their base-side line
	// ranges from the task file.
	Gold      []string            `json:"gold"`
	GoldLines map[string][][2]int `json:"gold_lines"`
	// Error is set when the tree could not be had, failing every system.
	Error string `json:"error,omitempty"`
	// Omitted lists files of the tree left out because the mirror lacks
	// their blobs (all far over the walker's size cap).
	Omitted []string `json:"omitted,omitempty"`
	// Lang is the language of the gold files; GoldUnits the definitions
	// (or files' top levels) that hold the gold lines.
	Lang      string   `json:"lang"`
	GoldUnits []string `json:"gold_units,omitempty"`
	// BM25 is the reference baseline (non-test files of the main language),
	// BM25All the baseline over every file the pipeline sees, Pipeline the
	// rtch pipeline (absent with --baseline-only).
	BM25     *systemResult `json:"bm25"`
	BM25All  *systemResult `json:"bm25_all"`
	Pipeline *systemResult `json:"pipeline,omitempty"`
	// Rankers are the pipeline under each ranking of --rankers (rtch-probe
	// --ranker NAME), by name.
	Rankers map[string]*systemResult `json:"rankers,omitempty"`
}

func (r taskResult) progress() string {
	desc := func(name string, s *systemResult) string {
		switch {
		case s == nil:
			return ""
		case s.Failed:
			return fmt.Sprintf(" %s FAILED (%s)", name, firstLine(s.Error))
		case s.Rank.FirstGold == 0:
			return fmt.Sprintf(" %s miss %.2fs", name, s.Seconds)
		default:
			return fmt.Sprintf(" %s first-gold@%d %.2fs", name, s.Rank.FirstGold, s.Seconds)
		}
	}
	return r.ID + desc("bm25", r.BM25) + desc("bm25-all", r.BM25All) + desc("rtch", r.Pipeline)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// groupSummary is one row group of the table: a repository or the whole set.
type groupSummary struct {
	// Group is the repository, or "overall".
	Group string `json:"group"`
	// BM25, BM25All and Pipeline summarise the systems over the group's
	// tasks.
	BM25     evalscore.Summary             `json:"bm25"`
	BM25All  evalscore.Summary             `json:"bm25_all"`
	Pipeline *evalscore.Summary            `json:"pipeline,omitempty"`
	Rankers  map[string]*evalscore.Summary `json:"rankers,omitempty"`
}

// setSummary is one task file's summaries.
type setSummary struct {
	// Name is the task file's base name; File its path.
	Name string `json:"name"`
	File string `json:"file"`
	// Groups has one entry per repository, in name order, then "overall".
	Groups []groupSummary `json:"groups"`
	// Misses groups the pipeline's misses; absent with --baseline-only.
	Misses *missSummary `json:"misses,omitempty"`
	// Languages are the function-level and line-recall rows per language
	// and overall; absent with --baseline-only.
	Languages []langRow `json:"languages,omitempty"`
}

// missSummary groups the tasks where the pipeline ranked no gold file in its
// top 5, by what stood in the way. A task may fall in several groups.
type missSummary struct {
	// Misses is the number of such tasks (failed runs included); BM25Hit how
	// many of them the reference baseline had a gold file in its top 5 for.
	Misses  int `json:"misses"`
	BM25Hit int `json:"bm25_hit_at_5"`
	// Failed is how many of them failed outright.
	Failed int `json:"failed"`
	// NeverSelected: no gold file among the selected surfaces at all.
	NeverSelected int `json:"gold_never_selected"`
	// NonSource: a file outside the tree's main source language (docs,
	// changelogs, data, scripts) in the top 5; Test: a test file in the top 5.
	NonSource int `json:"non_source_in_top5"`
	Test      int `json:"test_in_top5"`
	// IDs lists the missed tasks.
	IDs []string `json:"ids"`
}

func summarizeMisses(results []taskResult) *missSummary {
	m := &missSummary{IDs: []string{}}
	for _, r := range results {
		p := r.Pipeline
		if p == nil || (!p.Failed && p.Rank.Hit[2]) {
			continue
		}
		m.Misses++
		m.IDs = append(m.IDs, r.ID)
		if r.BM25 != nil && !r.BM25.Failed && r.BM25.Rank.Hit[2] {
			m.BM25Hit++
		}
		if p.Failed {
			m.Failed++
			continue
		}
		if p.Rank.FirstGold == 0 {
			m.NeverSelected++
		}
		var nonSource, test bool
		for _, path := range p.Top[:min(len(p.Top), 5)] {
			if evalscore.IsTestPath(path) {
				test = true
			} else if r.BM25 != nil && len(r.BM25.Exts) > 0 && !slices.Contains(r.BM25.Exts, pathpkg.Ext(path)) {
				nonSource = true
			}
		}
		if nonSource {
			m.NonSource++
		}
		if test {
			m.Test++
		}
	}
	return m
}

// report is the whole JSON output.
type report struct {
	// Date is when the run started (UTC); Args the command line; GoVersion the
	// toolchain the runner was built with.
	Date      string   `json:"date"`
	Args      []string `json:"args"`
	GoVersion string   `json:"go_version"`
	// BaselineOnly is true when the pipeline was not run.
	BaselineOnly bool `json:"baseline_only"`
	// Baseline holds the BM25 parameters.
	Baseline baselineOptions `json:"baseline"`
	// Rankers are the rankings reported beside the default (--rankers);
	// DefaultRanker the one rtch-probe uses unasked.
	Rankers       []string `json:"rankers,omitempty"`
	DefaultRanker string   `json:"default_ranker,omitempty"`
	// Enough is the intake's fixed --enough text.
	Enough string `json:"enough"`
	// Sets summarises each task file; Tasks lists every task's result.
	Sets  []setSummary `json:"sets"`
	Tasks []taskResult `json:"tasks"`
}

func summarizeSet(s taskSet, results []taskResult, baselineOnly bool) setSummary {
	byRepo := map[string][]taskResult{}
	for _, r := range results {
		byRepo[r.Repo] = append(byRepo[r.Repo], r)
	}
	repos := make([]string, 0, len(byRepo))
	for r := range byRepo {
		repos = append(repos, r)
	}
	sort.Strings(repos)
	group := func(name string, rs []taskResult) groupSummary {
		var b, a, p []evalscore.Outcome
		c := map[string][]evalscore.Outcome{}
		for _, r := range rs {
			b = append(b, r.BM25.outcome())
			a = append(a, r.BM25All.outcome())
			if r.Pipeline != nil {
				p = append(p, r.Pipeline.outcome())
			}
			for name, sr := range r.Rankers {
				c[name] = append(c[name], sr.outcome())
			}
		}
		g := groupSummary{Group: name, BM25: evalscore.Summarize(b), BM25All: evalscore.Summarize(a)}
		if !baselineOnly {
			ps := evalscore.Summarize(p)
			g.Pipeline = &ps
		}
		for name, os := range c {
			if g.Rankers == nil {
				g.Rankers = map[string]*evalscore.Summary{}
			}
			cs := evalscore.Summarize(os)
			g.Rankers[name] = &cs
		}
		return g
	}
	out := setSummary{Name: s.Name, File: s.File}
	for _, r := range repos {
		out.Groups = append(out.Groups, group(r, byRepo[r]))
	}
	out.Groups = append(out.Groups, group("overall", results))
	if !baselineOnly {
		out.Misses = summarizeMisses(results)
		out.Languages = langRows(results)
	}
	return out
}

func pct(p *float64) string {
	if p == nil {
		return "–"
	}
	return fmt.Sprintf("%.1f", *p)
}

// printMarkdown writes one table per task file: a row per repository and
// system, then the overall rows.
func printMarkdown(w io.Writer, rep report) {
	for _, s := range rep.Sets {
		fmt.Fprintf(w, "### %s\n\n", s.Name)
		if s.Groups[len(s.Groups)-1].BM25.Tasks == 0 {
			fmt.Fprintf(w, "No task of %s matches the filters.\n\n", s.File)
			continue
		}
		fmt.Fprintln(w, "| repo | n | system | acc@1 | acc@3 | acc@5 | acc@10 | hit@1 | hit@3 | hit@5 | hit@10 | MRR | packet has gold | file recall | line recall | tokens | brief tokens (max) | brief line recall | s/task (median) | failed |")
		fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
		for _, g := range s.Groups {
			name := g.Group
			if name == "overall" {
				name = "**overall**"
			}
			row := func(system string, m evalscore.Summary) {
				tokens, briefTokens := "–", "–"
				if m.FileRecall != nil {
					tokens = fmt.Sprintf("%.0f", m.MeanTokens)
				}
				if m.BriefLineRecall != nil {
					briefTokens = fmt.Sprintf("%.0f (%d)", m.MeanBriefTokens, m.MaxBriefTokens)
				}
				fmt.Fprintf(w, "| %s | %d | %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %s | %s | %s | %s | %s | %s | %.3f (%.3f) | %d |\n",
					name, m.Tasks, system, m.Acc[0], m.Acc[1], m.Acc[2], m.Acc[3], m.Hit[0], m.Hit[1], m.Hit[2], m.Hit[3],
					100*m.MRR, pct(m.PacketHasGold), pct(m.FileRecall), pct(m.LineRecall), tokens, briefTokens, pct(m.BriefLineRecall), m.MeanSeconds, m.MedianSeconds, m.Failed)
			}
			row("bm25", g.BM25)
			row("bm25-all", g.BM25All)
			if g.Pipeline != nil {
				row("rtch", *g.Pipeline)
			}
			for _, name := range rep.Rankers {
				if m := g.Rankers[name]; m != nil {
					row("rtch-"+name, *m)
				}
			}
		}
		fmt.Fprintln(w)
		if m := s.Misses; m != nil {
			fmt.Fprintf(w, "rtch misses (no gold file in the top 5): %d of %d; bm25 had one in its top 5 for %d; failed %d; gold never selected %d; a non-source file in the top 5 %d; a test file in the top 5 %d.\n\n",
				m.Misses, s.Groups[len(s.Groups)-1].BM25.Tasks, m.BM25Hit, m.Failed, m.NeverSelected, m.NonSource, m.Test)
		}
		printLangRows(w, s.Languages)
	}
	fmt.Fprintln(w, "bm25: BM25 over the non-test files of the main language (the reference protocol); bm25-all: BM25 over")
	fmt.Fprintln(w, "every file the pipeline sees; rtch: the packet's selected_surfaces; rtch-NAME: the same with rtch-probe")
	fmt.Fprintln(w, "--ranker NAME (classic: the hand-written ranking; learned: the model over its evidence), the default's")
	fmt.Fprintln(w, "being the rtch run itself.")
	fmt.Fprintln(w, "acc@k: all non-test gold files in the top k; hit@k: any; MRR ×100 of the first gold file;")
	fmt.Fprintln(w, "packet columns: % of tasks whose hydrated chunks hold a gold file, mean gold-file and gold-line recall")
	fmt.Fprintln(w, "inside the JSON packet's chunks, mean budget.est_tokens (the chunk records); brief columns: the md brief as")
	fmt.Fprintln(w, "written, its mean (max) whole size by ceil(chars/4) and the mean gold-line recall inside its chunks;")
	fmt.Fprintln(w, "s/task: mean and median wall seconds. Failed tasks count as misses.")
}

// printFailures lists every failed task with its error and stderr tail.
func printFailures(w io.Writer, rep report) {
	n := 0
	type system struct {
		name string
		r    *systemResult
	}
	for _, t := range rep.Tasks {
		systems := []system{{"bm25", t.BM25}, {"bm25-all", t.BM25All}, {"rtch", t.Pipeline}}
		for _, name := range rep.Rankers {
			if name != rep.DefaultRanker {
				systems = append(systems, system{"rtch-" + name, t.Rankers[name]})
			}
		}
		for _, sys := range systems {
			if sys.r == nil || !sys.r.Failed {
				continue
			}
			n++
			fmt.Fprintf(w, "eval: failed: %s %s (%s): %s\n", t.ID, sys.name, t.Source, sys.r.Error)
			for _, l := range strings.Split(sys.r.StderrTail, "\n") {
				if l != "" {
					fmt.Fprintf(w, "eval:   %s\n", l)
				}
			}
		}
	}
	if n > 0 {
		fmt.Fprintf(w, "eval: %d failed task runs (counted as misses)\n", n)
	}
}

// writeJSON writes the report atomically (renameio: temp file, fsync, rename).
func writeJSON(path string, rep report) error {
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, append(data, '\n'), 0o644)
}
