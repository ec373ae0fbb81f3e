package bm25

import (
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// refTokenize is Tokenize as first written (no ASCII fast paths); the fast
// paths must not change a single token.
func refTokenize(s string) []string {
	var out []string
	start := -1
	isWord := func(r rune) bool {
		return r == '_' || r == '.' || r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	word := func(w string) {
		w = strings.TrimFunc(w, isSep)
		if w == "" {
			return
		}
		whole := strings.ToLower(w)
		if utf8.RuneCountInString(whole) > 1 {
			out = append(out, whole)
		}
		if !compound(w) {
			return
		}
		if parts := splitIdent(w); len(parts) > 1 {
			for _, p := range parts {
				if p = strings.ToLower(p); utf8.RuneCountInString(p) > 1 {
					out = append(out, p)
				}
			}
		}
	}
	for i, r := range s {
		w := isWord(r)
		switch {
		case w && start < 0:
			start = i
		case !w && start >= 0:
			word(s[start:i])
			start = -1
		}
	}
	if start >= 0 {
		word(s[start:])
	}
	return out
}

func TestTokenizeMatchesReference(t *testing.T) {
	pieces := []string{"retry", "Retry", "RETRY", "x", "7", "42", "a1", "pkg.ParseFlags", "HTTPServer", "snake_case", "kebab-case",
		"__init__", "...", "-", "Über", "straße", "İstanbul", "ǅ", "\xff", "é", "日本語", "Σίσυφος", "v1.2.3", "A", "aB", " ", "\n", ",", "(", "\t", "ＡＢ"}
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 5000; i++ {
		var b strings.Builder
		for j := rng.Intn(12); j >= 0; j-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
			if rng.Intn(3) == 0 {
				b.WriteByte(" .-_,\n"[rng.Intn(6)])
			}
		}
		s := b.String()
		got, want := Tokenize(s), refTokenize(s)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: got %q, want %q", s, got, want)
		}
		var each []string
		EachTerm(s, func(t string) { each = append(each, t) })
		if terms := Terms(s); len(each)+len(terms) > 0 && !reflect.DeepEqual(each, terms) {
			t.Fatalf("%q: EachTerm %q, Terms %q", s, each, terms)
		}
	}
}
