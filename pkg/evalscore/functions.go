package evalscore

import (
	"fmt"
	"slices"

	"github.com/rtch/rtch/pkg/symbols"
)

// FuncKs are the cut-offs of function-level acc@k and hit@k.
var FuncKs = []int{1, 5, 10}

// UnitKey names a unit of a file: "PATH:L<head line>" for a definition,
// "PATH:top" for the file's top level (its lines outside every
// definition).
func UnitKey(path string, head int) string {
	if head < 1 {
		return path + ":top"
	}
	return fmt.Sprintf("%s:L%d", path, head)
}

// GoldUnits are the units that hold the gold lines of one file, src its
// bytes at the task's base commit: for each line, the innermost definition
// around it (symbols.Defs, lead lines included), or the file's top level
// when no definition holds it. Each unit once, in the order of its first
// gold line.
func GoldUnits(path string, src []byte, ranges [][2]int) []string {
	defs := symbols.Defs(path, src)
	var out []string
	for _, l := range LineSet(ranges) {
		head := 0
		if i := symbols.Innermost(defs, l); i >= 0 {
			head = defs[i].Line
		}
		if k := UnitKey(path, head); !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// FuncScore is how a ranked list of units scores against a task's gold
// units.
type FuncScore struct {
	// Acc[i] is true when every gold unit is in the top FuncKs[i]; Hit[i]
	// when one is.
	Acc [3]bool `json:"acc"`
	Hit [3]bool `json:"hit"`
	// Gold is the number of gold units; Ranked the length of the list.
	Gold   int `json:"gold"`
	Ranked int `json:"ranked"`
	// Ranks are the 1-based ranks of the gold units in gold's order, 0
	// when a unit is not ranked.
	Ranks []int `json:"ranks"`
}

// ScoreFunctions scores ranked unit keys (best first) against the gold
// unit keys. A task without gold units scores nothing.
func ScoreFunctions(ranked, gold []string) FuncScore {
	s := FuncScore{Gold: len(gold), Ranked: len(ranked), Ranks: make([]int, len(gold))}
	first, last := 0, 0
	for i, g := range gold {
		s.Ranks[i] = slices.Index(ranked, g) + 1
		r := s.Ranks[i]
		if r > 0 && (first == 0 || r < first) {
			first = r
		}
		if r == 0 {
			last = -1
		} else if last >= 0 {
			last = max(last, r)
		}
	}
	for i, k := range FuncKs {
		s.Hit[i] = first > 0 && first <= k
		s.Acc[i] = len(gold) > 0 && last > 0 && last <= k
	}
	return s
}
