package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"sort"
)

// ks are the cut-offs of acc@k, as bench/eval reports them.
var ks = []int{1, 3, 5, 10}

// outcome is one query's result under one ranking: acc@k (every gold file
// in the first k; a gold file outside the candidates is never there) and
// the reciprocal rank of the first gold file.
type outcome struct {
	acc [4]bool
	rr  float64
}

// order is the candidates' order under scores: higher first, ties in the
// hand-written order.
func order(scores []float64) []int {
	idx := make([]int, len(scores))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(scores[b], scores[a]) })
	return idx
}

func score(q query, scores []float64) outcome {
	var o outcome
	found := 0
	for r, i := range order(scores) {
		if q.Labels[i] == 0 {
			continue
		}
		found++
		if found == 1 {
			o.rr = 1 / float64(r+1)
		}
		for j, k := range ks {
			if found == q.Gold && r < k {
				o.acc[j] = true
			}
		}
	}
	return o
}

// summary is the mean of outcomes, in percent.
type summary struct {
	n   int
	acc [4]float64
	mrr float64
}

func summarize(os []outcome) summary {
	s := summary{n: len(os)}
	for _, o := range os {
		for j := range ks {
			if o.acc[j] {
				s.acc[j]++
			}
		}
		s.mrr += o.rr
	}
	if s.n > 0 {
		for j := range ks {
			s.acc[j] = 100 * s.acc[j] / float64(s.n)
		}
		s.mrr = 100 * s.mrr / float64(s.n)
	}
	return s
}

// table prints acc@1/3/5/10 and MRR of each ranking (columns in the order
// of names) per language and overall.
func table(w io.Writer, qs []query, names []string, outs map[string][]outcome) {
	fmt.Fprintln(w, "| group | n | ranking | acc@1 | acc@3 | acc@5 | acc@10 | MRR |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	groups := map[string][]int{}
	for i, q := range qs {
		groups[q.Lang] = append(groups[q.Lang], i)
	}
	var langs []string
	for l := range groups {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	all := make([]int, len(qs))
	for i := range all {
		all[i] = i
	}
	row := func(g string, idx []int) {
		for _, n := range names {
			var os []outcome
			for _, i := range idx {
				os = append(os, outs[n][i])
			}
			s := summarize(os)
			fmt.Fprintf(w, "| %s | %d | %s | %.1f | %.1f | %.1f | %.1f | %.1f |\n", g, s.n, n, s.acc[0], s.acc[1], s.acc[2], s.acc[3], s.mrr)
		}
	}
	for _, l := range langs {
		row(l, groups[l])
	}
	row("**overall**", all)
}
