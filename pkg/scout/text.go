package scout

import (
	"strings"
)

// normalizeName trims decoration from a heading or key for comparison with a term.
func normalizeName(s string) string {
	s = strings.TrimSpace(s)
	s = strings.Trim(s, "`*_:\"'")
	return strings.TrimSpace(s)
}

// capText cuts s to at most n bytes on a rune boundary, valid UTF-8.
func capText(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8Start(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// appendFold appends s with ASCII letters lowercased (match.Fold without
// allocating).
func appendFold(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return b
}
