package index

import (
	"bytes"
	"cmp"
	"slices"
	"strings"

	"github.com/rtch/rtch/pkg/match"
)

// Hit is one match of a term in a stored file, as a scan of the file's bytes
// would report it.
type Hit struct {
	// Term is the matcher's term index.
	Term int
	// Line is 1-based; Col is the match's first byte, 0-based in its line.
	Line, Col int32
	// Key says a key's ':' or '=' follows the match (fields.IsKeyAt), only
	// ever true for JSON, YAML and TOML files.
	Key bool
	// word is the column of the word holding the match's last pattern
	// byte and end the pattern's end in that word: with Line and Term they
	// give the order of a scan (by end offset, ties by term).
	word, end int32
}

// wordMatch is a match inside one word of the word text.
type wordMatch struct{ t, s, e int }

// Hits appends to buf every match m finds in f, in the order m.Scan reports
// them on the file's bytes (by end offset, ties by term), together with
// the stored phrase hits: phrase[k] is the term index of the stored phrase
// k (-1 to leave it out). Only words made of word bytes are stored, so
// among the other terms only those phrases are answered: a caller reads
// the file for the rest (ContainsAny says which files may hold them). m's
// terms must have no spelling variants (match.Variants), as terms of word
// bytes alone have none.
func (f *File) Hits(m *match.Matcher, phrase []int, buf []Hit) ([]Hit, error) {
	out := buf
	pats := m.Terms()
	var occs []Occ
	bad := false
	matchWords(m, f.Text, func(k int, ms []wordMatch, wlen int) {
		if k >= f.nword {
			bad = true
			return
		}
		occs = DecodeOccs(f.List(k), occs[:0])
		out = appendWordHits(out, pats, ms, wlen, occs)
	})
	if bad {
		return out, errShort
	}
	return f.finishHits(out, len(buf), phrase), nil
}

// matchWords runs m over a word text (each word followed by '\n') and calls
// fn, in order, for each word with matches: its number, the matches
// (offsets in the word) and its length.
func matchWords(m *match.Matcher, text []byte, fn func(k int, ms []wordMatch, wlen int)) {
	var wm []wordMatch
	m.Scan(text, func(t, s, e int) bool {
		wm = append(wm, wordMatch{t, s, e})
		return true
	})
	k, at := 0, 0 // word k starts at text[at]
	for j := 0; j < len(wm); {
		s := wm[j].s
		if nl := bytes.Count(text[at:s], []byte{'\n'}); nl > 0 {
			k += nl
			at = bytes.LastIndexByte(text[:s], '\n') + 1
		}
		end := at + bytes.IndexByte(text[at:], '\n')
		if end < at {
			end = len(text)
		}
		var ms []wordMatch
		for ; j < len(wm) && wm[j].s < end; j++ {
			ms = append(ms, wordMatch{wm[j].t, wm[j].s - at, wm[j].e - at})
		}
		fn(k, ms, end-at)
	}
}

// finishHits adds the stored phrase hits to the word hits from out[from:]
// on and puts them in the order of a scan.
func (f *File) finishHits(out []Hit, from int, phrase []int) []Hit {
	for _, h := range f.Phrases {
		if h.Term < len(phrase) && phrase[h.Term] >= 0 {
			h.Term = phrase[h.Term]
			out = append(out, h)
		}
	}
	hs := out[from:]
	slices.SortFunc(hs, func(x, y Hit) int {
		switch {
		case x.Line != y.Line:
			return cmp.Compare(x.Line, y.Line)
		case x.word != y.word:
			return cmp.Compare(x.word, y.word)
		case x.end != y.end:
			return cmp.Compare(x.end, y.end)
		}
		return cmp.Compare(x.Term, y.Term)
	})
	return out
}

// Terms marks in seen (indexed by m's term indices) every term m finds in f.
func (f *File) Terms(m *match.Matcher, seen []bool) {
	m.Scan(f.Text, func(t, s, e int) bool {
		seen[t] = true
		return true
	})
}

// Simple reports whether the folded term is made of word bytes alone, so
// that the stored words answer for it.
func Simple(term string) bool {
	if term == "" {
		return false
	}
	for i := 0; i < len(term); i++ {
		if !wordByte(term[i]) {
			return false
		}
	}
	return true
}

