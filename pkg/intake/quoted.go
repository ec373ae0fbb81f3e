package intake

import (
	"strings"
	"unicode"
)

// quoted takes strings in double, single and typographic quotes. A single
// quote must open after a space or bracket and close before one, so the
// apostrophes of "it's" and "don't" never pair up.
func (x *extractor) quoted() {
	for _, m := range reQuoteDouble().FindAllStringSubmatchIndex(x.s, -1) {
		a, b := m[2], m[3]
		if a < 0 {
			a, b = m[4], m[5]
		}
		if x.masked(m[0], m[1]) {
			continue
		}
		x.addQuoted(x.s[a:b], a, b-a)
	}
	pos := 0
	for pos < len(x.s) {
		m := reQuoteSingle().FindStringSubmatchIndex(x.s[pos:])
		if m == nil {
			break
		}
		for i := range m {
			if m[i] >= 0 {
				m[i] += pos
			}
		}
		a, b := m[2], m[3]
		if a < 0 {
			a, b = m[4], m[5]
		}
		if x.s[m[0]] == '\'' && (!quoteOpens(x.s, m[0]) || !quoteCloses(x.s, m[1])) {
			pos = m[0] + 1
			continue
		}
		if !x.masked(m[0], m[1]) {
			x.addQuoted(x.s[a:b], a, b-a)
		}
		pos = m[1]
	}
}

// angles takes literals in angle brackets such as <nil> or <none>: printed
// placeholders that the code spells exactly so. HTML tags are not terms.
func (x *extractor) angles() {
	for _, m := range reAngle().FindAllStringIndex(x.s, -1) {
		t := x.s[m[0]:m[1]]
		if x.masked(m[0], m[1]) || htmlTags[strings.ToLower(t[1:len(t)-1])] {
			continue
		}
		x.add(t, KindQuoted, m[0], m[1]-m[0], "", "", 0)
	}
}

func (x *extractor) addQuoted(s string, off, length int) {
	t := strings.TrimSpace(s)
	if t == "" || len(t) > maxQuoted {
		return
	}
	if isStop(strings.ToLower(t), true) {
		return
	}
	if strings.IndexFunc(t, func(r rune) bool { return !unicode.IsDigit(r) && !unicode.IsSpace(r) }) < 0 {
		return
	}
	x.add(t, KindQuoted, off, length, "", "", 0)
}

// quoteOpens: the byte before an opening ' is the start, a space, a bracket or
// one of "=,:", or a Python string prefix (u”, b”, r”, f”) after one.
func quoteOpens(s string, i int) bool {
	j := i
	for k := 0; k < 2 && j > 0 && strings.IndexByte("ubrfUBRF", s[j-1]) >= 0; k++ {
		j--
	}
	if j == 0 {
		return true
	}
	return strings.IndexByte(" \t\n\r([{=,:", s[j-1]) >= 0
}

// quoteCloses: the byte after a closing ' is the end, a space, a bracket or
// punctuation.
func quoteCloses(s string, end int) bool {
	if end >= len(s) {
		return true
	}
	return strings.IndexByte(" \t\n\r)]},.:;!?", s[end]) >= 0
}
