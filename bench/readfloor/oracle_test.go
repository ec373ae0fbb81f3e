package main

import (
	"testing"

	"github.com/rtch/rtch/pkg/evalscore"
	"github.com/rtch/rtch/pkg/hydrate"
	"github.com/rtch/rtch/pkg/symbols"
)

// TestOracle: the best choice of reads within the budget, a file's whole
// read standing instead of its other reads, the budget split between
// files.
func TestOracle(t *testing.T) {
	task := evalscore.Task{Gold: []string{"a.go", "b.go"}, GoldLines: map[string][][2]int{
		"a.go": {{10, 11}, {30, 30}, {50, 52}}, // six lines
		"b.go": {{5, 6}},
	}}
	byPath := map[string][]hydrate.PlannedRead{
		"a.go": {
			{Path: "a.go", Start: 8, End: 12, Tokens: 5},  // two lines
			{Path: "a.go", Start: 25, End: 31, Tokens: 5}, // one
			{Path: "a.go", Start: 45, End: 55, Tokens: 8}, // three
			{Path: "a.go", Start: 1, End: 60, Tokens: 17, Replace: true},
		},
		"b.go": {{Path: "b.go", Start: 1, End: 9, Tokens: 4}},
	}
	for _, c := range []struct {
		budget int
		lines  int
	}{{3, 0}, {4, 2}, {10, 4}, {13, 5}, {17, 7}, {21, 8}} {
		if got, want := oracle(task, byPath, c.budget), float64(c.lines)/8; got != want {
			t.Errorf("budget %d: recall %.3f, want %.3f (%d of 8 lines)", c.budget, got, want, c.lines)
		}
	}
}

// TestCause: a gold line no read holds is put down to its file, its
// definition or the top level.
func TestCause(t *testing.T) {
	defs := []symbols.Def{{Symbol: symbols.Symbol{Name: "long", Line: 10}, Lead: 10, End: 600}, {Symbol: symbols.Symbol{Name: "quiet", Line: 700}, Lead: 700, End: 720}}
	ranked := []hydrate.PlannedRead{{Start: 10, End: 17, UnitRank: 1}, {Start: 300, End: 340, UnitRank: 1}, {Start: 1, End: 5}}
	windows := []hydrate.PlannedRead{{Start: 1, End: 41}}
	for _, c := range []struct {
		reads []hydrate.PlannedRead
		line  int
		want  string
	}{
		{nil, 3, causeFile},
		{windows, 50, causeWindows},
		{ranked, 3, ""},
		{ranked, 320, ""},
		{ranked, 400, causePart},
		{ranked, 710, causeNoEvident},
		{ranked, 650, causeTop},
	} {
		if got := cause(c.reads, defs, c.line); got != c.want {
			t.Errorf("line %d: %q, want %q", c.line, got, c.want)
		}
	}
}
