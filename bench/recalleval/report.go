package main

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
)

// metrics of one system over a set of questions.
type metrics struct {
	N          int
	R1, R5     float64 // share of questions whose gold page is first, in the first five
	MRR        float64 // mean of 1/rank (0 when the gold page is not in the first depth pages)
	Found      float64 // share with the gold page anywhere in the answer
	EmptyShare float64 // share of questions the system answered with no page
}

func measure(outs []outcome, sys string) metrics {
	m := metrics{N: len(outs)}
	if m.N == 0 {
		return m
	}
	for _, o := range outs {
		a := o.Answers[sys]
		switch {
		case a.Rank == 1:
			m.R1++
			fallthrough
		case a.Rank >= 2 && a.Rank <= 5:
			m.R5++
		}
		if a.Rank > 0 {
			m.MRR += 1 / float64(a.Rank)
			m.Found++
		}
		if len(a.Pages) == 0 {
			m.EmptyShare++
		}
	}
	n := float64(m.N)
	m.R1, m.R5, m.MRR, m.Found, m.EmptyShare = m.R1/n, m.R5/n, m.MRR/n, m.Found/n, m.EmptyShare/n
	return m
}

// agreement is the share of questions on which every one of systems puts
// the same page first (no page at all counts as an answer too).
func agreement(outs []outcome, systems []string) float64 {
	if len(outs) == 0 || len(systems) < 2 {
		return 0
	}
	agree := 0
	for _, o := range outs {
		first := func(s string) string {
			if ps := o.Answers[s].Pages; len(ps) > 0 {
				return ps[0]
			}
			return ""
		}
		same := true
		for _, s := range systems[1:] {
			same = same && first(s) == first(systems[0])
		}
		if same {
			agree++
		}
	}
	return float64(agree) / float64(len(outs))
}

// printReport writes the Markdown tables: every split, then each source.
func printReport(w io.Writer, outs []outcome, systems []string) {
	splits := []struct {
		name string
		keep func(outcome) bool
	}{
		{"all", func(outcome) bool { return true }},
		{"tune", func(o outcome) bool { return o.Split == "tune" }},
		{"held out", func(o outcome) bool { return o.Split == "heldout" }},
	}
	backends := without(systems, sysBaseline)
	for _, sp := range splits {
		sub := filter(outs, sp.keep)
		fmt.Fprintf(w, "\n### %s: %d questions, %d sources\n\n", sp.name, len(sub), countSources(sub))
		fmt.Fprintln(w, "| system | recall@1 | recall@5 | MRR | MRR − baseline | found in 10 | no answer |")
		fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
		base := measure(sub, sysBaseline)
		for _, s := range systems {
			m := measure(sub, s)
			delta := "—"
			if s != sysBaseline && slices.Contains(systems, sysBaseline) {
				delta = fmt.Sprintf("%+.3f", m.MRR-base.MRR)
			}
			fmt.Fprintf(w, "| %s | %.1f %% | %.1f %% | %.3f | %s | %.1f %% | %.1f %% |\n",
				s, 100*m.R1, 100*m.R5, m.MRR, delta, 100*m.Found, 100*m.EmptyShare)
		}
		if len(backends) > 1 {
			fmt.Fprintf(w, "\nTop-1 agreement of %s: %.1f %%\n", strings.Join(backends, ", "), 100*agreement(sub, backends))
		}
	}
	fmt.Fprintf(w, "\n### By source (MRR)\n\n| source | split | questions | %s |\n|---|---|---|%s\n",
		strings.Join(systems, " | "), strings.Repeat("---|", len(systems)))
	for _, g := range bySource(outs) {
		fmt.Fprintf(w, "| %s | %s | %d |", g[0].Repo, g[0].Split, len(g))
		for _, s := range systems {
			fmt.Fprintf(w, " %.3f |", measure(g, s).MRR)
		}
		fmt.Fprintln(w)
	}
}

func filter(outs []outcome, keep func(outcome) bool) []outcome {
	var sub []outcome
	for _, o := range outs {
		if keep(o) {
			sub = append(sub, o)
		}
	}
	return sub
}

func bySource(outs []outcome) [][]outcome {
	idx := map[string]int{}
	var out [][]outcome
	for _, o := range outs {
		i, ok := idx[o.Repo]
		if !ok {
			i = len(out)
			idx[o.Repo] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], o)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i][0].Repo < out[j][0].Repo })
	return out
}

func countSources(outs []outcome) int { return len(bySource(outs)) }

func without(xs []string, x string) []string {
	var out []string
	for _, s := range xs {
		if s != x {
			out = append(out, s)
		}
	}
	return out
}
