package index

import (
	"bytes"
	"sort"
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
	var wm []wordMatch
	m.Scan(f.Text, func(t, s, e int) bool {
		wm = append(wm, wordMatch{t, s, e})
		return true
	})
	out := buf
	if len(wm) > 0 {
		pats := m.Terms()
		var occs []Occ
		k, at := 0, 0 // word k starts at Text[at]
		for j := 0; j < len(wm); {
			s := wm[j].s
			nl := bytes.Count(f.Text[at:s], []byte{'\n'})
			if nl > 0 {
				k += nl
				at = bytes.LastIndexByte(f.Text[:s], '\n') + 1
			}
			end := at + bytes.IndexByte(f.Text[at:], '\n')
			lo := j
			for j < len(wm) && wm[j].s < end {
				j++
			}
			if k >= f.nword {
				return out, errShort
			}
			occs = DecodeOccs(f.List(k), occs[:0])
			for _, o := range occs {
				for _, w := range wm[lo:j] {
					out = append(out, Hit{Term: w.t, Line: o.Line, Col: o.Col + int32(w.s-at),
						Key: o.Key && w.e == end, word: o.Col, end: int32(w.s - at + len(pats[w.t]))})
				}
			}
		}
	}
	for _, h := range f.Phrases {
		if h.Term < len(phrase) && phrase[h.Term] >= 0 {
			h.Term = phrase[h.Term]
			out = append(out, h)
		}
	}
	hs := out[len(buf):]
	sort.Slice(hs, func(a, b int) bool {
		x, y := &hs[a], &hs[b]
		if x.Line != y.Line {
			return x.Line < y.Line
		}
		if x.word != y.word {
			return x.word < y.word
		}
		if x.end != y.end {
			return x.end < y.end
		}
		return x.Term < y.Term
	})
	return out, nil
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
	fold = fold[:0]
	for _, c := range f.Text {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		fold = append(fold, c)
	}
	for _, p := range pats {
		if p.any || f.holds(p, fold) {
			return true, fold
		}
	}
	return false, fold
}

// holds joins the occurrences of the words that can hold each run.
func (f *File) holds(p Pattern, fold []byte) bool {
	type cand struct {
		list []byte
		n    int32
	}
	// The words that can hold each run, found by searching the folded
	// word text for the run: word indices, ascending.
	for _, r := range p.runs {
		if !bytes.Contains(fold, []byte(r)) {
			return false
		}
	}
	idx := make([][]int, len(p.runs))
	lens := make([][]int32, len(p.runs))
	for i, r := range p.runs {
		line, at := 0, 0
		for off := 0; ; {
			j := bytes.Index(fold[off:], []byte(r))
			if j < 0 {
				break
			}
			pos := off + j
			ws := bytes.LastIndexByte(fold[:pos], '\n') + 1
			we := pos + bytes.IndexByte(fold[pos:], '\n')
			line += bytes.Count(fold[at:ws], []byte{'\n'})
			at = ws
			if p.role(i, fold[ws:we]) && (len(idx[i]) == 0 || idx[i][len(idx[i])-1] != line) {
				idx[i] = append(idx[i], line)
				lens[i] = append(lens[i], int32(we-ws))
			}
			off = pos + 1
		}
		if len(idx[i]) == 0 {
			return false
		}
	}
	if len(p.runs) == 1 {
		return true
	}
	cands := make([][]cand, len(p.runs))
	for i := range p.runs {
		for _, k := range idx[i] {
			cands[i] = append(cands[i], cand{f.List(k), lens[i][len(cands[i])]})
		}
	}
	// at holds where run i may start (line, column): where run i-1's word
	// ends plus the gap.
	type place struct{ line, col int32 }
	at := map[place]bool{}
	var occs []Occ
	for i := range p.runs {
		next := map[place]bool{}
		for _, c := range cands[i] {
			occs = DecodeOccs(c.list, occs[:0])
			for _, o := range occs {
				if i > 0 && !at[place{o.Line, o.Col}] {
					continue
				}
				if i == len(p.runs)-1 {
					return true
				}
				next[place{o.Line, o.Col + c.n + int32(p.gaps[i])}] = true
			}
		}
		at = next
		if len(at) == 0 {
			return false
		}
	}
	return false
}
