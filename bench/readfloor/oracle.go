package main

import (
	"github.com/rtch/rtch/pkg/evalscore"
	"github.com/rtch/rtch/pkg/hydrate"
)

// oracle is the most of the task's gold lines a choice of the planned
// reads within budget tokens holds, as a line recall: per gold file the
// best set of its reads for every budget (0/1 knapsack; its whole-file
// read stands instead of the others), the files combined by the best
// split of the budget.
func oracle(t evalscore.Task, byPath map[string][]hydrate.PlannedRead, budget int) float64 {
	gold := evalscore.ScorePacket(nil, t.Gold, t.GoldLines).GoldLines
	if gold == 0 {
		var spans []evalscore.Span
		for _, g := range t.Gold {
			for _, rd := range byPath[evalscore.CleanPath(g)] {
				if rd.Tokens <= budget {
					spans = append(spans, span(rd))
				}
			}
		}
		return evalscore.ScorePacket(spans, t.Gold, t.GoldLines).LineRecall
	}
	var total []int
	for _, g := range t.Gold {
		g = evalscore.CleanPath(g)
		best := fileBest(byPath[g], g, t.GoldLines[g], budget)
		if total == nil {
			total = best
			continue
		}
		total = maxPlus(total, best)
	}
	if total == nil {
		return 0
	}
	return float64(total[budget]) / float64(gold)
}

// fileBest is, for every budget b up to budget, the most gold lines of
// one file its reads hold within b tokens.
func fileBest(reads []hydrate.PlannedRead, g string, lines [][2]int, budget int) []int {
	best := make([]int, budget+1)
	held := func(rd hydrate.PlannedRead) int {
		return evalscore.ScorePacket([]evalscore.Span{span(rd)}, []string{g}, map[string][][2]int{g: lines}).CoveredLines
	}
	var whole []hydrate.PlannedRead
	for _, rd := range reads {
		if rd.Replace {
			whole = append(whole, rd)
			continue
		}
		v, c := held(rd), rd.Tokens
		if v == 0 || c > budget {
			continue
		}
		for b := budget; b >= c; b-- {
			best[b] = max(best[b], best[b-c]+v)
		}
	}
	for _, rd := range whole {
		v := held(rd)
		for b := rd.Tokens; b <= budget; b++ {
			best[b] = max(best[b], v)
		}
	}
	return best
}

// maxPlus combines two files' best holdings: for every budget, the best
// split of it between them.
func maxPlus(a, b []int) []int {
	out := make([]int, len(a))
	for k := range out {
		for i := 0; i <= k; i++ {
			out[k] = max(out[k], a[i]+b[k-i])
		}
	}
	return out
}

func span(rd hydrate.PlannedRead) evalscore.Span {
	return evalscore.Span{Path: rd.Path, Start: rd.Start, End: rd.End}
}
