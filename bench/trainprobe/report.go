package main

import (
	"fmt"
	"github.com/rtch/rtch/pkg/protect/model"
	"io"
	"sort"
)

// count is flagged rows of a set: by the rules, by the model, by either.
type count struct{ n, rules, model, either int }

func (c *count) add(rule, mdl bool) {
	c.n++
	if rule {
		c.rules++
	}
	if mdl {
		c.model++
	}
	if rule || mdl {
		c.either++
	}
}

func pct(k, n int) string {
	return fmt.Sprintf("%d/%d (%.1f%%)", k, n, 100*float64(k)/float64(max(n, 1)))
}

// report prints the cross-validated figures: recall per dev source and per
// external injection source, false positives per benign group.
func report(w io.Writer, rows []row, rules []bool, oof []float64, t float64) {
	inj, ben := map[string]*count{}, map[string]*count{}
	var all count
	for i, r := range rows {
		m, key := inj, r.source
		switch {
		case r.measure:
			m, key = ben, r.group+" (measured only)"
		case !r.injection():
			m, key = ben, r.group
		case !r.dev:
			key = "external " + r.source
		}
		if m[key] == nil {
			m[key] = &count{}
		}
		hit := oof[i] >= t
		m[key].add(rules[i], hit)
		if r.injection() && r.dev {
			all.add(rules[i], hit)
		}
	}
	fmt.Fprintf(w, "threshold margin %.4f (probability %.3f), %d-fold cross-validated scores\n\n", t, 1/(1+expNeg(t)), folds)
	fmt.Fprintf(w, "| injection source | rules | model | rules or model |\n|---|---|---|---|\n")
	for _, k := range keys(inj) {
		c := inj[k]
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", k, pct(c.rules, c.n), pct(c.model, c.n), pct(c.either, c.n))
	}
	fmt.Fprintf(w, "| **all dev injections** | %s | %s | %s |\n", pct(all.rules, all.n), pct(all.model, all.n), pct(all.either, all.n))
	fmt.Fprintf(w, "\n| benign group | rules | model | rules or model |\n|---|---|---|---|\n")
	for _, k := range keys(ben) {
		c := ben[k]
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", k, pct(c.rules, c.n), pct(c.model, c.n), pct(c.either, c.n))
	}
}

func keys(m map[string]*count) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func expNeg(t float64) float64 { return 1/model.Sigmoid(t) - 1 }
