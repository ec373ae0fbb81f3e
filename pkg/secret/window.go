package secret

import (
	"slices"
	"strings"
)

// Rules run on windows, not on whole texts: a rule's regexp is tried only
// on the line holding one of its keywords and the line after it (a value
// may sit on the next line of a YAML key). Go's regexp engine has no
// backtracking blow-up, but a leading [\w.-]{0,50}? makes every byte a
// match start, so running gitleaks' generic rule over a 100 KB Go file
// costs seconds; on windows the cost follows the keyword hits.

// span is a byte range [lo, hi) of a text.
type span struct{ lo, hi int }

// lineWindow is the span from the start of the line holding offset i to
// the end of the line after it (extra further lines with more > 0).
func lineWindow(text string, i, more int) span {
	lo := strings.LastIndexByte(text[:i], '\n') + 1
	hi := i
	for k := 0; k <= more && hi < len(text); k++ {
		e := strings.IndexByte(text[hi:], '\n')
		if e < 0 {
			hi = len(text)
			break
		}
		hi += e + 1
	}
	return span{lo, hi}
}

// addWindow appends w to ws (sorted by lo), merging it with the last
// window when they touch.
func addWindow(ws []span, w span) []span {
	if n := len(ws); n > 0 && w.lo <= ws[n-1].hi {
		ws[n-1].hi = max(ws[n-1].hi, w.hi)
		return ws
	}
	return append(ws, w)
}

func windowsAt(text string, hits []int, more int) []span {
	if len(hits) == 0 {
		return nil
	}
	sortInts(hits)
	var ws []span
	for _, h := range hits {
		ws = addWindow(ws, lineWindow(text, h, more))
	}
	return ws
}

func sortInts(a []int) {
	// insertion sort for the short lists here, a stdlib sort otherwise
	if len(a) > 32 {
		sortIntsLarge(a)
		return
	}
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

func sortIntsLarge(a []int) { slices.Sort(a) }
