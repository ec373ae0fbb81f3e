package evalscore

import (
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tokenize splits text into identifier-aware, lowercased tokens. Every run of
// letters, digits and underscores is a token as a whole; when the run is a
// compound identifier (snake_case, CamelCase, HTTPServer, parse2json) its parts
// are tokens too, so "parseArgs" yields "parseargs", "parse" and "args".
// Tokens shorter than two characters, pure numbers and the English stopwords in
// Stopwords are dropped: they carry no signal about where code lives and would
// only add noise to the query.
func Tokenize(s string) []string {
	var out []string
	start := -1
	emit := func(run string) {
		whole := strings.ToLower(strings.Trim(run, "_"))
		if keep(whole) {
			out = append(out, whole)
		}
		parts := splitIdent(run)
		if len(parts) < 2 {
			return
		}
		for _, p := range parts {
			p = strings.ToLower(p)
			if keep(p) {
				out = append(out, p)
			}
		}
	}
	for i, r := range s {
		word := r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			emit(s[start:i])
			start = -1
		}
	}
	if start >= 0 {
		emit(s[start:])
	}
	return out
}

func keep(tok string) bool {
	if utf8.RuneCountInString(tok) < 2 || Stopwords[tok] {
		return false
	}
	for _, r := range tok {
		if !unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// splitIdent splits an identifier at underscores, lower-to-upper case changes,
// the end of an upper-case run followed by a lower-case letter ("HTTPServer" →
// "HTTP", "Server") and letter/digit changes.
func splitIdent(s string) []string {
	var parts []string
	for _, seg := range strings.Split(s, "_") {
		rs := []rune(seg)
		begin := 0
		for i := 1; i < len(rs); i++ {
			prev, cur := rs[i-1], rs[i]
			split := false
			switch {
			case unicode.IsLower(prev) && unicode.IsUpper(cur):
				split = true
			case unicode.IsUpper(prev) && unicode.IsUpper(cur) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
				split = true
			case unicode.IsDigit(prev) != unicode.IsDigit(cur):
				split = true
			}
			if split {
				parts = append(parts, string(rs[begin:i]))
				begin = i
			}
		}
		if begin < len(rs) {
			parts = append(parts, string(rs[begin:]))
		}
	}
	return parts
}

// Stopwords are common English function words dropped by Tokenize.
var Stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an and are as at be been but by can could did do does
		doing done for from had has have having he her his how i if in into is it its
		itself just me more most my no nor not now of off on once only or other our out
		over own same she should so some such than that the their them then there these
		they this those through to too under until up very was we were what when where
		which while who whom why will with would you your yours`) {
		m[w] = true
	}
	return m
}()

// BM25 is an Okapi BM25 index over whole documents.
type BM25 struct {
	// K1 saturates term frequency; B normalises by document length.
	K1, B float64
	ids   []string
	tfs   []map[string]int
	lens  []int
	df    map[string]int
	total int
}

// NewBM25 returns an empty index with the given parameters (the baseline uses
// k1 1.2, b 0.75).
func NewBM25(k1, b float64) *BM25 {
	return &BM25{K1: k1, B: b, df: map[string]int{}}
}

// Add indexes one document by its tokens.
func (x *BM25) Add(id string, tokens []string) {
	tf := make(map[string]int, len(tokens)/4+1)
	for _, t := range tokens {
		tf[t]++
	}
	for t := range tf {
		x.df[t]++
	}
	x.ids = append(x.ids, id)
	x.tfs = append(x.tfs, tf)
	x.lens = append(x.lens, len(tokens))
	x.total += len(tokens)
}

// Len is the number of documents indexed.
func (x *BM25) Len() int { return len(x.ids) }

// Scored is one ranked document.
type Scored struct {
	// ID is the document as added; Score its BM25 score.
	ID    string
	Score float64
}

// Rank scores every document against the query tokens (each occurrence of a
// query token counts, as in Okapi BM25 over a bag of words) and returns the
// documents with a positive score, best first, ties broken by ID so the order
// is deterministic. IDF is log(1 + (N - df + 0.5) / (df + 0.5)), never negative.
func (x *BM25) Rank(query []string) []Scored {
	n := float64(len(x.ids))
	if n == 0 {
		return nil
	}
	avg := float64(x.total) / n
	if avg == 0 {
		avg = 1
	}
	qtf := map[string]int{}
	for _, q := range query {
		if x.df[q] > 0 {
			qtf[q]++
		}
	}
	var out []Scored
	for i, tf := range x.tfs {
		var score float64
		norm := x.K1 * (1 - x.B + x.B*float64(x.lens[i])/avg)
		for q, qn := range qtf {
			f := float64(tf[q])
			if f == 0 {
				continue
			}
			df := float64(x.df[q])
			idf := math.Log(1 + (n-df+0.5)/(df+0.5))
			score += float64(qn) * idf * f * (x.K1 + 1) / (f + norm)
		}
		if score > 0 {
			out = append(out, Scored{ID: x.ids[i], Score: score})
		}
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Score != out[b].Score {
			return out[a].Score > out[b].Score
		}
		return out[a].ID < out[b].ID
	})
	return out
}
