package secret

import (
	"regexp"
	"regexp/syntax"
)

// Most of gitleaks' rules open with [\w.-]{0,50}?, a lazy run that only
// widens the match to the identifier before the keyword. Go's regexp
// engine unrolls the bounded repeat, so every word byte of a window keeps
// dozens of threads alive, and that opening costs most of a rule's time
// on source code (lob-api-key: 0.26 s over GOROOT/src's windows; without
// the opening 0.02 s). A match of the whole pattern contains a match of
// the rest of it, so a window the rest does not match holds no match at
// all: the rule first asks that of the window (a yes or no, no
// submatches) and runs the whole pattern, unchanged, only where the
// answer is yes. Findings are the same (TestPrefiltersKeepEveryFinding).

// prefilterOff runs every rule's whole pattern on every window (tests).
var prefilterOff = false

// prefilter is pattern without the sub-expressions that open it and may
// match nothing (x*, x?, x{0,n}), compiled; nil when pattern opens with
// none of them or is nothing else.
func prefilter(pattern string) *regexp.Regexp {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil || re.Op != syntax.OpConcat {
		return nil
	}
	k := 0
	for k < len(re.Sub)-1 && mayMatchNothing(re.Sub[k]) {
		k++
	}
	if k == 0 {
		return nil
	}
	rest := &syntax.Regexp{Op: syntax.OpConcat, Flags: re.Flags, Sub: re.Sub[k:]}
	pre, err := regexp.Compile(rest.String())
	if err != nil {
		return nil
	}
	return pre
}

// mayMatchNothing reports a repeat that may match the empty string.
func mayMatchNothing(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpStar, syntax.OpQuest:
		return true
	case syntax.OpRepeat:
		return re.Min == 0
	}
	return false
}
