package fnrank

import (
	"math"
	"strings"
	"unicode"

	"github.com/rtch/rtch/pkg/schema"
)

// goalCountExp damps how a term's mentions in the goal add to its
// weight: 2 mentions ×1.23, 5 ×1.62, 10 ×2 (docs/decisions/functions.md).
const goalCountExp = 0.3

// Terms are the basket's candidates that say where the goal is, weighed:
// noise, exclusions, cautions and zone context (pressure) are left out.
func Terms(cands []schema.Candidate) []Term {
	var out []Term
	for _, c := range cands {
		if c.Origin == "noise" || c.Use == "exclude" || c.Use == "caution" || c.Use == "pressure" || c.IDF <= 0 {
			continue
		}
		out = append(out, Term{Term: c.Term, Weight: Weigh(c)})
	}
	return out
}

// Weigh is a candidate's weight: its IDF, times 1.5 when the goal writes
// it as code (an identifier, a qualified or dotted name, a stack frame),
// 1.5 when it is in the goal's title, 1.2 when the scout confirmed it in
// the tree's shape (a symbol, a file or directory name, a seed), 2 for
// a quoted phrase or error message of two words or more, and the number
// of times the goal mentions it to the power goalCountExp: what a goal
// keeps coming back to is what it is about.
func Weigh(c schema.Candidate) float64 {
	w := c.IDF
	switch c.GoalKind {
	case "identifier", "qualified", "dotted", "stack_frame":
		w *= 1.5
	case "quoted", "error_fragment":
		if words(c.Term) >= 2 {
			w *= 2
		}
	}
	if c.InTitle {
		w *= 1.5
	}
	if c.GoalCount > 1 {
		w *= math.Pow(float64(c.GoalCount), goalCountExp)
	}
	switch c.Origin {
	case "code_symbol", "file_path", "explicit_seed":
		w *= 1.2
	}
	return w
}

// words counts the words of a phrase that hold a letter.
func words(s string) int {
	n := 0
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }) {
		if strings.IndexFunc(f, unicode.IsLetter) >= 0 {
			n++
		}
	}
	return n
}
