package bm25

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tokenize splits text into identifier-aware, lowercased tokens. A word is a
// run of letters, digits, '_', '.', '-' (trimmed of leading and trailing
// punctuation); a word that is a compound identifier — snake_case,
// CamelCase, HTTPServer, dotted.path, kebab-case — yields itself whole and
// each of its parts, so "pkg.ParseFlags" gives "pkg.parseflags", "pkg",
// "parse" and "flags". Tokens of one character are dropped. Stopwords are
// kept; see Terms.
func Tokenize(s string) []string {
	out := make([]string, 0, len(s)/8+1)
	eachToken(s, func(t string) { out = append(out, t) })
	if len(out) == 0 {
		return nil
	}
	return out
}

// eachToken calls emit with each token of Tokenize(s), in order.
func eachToken(s string, emit func(string)) {
	start := -1
	for i, r := range s {
		w := isWordRune(r)
		switch {
		case w && start < 0:
			start = i
		case !w && start >= 0:
			wordTokens(s[start:i], emit)
			start = -1
		}
	}
	if start >= 0 {
		wordTokens(s[start:], emit)
	}
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiWord[r]
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// asciiWord is isWordRune for ASCII.
var asciiWord = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		r := rune(c)
		t[c] = r == '_' || r == '.' || r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	return t
}()

func isSep(r rune) bool { return r == '_' || r == '.' || r == '-' }

func wordTokens(w string, emit func(string)) {
	// Most prose words are lower-case ASCII letters and digits: such a word
	// is its own and only token, as the general path below would find.
	simple := true
	for i := 0; i < len(w); i++ {
		if c := w[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			simple = false
			break
		}
	}
	if simple {
		if len(w) > 1 {
			emit(w)
		}
		return
	}
	w = strings.TrimFunc(w, isSep)
	if w == "" {
		return
	}
	if !compound(w) {
		if whole := strings.ToLower(w); utf8.RuneCountInString(whole) > 1 {
			emit(whole)
		}
		return
	}
	parts := splitIdent(w)
	if whole := strings.ToLower(w); utf8.RuneCountInString(whole) > 1 {
		emit(whole)
	}
	if len(parts) > 1 {
		for _, p := range parts {
			if p = strings.ToLower(p); utf8.RuneCountInString(p) > 1 {
				emit(p)
			}
		}
	}
}

// compound reports whether a word may split into parts: it has a separator
// or an upper-case letter after its first rune. Most prose words do not, and
// skip splitIdent's allocations.
func compound(w string) bool {
	for i, r := range w {
		if isSep(r) || i > 0 && unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

// splitIdent cuts an identifier at '_', '.', '-', at lower→Upper changes and
// at the end of an upper-case run followed by a lower-case letter.
func splitIdent(w string) []string {
	var parts []string
	for _, seg := range strings.FieldsFunc(w, isSep) {
		rs := []rune(seg)
		begin := 0
		for i := 1; i < len(rs); i++ {
			prev, cur := rs[i-1], rs[i]
			if (unicode.IsLower(prev) || unicode.IsDigit(prev)) && unicode.IsUpper(cur) ||
				unicode.IsUpper(prev) && unicode.IsUpper(cur) && i+1 < len(rs) && unicode.IsLower(rs[i+1]) {
				parts = append(parts, string(rs[begin:i]))
				begin = i
			}
		}
		parts = append(parts, string(rs[begin:]))
	}
	return parts
}

// Stopwords are common English function words; they carry no signal about
// where an answer lives.
var Stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be been but by can could did do does doing
		for from had has have how i if in into is it its just me my no nor not of on or our ours
		should so than that the their them then there these they this those to too under up us
		was we were what when where which while who whom why will with would you your yours
		about after again all also am any because before being between both each few further
		he her here hers him his itself more most other out over own same she some such only
		very s t don now get got let lets`) {
		Stopwords[w] = true
	}
}
