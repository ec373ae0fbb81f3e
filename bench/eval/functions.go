package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/rtch/rtch/pkg/brief"
	"github.com/rtch/rtch/pkg/evalscore"
	"github.com/rtch/rtch/pkg/hydrate"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/tokens"
	"github.com/rtch/rtch/pkg/walk"
)

// Function level and line recall: the gold units of a task are the
// definitions that enclose the fix's base-side lines (a line outside every
// definition counts as its file's top level), scored against the packet's
// ranked_functions; line recall is reported per language beside whole
// files read in the packet's own order within the same budget.

// rankedFunction is one ranked_functions entry as the scorer reads it.
type rankedFunction struct {
	Path      string `json:"path"`
	Kind      string `json:"kind"`
	StartLine int    `json:"start_line"`
}

// unitKeys are the packet's ranked functions as unit keys, best first.
func unitKeys(fs []rankedFunction) []string {
	keys := make([]string, 0, len(fs))
	for _, f := range fs {
		head := f.StartLine
		if f.Kind == "top_level" {
			head = 0
		}
		keys = append(keys, evalscore.UnitKey(evalscore.CleanPath(f.Path), head))
	}
	return keys
}

// goldUnits are the task's gold units, read from its tree (a gold file the
// tree lacks has none).
func goldUnits(tree string, t evalscore.Task) []string {
	var out []string
	for _, g := range t.Gold {
		src, err := os.ReadFile(filepath.Join(tree, filepath.FromSlash(g)))
		if err != nil {
			continue
		}
		out = append(out, evalscore.GoldUnits(g, src, t.GoldLines[g])...)
	}
	return out
}

// wholeFiles is the baseline of reading whole files in the packet's own
// order until the budget is spent: each file priced as the brief writes a
// whole-file chunk (brief.Chunk), the last one cut to the lines that fit.
// The budget is the packet's whole cap (the brief spends part of it on its
// frame), so the baseline gets at least what the packet's chunks got.
func wholeFiles(tree string, ranked []string, cap int) []evalscore.Span {
	var spans []evalscore.Span
	left := cap
	for _, p := range ranked {
		data, err := os.ReadFile(filepath.Join(tree, filepath.FromSlash(p)))
		if err != nil || walk.IsBinary(data) {
			continue
		}
		lines := strings.SplitAfter(walk.DecodeText(data), "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		cost := func(n int) int {
			c := schema.Chunk{Path: p, LineRange: hydrate.LineRange(1, n), StartLine: 1, EndLine: n, Text: strings.Join(lines[:n], "")}
			return tokens.Estimate(brief.Chunk(c))
		}
		n := len(lines)
		if n == 0 {
			continue
		}
		if cost(n) > left {
			// The most lines that fit.
			n = sort.Search(len(lines), func(i int) bool { return cost(i+1) > left })
			if n > 0 {
				spans = append(spans, evalscore.Span{Path: p, Start: 1, End: n})
			}
			break
		}
		left -= cost(n)
		spans = append(spans, evalscore.Span{Path: p, Start: 1, End: n})
	}
	return spans
}

// langRow is one row of the function-level table: a language or "all".
type langRow struct {
	Lang  string `json:"lang"`
	Tasks int    `json:"tasks"`
	// FuncAcc and FuncHit are function-level acc@k and hit@k in percent
	// for k in evalscore.FuncKs, over every task (a failed task, or one
	// whose gold files the base tree lacks, counts as a miss).
	FuncAcc [3]float64 `json:"func_acc"`
	FuncHit [3]float64 `json:"func_hit"`
	// JSONLineRecall, BriefLineRecall and WholeFileLineRecall are mean
	// gold-line recall in percent (whole files: null unless asked for).
	JSONLineRecall      float64  `json:"json_line_recall"`
	BriefLineRecall     float64  `json:"brief_line_recall"`
	WholeFileLineRecall *float64 `json:"whole_file_line_recall,omitempty"`
	// MedianBriefTokens is the median size of the md brief.
	MedianBriefTokens int `json:"median_brief_tokens"`
}

// langRows summarises a set's pipeline results per language and overall.
func langRows(results []taskResult) []langRow {
	by := map[string][]taskResult{}
	for _, r := range results {
		by[r.Lang] = append(by[r.Lang], r)
	}
	langs := make([]string, 0, len(by))
	for l := range by {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	var rows []langRow
	for _, l := range langs {
		rows = append(rows, summarizeLang(l, by[l]))
	}
	return append(rows, summarizeLang("all", results))
}

func summarizeLang(lang string, rs []taskResult) langRow {
	row := langRow{Lang: lang, Tasks: len(rs)}
	var sizes []int
	var whole float64
	wholes := 0
	for _, r := range rs {
		p := r.Pipeline
		if p == nil || p.Failed {
			continue
		}
		if p.Functions != nil {
			for i := range evalscore.FuncKs {
				if p.Functions.Acc[i] {
					row.FuncAcc[i]++
				}
				if p.Functions.Hit[i] {
					row.FuncHit[i]++
				}
			}
		}
		if p.Packet != nil {
			row.JSONLineRecall += p.Packet.LineRecall
		}
		if p.Brief != nil {
			row.BriefLineRecall += p.Brief.LineRecall
			sizes = append(sizes, p.BriefTokens)
		}
		if p.WholeFiles != nil {
			whole += p.WholeFiles.LineRecall
			wholes++
		}
	}
	n := float64(max(len(rs), 1))
	for i := range evalscore.FuncKs {
		row.FuncAcc[i] = round1(100 * row.FuncAcc[i] / n)
		row.FuncHit[i] = round1(100 * row.FuncHit[i] / n)
	}
	row.JSONLineRecall = round1(100 * row.JSONLineRecall / n)
	row.BriefLineRecall = round1(100 * row.BriefLineRecall / n)
	if wholes > 0 {
		w := round1(100 * whole / n)
		row.WholeFileLineRecall = &w
	}
	if len(sizes) > 0 {
		slices.Sort(sizes)
		row.MedianBriefTokens = sizes[len(sizes)/2]
	}
	return row
}

func round1(x float64) float64 { return float64(int(x*10+0.5)) / 10 }

// printLangRows writes the function-level and line-recall table of a set.
func printLangRows(w io.Writer, rows []langRow) {
	if len(rows) == 0 {
		return
	}
	fmt.Fprintln(w, "| language | n | func acc@1 | func acc@5 | func acc@10 | func hit@5 | JSON line recall | brief line recall | whole files line recall | brief tokens (median) |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|")
	for _, r := range rows {
		whole := "–"
		if r.WholeFileLineRecall != nil {
			whole = fmt.Sprintf("%.1f", *r.WholeFileLineRecall)
		}
		name := r.Lang
		if name == "all" {
			name = "**all**"
		}
		fmt.Fprintf(w, "| %s | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %s | %d |\n", name, r.Tasks,
			r.FuncAcc[0], r.FuncAcc[1], r.FuncAcc[2], r.FuncHit[1], r.JSONLineRecall, r.BriefLineRecall, whole, r.MedianBriefTokens)
	}
	fmt.Fprintln(w)
}
