package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/rtch/rtch/pkg/evalscore"
)

// renderers render one region kind from a run summary.
var renderers = map[string]func(*evalRun) string{
	"eval-run":       renderRun,
	"eval-sets":      renderSets,
	"eval-brief":     renderBrief,
	"eval-repos":     renderRepos,
	"eval-misses":    renderMisses,
	"eval-functions": renderFunctions,
}

func renderRegion(kind, runPath string) (string, error) {
	render, ok := renderers[kind]
	if !ok {
		return "", fmt.Errorf("unknown region kind %q", kind)
	}
	r, err := readRun(runPath)
	if err != nil {
		return "", err
	}
	return render(r), nil
}

// renderRun names the commit, date and command of the run.
func renderRun(r *evalRun) string {
	date := r.Date
	if t, err := time.Parse(time.RFC3339, r.Date); err == nil {
		date = t.UTC().Format("2006-01-02 15:04 UTC")
	}
	return fmt.Sprintf("Measured at `%s` on %s with %s:\n\n```sh\n%s\n```\n", r.Commit, date, r.GoVersion, r.Command)
}

// renderSets is the ranking of each set's overall row, rtch beside BM25.
func renderSets(r *evalRun) string {
	t := newTable("set", "language", "tasks", "system", "acc@1", "acc@3", "acc@5", "acc@10", "hit@10", "MRR")
	for _, s := range r.Sets {
		for _, g := range s.Groups {
			if g.Group != "overall" {
				continue
			}
			for _, sys := range systems(g) {
				t.row(s.Name, s.Language, fmt.Sprint(sys.s.Tasks), sys.name, pct(sys.s.Acc[0]), pct(sys.s.Acc[1]),
					pct(sys.s.Acc[2]), pct(sys.s.Acc[3]), pct(sys.s.Hit[3]), pct(100*sys.s.MRR))
			}
		}
	}
	return t.String()
}

// renderBrief is what the agent receives on each set: the JSON packet's and
// the md brief's gold recall, size and time.
func renderBrief(r *evalRun) string {
	t := newTable("set", "packet holds gold", "gold-file recall", "gold-line recall, JSON packet",
		"packet tokens, mean", "brief tokens, mean (max)", "gold-line recall, md brief", "s/task, mean (median)")
	for _, s := range r.Sets {
		for _, g := range s.Groups {
			if g.Group != "overall" || g.Pipeline == nil {
				continue
			}
			p := g.Pipeline
			t.row(s.Name, opt(p.PacketHasGold), opt(p.FileRecall), opt(p.LineRecall), thousands(p.MeanTokens),
				fmt.Sprintf("%s (%s)", thousands(p.MeanBriefTokens), thousands(float64(p.MaxBriefTokens))),
				opt(p.BriefLineRecall), fmt.Sprintf("%.3f (%.3f)", p.MeanSeconds, p.MedianSeconds))
		}
	}
	return t.String()
}

// renderRepos is every repository's ranking and brief recall.
func renderRepos(r *evalRun) string {
	t := newTable("set", "repository", "tasks", "system", "acc@1", "acc@3", "acc@5", "acc@10", "MRR",
		"gold-line recall, md brief", "s/task, median")
	for _, s := range r.Sets {
		for _, g := range s.Groups {
			name := g.Group
			if name == "overall" {
				name = "**overall**"
			}
			for _, sys := range systems(g) {
				t.row(s.Name, name, fmt.Sprint(sys.s.Tasks), sys.name, pct(sys.s.Acc[0]), pct(sys.s.Acc[1]),
					pct(sys.s.Acc[2]), pct(sys.s.Acc[3]), pct(100*sys.s.MRR), opt(sys.s.BriefLineRecall),
					fmt.Sprintf("%.3f", sys.s.MedianSeconds))
			}
		}
	}
	return t.String()
}

// renderMisses groups each set's tasks without a gold file in rtch's top 5.
func renderMisses(r *evalRun) string {
	t := newTable("set", "misses", "BM25 had one in its top 5", "failed", "gold never selected",
		"non-source file in the top 5", "test file in the top 5", "tasks")
	for _, s := range r.Sets {
		m := s.Misses
		if m == nil {
			continue
		}
		ids := make([]string, len(m.IDs))
		for i, id := range m.IDs {
			ids[i] = "`" + id + "`"
		}
		t.row(s.Name, fmt.Sprint(m.Misses), fmt.Sprint(m.BM25Hit), fmt.Sprint(m.Failed), fmt.Sprint(m.NeverSelected),
			fmt.Sprint(m.NonSource), fmt.Sprint(m.Test), strings.Join(ids, ", "))
	}
	return t.String()
}

// renderFunctions is each set's function-level acc@k of the packet's
// ranked_functions and the gold-line recall of what the agent receives,
// per language.
func renderFunctions(r *evalRun) string {
	t := newTable("set", "language", "tasks", "function acc@1", "function acc@5", "function acc@10", "function hit@5",
		"gold-line recall, JSON packet", "gold-line recall, md brief", "whole files, same budget")
	for _, s := range r.Sets {
		for _, l := range s.Languages {
			if l.Lang == "all" && len(s.Languages) == 2 {
				continue // the one language's row already says it
			}
			t.row(s.Name, l.Lang, fmt.Sprint(l.Tasks), pct(l.FuncAcc[0]), pct(l.FuncAcc[1]), pct(l.FuncAcc[2]),
				pct(l.FuncHit[1]), pct(l.JSONLineRecall), pct(l.BriefLineRecall), pct(l.WholeFileLineRecall))
		}
	}
	return t.String()
}

type namedSummary struct {
	name string
	s    evalscore.Summary
}

// systems lists rtch (when the run had it) before the BM25 baseline.
func systems(g evalGroup) []namedSummary {
	var out []namedSummary
	if g.Pipeline != nil {
		out = append(out, namedSummary{"rtch", *g.Pipeline})
	}
	return append(out, namedSummary{"BM25", g.BM25})
}

// table is a markdown table.
type table struct {
	header []string
	rows   [][]string
}

func newTable(header ...string) *table { return &table{header: header} }

func (t *table) row(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "| %s |\n|%s\n", strings.Join(t.header, " | "), strings.Repeat("---|", len(t.header)))
	for _, r := range t.rows {
		fmt.Fprintf(&b, "| %s |\n", strings.Join(r, " | "))
	}
	return b.String()
}

func pct(v float64) string { return fmt.Sprintf("%.1f", v) }

func opt(v *float64) string {
	if v == nil {
		return "–"
	}
	return pct(*v)
}

// thousands renders a whole number with comma separators.
func thousands(v float64) string {
	s := fmt.Sprintf("%.0f", v)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
