package intake

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// errorFragments takes the message of "SomeError: message", "panic: …",
// "fatal: …" and "error: …" lines: the text most likely to be a literal in the
// code that raised it. One fragment per line, the leftmost.
func (x *extractor) errorFragments() {
	off := 0
	for _, line := range strings.SplitAfter(x.s, "\n") {
		body := strings.TrimRight(line, "\r\n")
		best := []int(nil)
		for _, re := range []*regexp.Regexp{reExcMessage(), reErrMessage()} {
			m := re.FindStringSubmatchIndex(body)
			for m != nil && x.masked(off+m[0], off+m[0]+1) {
				next := re.FindStringSubmatchIndex(body[m[1]:])
				if next == nil {
					m = nil
					break
				}
				for i := range next {
					if next[i] >= 0 {
						next[i] += m[1]
					}
				}
				m = next
			}
			if m != nil && (best == nil || m[0] < best[0]) {
				best = m
			}
		}
		if best != nil {
			end := best[5]
			// A message quoted in prose ends at its closing quote.
			if best[0] > 0 && strings.IndexByte("\"'`", body[best[0]-1]) >= 0 {
				if q := strings.IndexByte(body[best[4]:end], body[best[0]-1]); q >= 0 {
					end = best[4] + q
				}
			}
			// It never runs into text taken as a frame or URL.
			for i := best[4]; i < end; i++ {
				if x.mask[off+i] {
					end = i
					break
				}
			}
			msg, moff := cleanFragment(body[best[4]:end])
			if len(msg) >= 3 && strings.IndexFunc(msg, unicode.IsLetter) >= 0 {
				x.add(msg, KindErrorFragment, off+best[4]+moff, len(msg), "", "", 0)
			}
		}
		off += len(line)
	}
}

// cleanFragment trims a message, drops surrounding quotes and a final period,
// and caps it at maxFragment bytes on a word boundary. It returns the message
// and its offset within the input.
func cleanFragment(s string) (string, int) {
	lead := len(s) - len(strings.TrimLeft(s, " \t"))
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] && !strings.ContainsRune(s[1:len(s)-1], rune(s[0])) {
		s = s[1 : len(s)-1]
		lead++
	}
	s = strings.TrimRight(s, ". ")
	if len(s) > maxFragment {
		cut := maxFragment
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		if sp := strings.LastIndexByte(s[:cut], ' '); sp > maxFragment/2 {
			cut = sp
		}
		s = strings.TrimSpace(s[:cut])
	}
	return s, lead
}