// A Pattern is what the words can tell of a term that is not made of word
// bytes alone (a path, a dotted name, a phrase the caller did not index):
// its runs of word bytes, each of which must be a whole word, a word's
// start or a word's end, found in that order on one line with the term's
// separators' widths between them. A file without such a sequence cannot
// hold the term; one with it may (the separators' bytes are not stored),
// and is read.
type Pattern struct {
	runs         []string
	starts, ends []bool // the run must start / end its word
	gaps         []int  // bytes between run i and run i+1
	any, unsplit bool   // any: every file may hold it
}

// NewPattern is the pattern of a folded term.
func NewPattern(term string) Pattern {
	var p Pattern
	if strings.ContainsAny(term, "\n\r") {
		return Pattern{any: true}
	}
	i := 0
	for i < len(term) {
		j := i
		for j < len(term) && !wordByte(term[j]) {
			j++
		}
		if len(p.runs) > 0 {
			p.gaps = append(p.gaps, j-i)
		}
		if j == len(term) {
			break
		}
		k := j
		for k < len(term) && wordByte(term[k]) {
			k++
		}
		p.runs = append(p.runs, term[j:k])
		p.starts = append(p.starts, j > 0)
		p.ends = append(p.ends, k < len(term))
		i = k
	}
	if len(p.runs) == 0 {
		p.any = true
	}
	if len(p.gaps) >= len(p.runs) && len(p.gaps) > 0 {
		p.gaps = p.gaps[:len(p.runs)-1] // a trailing separator is no gap
	}
	return p
}

// Any reports whether every file may hold the term.
func (p Pattern) Any() bool { return p.any }

// role reports whether folded word w can hold run i.
func (p Pattern) role(i int, w []byte) bool {
	r := p.runs[i]
	switch {
	case p.starts[i] && p.ends[i]:
		return string(w) == r
	case p.starts[i]:
		return bytes.HasPrefix(w, []byte(r))
	case p.ends[i]:
		return bytes.HasSuffix(w, []byte(r))
	}
	return bytes.Contains(w, []byte(r))
}

// MayHold reports whether f may hold one of the patterns' terms; fold is
// a scratch buffer, returned for reuse.
func (f *File) MayHold(pats []Pattern, fold []byte) (bool, []byte) {
	if len(pats) == 0 {
		return false, fold
	}
	fold = foldWords(fold, f.Text)
	for _, p := range pats {
		if p.any || f.holds(p, fold) {
			return true, fold
		}
	}
	return false, fold
}

// holds finds the words that can hold each of p's runs in the folded word
// text and joins their places.
func (f *File) holds(p Pattern, fold []byte) bool {
	for _, r := range p.runs {
		if !bytes.Contains(fold, []byte(r)) {
			return false
		}
	}
	runs := make([][]wordAt, len(p.runs))
	for i := range p.runs {
		ids, lens := p.wordsFor(i, fold)
		for j, k := range ids {
			runs[i] = append(runs[i], wordAt{k, lens[j]})
		}
	}
	return f.join(p, runs)
}

// wordAt is word k of an entry, n bytes long.
type wordAt struct {
	k int
	n int32
}

// join reports whether the words that can hold each run (runs[i], word
// numbers ascending) occur in order on one line at the pattern's gaps.
func (f *File) join(p Pattern, runs [][]wordAt) bool {
	for _, ws := range runs {
		if len(ws) == 0 {
			return false
		}
	}
	if len(p.runs) == 1 {
		return true
	}
	// at holds where run i may start (line and column as one key), sorted:
	// where run i-1's word ends plus the gap.
	var at, next []uint64
	var occs []Occ
	for i := range p.runs {
		next = next[:0]
		for _, w := range runs[i] {
			occs = DecodeOccs(f.List(w.k), occs[:0])
			for _, o := range occs {
				if i > 0 {
					if _, ok := slices.BinarySearch(at, placeKey(o.Line, o.Col)); !ok {
						continue
					}
				}
				if i == len(p.runs)-1 {
					return true
				}
				next = append(next, placeKey(o.Line, o.Col+w.n+int32(p.gaps[i])))
			}
		}
		if len(next) == 0 {
			return false
		}
		slices.Sort(next)
		at, next = next, at
	}
	return false
}

// placeKey is a line and column as one comparable key.
func placeKey(line, col int32) uint64 { return uint64(uint32(line))<<32 | uint64(uint32(col)) }
