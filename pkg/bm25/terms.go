package bm25

import "strings"

// The prose form of text, for a wiki and the questions asked of it: Terms
// is Tokenize's identifier-aware tokens with English stopwords dropped,
// regular plurals folded (Plural) and phrasal compounds joined ("back off"
// and "backoff" are both backoff; "back-off" is also backoff). Documents and queries go through the same
// function on every backend (docs/decisions/guild-recall-terms.md).

// particles end an English phrasal verb whose joined spelling is also a
// word of its own: back off / backoff, set up / setup, time out / timeout,
// shut down / shutdown, roll back / rollback, fail over / failover, give
// away / giveaway. "in" and "on" (log in, add on) are left out: as
// prepositions they follow almost any word.
var particles = map[string]bool{"off": true, "up": true, "out": true, "down": true, "back": true, "over": true, "away": true}

// EachTerm calls yield with each term of Terms(s), in order, without
// building the list.
func EachTerm(s string, yield func(string)) {
	emit := func(t string) {
		if !Stopwords[t] {
			yield(Plural(t))
		}
	}
	// head is a plain word held back because it may join the particle after
	// it; mid is that particle when it may itself start a compound with the
	// next word ("retries back off": back joins off, not retries).
	var head, mid string
	eachWord(s, func(w string, adjacent bool) {
		p, isParticle := particle(w)
		isParticle = isParticle && adjacent
		switch {
		case mid != "" && isParticle:
			yield(word(head))
			yield(joined(mid, p))
			head, mid = "", ""
			return
		case mid != "":
			yield(joined(head, mid))
			head, mid = "", ""
		case head != "" && isParticle && joinable(w):
			mid = p
			return
		case head != "" && isParticle:
			yield(joined(head, p))
			head = ""
			return
		case head != "":
			yield(word(head))
			head = ""
		}
		if joinable(w) {
			head = w
			return
		}
		wordTokens(w, emit)
		if x, p, ok := strings.Cut(w, "-"); ok && particles[strings.ToLower(p)] && joinable(x) {
			yield(joined(x, strings.ToLower(p)))
		}
	})
	switch {
	case mid != "":
		yield(joined(head, mid))
	case head != "":
		yield(word(head))
	}
}

// Terms is EachTerm's terms as a list: the form used for both documents and
// queries in prose-heavy corpora such as a wiki.
func Terms(s string) []string {
	var out []string
	EachTerm(s, func(t string) { out = append(out, t) })
	return out
}

// word is the term of a held-back head (a joinable word: ASCII letters,
// upper case at most at the start, not a stopword): what wordTokens and emit
// would give it, without looking it up in Stopwords again.
func word(head string) string {
	if c := head[0]; 'A' <= c && c <= 'Z' {
		head = strings.ToLower(head)
	}
	return Plural(head)
}

// joined is the term of a word and the particle after it:
// "Backs", "off" → backoff.
func joined(head, p string) string { return word(head) + p }

// joinable reports a word that may start a phrasal compound: two or more
// ASCII letters, upper case only at the start (a word, not a CamelCase
// name), that are not a stopword.
func joinable(w string) bool {
	if len(w) < 2 {
		return false
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if i > 0 && c >= 'A' && c <= 'Z' {
			return false
		}
		if c |= 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return !stopwordASCII(w)
}

// stopwordASCII is Stopwords[strings.ToLower(w)] for a word of ASCII
// letters upper case at most at the start, without allocating: a map
// lookup by string(bytes) copies nothing.
func stopwordASCII(w string) bool {
	if c := w[0]; c < 'A' || c > 'Z' {
		return Stopwords[w]
	}
	var b [16]byte
	if len(w) > len(b) {
		return Stopwords[strings.ToLower(w)]
	}
	n := copy(b[:], w)
	b[0] |= 0x20
	return Stopwords[string(b[:n])]
}

// particle reports a word that is one of the particles (a full stop or
// other separator after it allowed), lowercased. It is asked of every word,
// so a word of another length is turned away before anything is lowered.
func particle(w string) (string, bool) {
	for len(w) > 0 && isSep(rune(w[len(w)-1])) {
		w = w[:len(w)-1]
	}
	if len(w) < 2 || len(w) > 4 {
		return "", false
	}
	var b [4]byte
	for i := 0; i < len(w); i++ {
		c := w[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	if !particles[string(b[:len(w)])] {
		return "", false
	}
	return string(b[:len(w)]), true
}

// eachWord calls fn with each word of s (Tokenize's words: runs of letters,
// digits, '_', '.' and '-') and whether only white space with at most one
// line break separates it from the word before.
func eachWord(s string, fn func(w string, adjacent bool)) {
	start, prevEnd := -1, -1
	for i, r := range s {
		w := isWordRune(r)
		switch {
		case w && start < 0:
			start = i
		case !w && start >= 0:
			fn(s[start:i], prevEnd >= 0 && spaceOnly(s[prevEnd:start]))
			start, prevEnd = -1, i
		}
	}
	if start >= 0 {
		fn(s[start:], prevEnd >= 0 && spaceOnly(s[prevEnd:start]))
	}
}

// spaceOnly reports a gap of white space holding at most one line break.
func spaceOnly(gap string) bool {
	breaks := 0
	for i := 0; i < len(gap); i++ {
		switch gap[i] {
		case ' ', '\t', '\r':
		case '\n':
			breaks++
		default:
			return false
		}
	}
	return breaks <= 1
}

// Plural folds a regular English plural to its singular so that "retries"
// meets "retry" and "payments" meets "payment": -ies → -y, -sses → -ss,
// -xes/-ches/-shes/-zes lose -es, and any other -s not after s, u or i is
// dropped. Words of four letters or fewer and tokens with digits or
// separators are kept as they are. It is deliberately conservative (an
// S-stemmer, not Porter): it never touches a singular it can recognise.
func Plural(t string) string {
	n := len(t)
	if n <= 4 || t[n-1] != 's' {
		return t
	}
	for i := 0; i < n; i++ {
		if c := t[i]; c < 'a' || c > 'z' {
			return t
		}
	}
	switch {
	case strings.HasSuffix(t, "ies") && !strings.HasSuffix(t, "eies") && !strings.HasSuffix(t, "aies"):
		return t[:n-3] + "y"
	case strings.HasSuffix(t, "sses"):
		return t[:n-2]
	case strings.HasSuffix(t, "xes"), strings.HasSuffix(t, "ches"), strings.HasSuffix(t, "shes"), strings.HasSuffix(t, "zes"):
		return t[:n-2]
	}
	switch t[n-2] {
	case 's', 'u', 'i':
		return t
	}
	return t[:n-1]
}
