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
//
// A window reaches at most lineReach bytes before its hit and lineReach
// bytes per line after it: a minified bundle, a source map or a lock file's
// long line is not matched whole for every hit in it (a 500 KB line cost
// each rule with a hit there a full pass), and finding the line's start is
// no longer a scan back over the whole line per hit. A cut that falls
// inside a token moves out of it when the token ends within tokenReach
// bytes, so a token longer than lineReach (a JWT) is matched whole; a
// finding that touches a cut edge inside a longer run (a blob) is widened
// over the rest of the run (widen): masked whole, never in part.

// lineReach bounds a window inside a long line, on each side of its hit;
// far above the longest single-line match a rule makes from its keyword
// (a value found by its name, a URL with a password, a JWT), which widen
// covers anyway.
const lineReach = 1024

// tokenReach bounds how far a cut moves to leave a token.
const tokenReach = 8192

// span is a byte range [lo, hi) of a text; cutLo and cutHi say that lo or
// hi is inside a line (lineReach), not at its start or end.
type span struct {
	lo, hi       int
	cutLo, cutHi bool
}

// lineWindow is the span from the start of the line holding offset i to
// the end of the line after it (extra further lines with more > 0), each
// line cut at lineReach bytes from i or from the previous line's end.
func lineWindow(text string, i, more int) span {
	w := span{lo: max(i-lineReach, 0), hi: i}
	if nl := strings.LastIndexByte(text[w.lo:i], '\n'); nl >= 0 {
		w.lo += nl + 1
	} else {
		w.cutLo = w.lo > 0 && text[w.lo-1] != '\n'
	}
	for k := 0; k <= more && w.hi < len(text); k++ {
		end := min(w.hi+lineReach, len(text))
		e := strings.IndexByte(text[w.hi:end], '\n')
		if e < 0 {
			w.hi, w.cutHi = end, end < len(text)
			break
		}
		w.hi += e + 1
	}
	if w.cutLo {
		w.lo = leaveToken(text, w.lo, -1)
	}
	if w.cutHi {
		w.hi = leaveToken(text, w.hi, 1)
	}
	return w
}

// leaveToken moves the cut at i in direction dir (-1 back, 1 on) to the
// end of the token it falls in, when that end is within tokenReach bytes;
// a longer run (a blob, not a credential) keeps the cut.
func leaveToken(text string, i, dir int) int {
	j := i
	for k := 0; k < tokenReach; k++ {
		if dir < 0 && (j == 0 || !tokenByte(text[j-1])) || dir > 0 && (j == len(text) || !tokenByte(text[j])) {
			return j
		}
		j += dir
	}
	return i
}

// addWindow appends w to ws (sorted by lo), merging it with the last
// window when they touch.
func addWindow(ws []span, w span) []span {
	if n := len(ws); n > 0 && w.lo <= ws[n-1].hi {
		if w.hi >= ws[n-1].hi {
			ws[n-1].hi, ws[n-1].cutHi = w.hi, w.cutHi
		}
		return ws
	}
	return append(ws, w)
}

// widen stretches each finding that touches a cut edge of w over the rest
// of the token run it is part of.
func (w span) widen(text string, fs []Finding) []Finding {
	if !w.cutLo && !w.cutHi {
		return fs
	}
	for k := range fs {
		if w.cutLo && fs[k].Start <= w.lo {
			for fs[k].Start > 0 && tokenByte(text[fs[k].Start-1]) {
				fs[k].Start--
			}
		}
		if w.cutHi && fs[k].End >= w.hi {
			for fs[k].End < len(text) && tokenByte(text[fs[k].End]) {
				fs[k].End++
			}
		}
	}
	return fs
}

// tokenByte reports whether c may be part of a token: a letter, a digit
// or one of base64's, base64url's and JWT's other bytes.
func tokenByte(c byte) bool {
	return c|0x20 >= 'a' && c|0x20 <= 'z' || c >= '0' && c <= '9' ||
		c == '+' || c == '/' || c == '=' || c == '_' || c == '-' || c == '.'
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
