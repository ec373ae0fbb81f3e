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
	// byte and end the pattern's end in that word: with Line and the tie
	// they give the order of a scan (by end offset, ties by term).
	word, end int32
	// rank, when set, is 1 + the match's spelling's place among the
	// matcher's spellings (Spelling.Rank), which breaks ties where Term
	// does not (a compound's variants come after every caller term).
	rank int32
}

// tie is what orders hits ending at one byte.
func (h Hit) tie() int {
	if h.rank > 0 {
		return int(h.rank) - 1
	}
	return h.Term
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
	bad := false
	r := hitRunsPool.Get().(*hitRuns)
	defer hitRunsPool.Put(r)
	r.starts = r.starts[:0]
	matchWords(m, f.Text, func(k int, ms []wordMatch, wlen int) {
		if k >= f.nword {
			bad = true
			return
		}
		r.occs = DecodeOccs(f.List(k), r.occs[:0])
		r.starts = append(r.starts, len(out)-len(buf))
		out = appendWordHits(out, pats, ms, wlen, r.occs)
	})
	if bad {
		return out, errShort
	}
	return f.finishHits(out, len(buf), phrase, r), nil
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
// on, which are in runs each in a scan's order beginning at r.starts
// (offsets from from), and puts them in the order of a scan.
func (f *File) finishHits(out []Hit, from int, phrase []int, r *hitRuns) []Hit {
	at := len(out)
	for _, h := range f.Phrases {
		if h.Term < len(phrase) && phrase[h.Term] >= 0 {
			h.Term = phrase[h.Term]
			out = append(out, h)
		}
	}
	if len(out) > at {
		SortHits(out[at:])
		r.starts = append(r.starts, at-from)
	}
	r.mergeRuns(out[from:])
	return out
}

// compareHits orders two hits of one file as a scan reports them.
func compareHits(x, y Hit) int {
	switch {
	case x.Line != y.Line:
		return cmp.Compare(x.Line, y.Line)
	case x.word != y.word:
		return cmp.Compare(x.word, y.word)
	case x.end != y.end:
		return cmp.Compare(x.end, y.end)
	}
	return cmp.Compare(x.tie(), y.tie())
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

// A Pattern is what the words and separator runs can tell of a term that
// is not made of word bytes alone (a path, a dotted name, a phrase the
// caller did not index): its runs of word bytes, each of which must be a
// whole word, a word's start or a word's end, found in that order on one
// line with the term's separators between them: the run after a word is
// every byte between it and the next word (Occ.Sep), so it must be the
// separator exactly; the term's leading separator must end a run of the
// file and its trailing one start one. A file without such a sequence
// cannot hold the term; one with it may (the matcher's boundary rules at
// the term's ends are not checked), and is read. A term of separator
// bytes alone is held by exactly the files one of whose runs holds it.
type Pattern struct {
	runs         []string
	starts, ends []bool   // the run must start / end its word
	gaps         []string // the separator between run i and run i+1
	lead, trail  string   // the separators before the first run and after the last
	sep          string   // the term, when it is made of separator bytes alone
	any          bool     // every file may hold it
}

// Patterns are the patterns of a folded term that is not made of word
// bytes alone: its own and those of its other spellings that are not
// either (match.Variants: "content-type" is also content_type, which the
// words do not answer for, and contenttype, which they do).
func Patterns(term string) []Pattern {
	out := []Pattern{NewPattern(term)}
	for _, v := range match.Variants(term) {
		if !Simple(v) {
			out = append(out, NewPattern(v))
		}
	}
	return out
}

// NewPattern is the pattern of a folded term.
func NewPattern(term string) Pattern {
	var p Pattern
	if term == "" || strings.ContainsAny(term, "\n\r") {
		return Pattern{any: true}
	}
	i := 0
	for i < len(term) {
		j := i
		for j < len(term) && !wordByte(term[j]) {
			j++
		}
		if len(p.runs) == 0 {
			p.lead = term[i:j]
		} else {
			p.gaps = append(p.gaps, term[i:j])
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
	switch {
	case len(p.runs) == 0:
		return Pattern{sep: term}
	case len(p.gaps) == len(p.runs):
		p.trail, p.gaps = p.gaps[len(p.gaps)-1], p.gaps[:len(p.gaps)-1]
	}
	return p
}

// Any reports whether every file may hold the term.
func (p Pattern) Any() bool { return p.any }

// role reports whether folded word w can hold run i.
func (p Pattern) role(i int, w []byte) bool {
	return runRole{p.starts[i], p.ends[i]}.holds(p.runs[i], w)
}

// A runRole is where a run must be in its word: a run that starts (ends)
// the term after (before) a separator must start (end) it.
type runRole struct{ starts, ends bool }

// holds reports whether folded word w holds run r in that role.
func (role runRole) holds(r string, w []byte) bool {
	switch {
	case role.starts && role.ends:
		return string(w) == r
	case role.starts:
		return bytes.HasPrefix(w, []byte(r))
	case role.ends:
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
		if f.holds(p, fold) != HeldNo {
			return true, fold
		}
	}
	return false, fold
}

// Held is what an entry tells of a term (Pattern) a file may hold.
type Held uint8

const (
	// HeldNo: the file does not hold the term.
	HeldNo Held = iota
	// HeldYes: it does: a match of the matcher's starts and ends there.
	HeldYes
	// HeldMaybe: it may; only its bytes tell (the term opens with a
	// separator, which would have to end the run before a word, or holds
	// a line break).
	HeldMaybe
)

// holds finds the words that can hold each of p's runs in the folded word
// text and joins their places.
func (f *File) holds(p Pattern, fold []byte) Held {
	if p.sep != "" || p.any {
		return f.held(p, nil, nil)
	}
	runs := make([][]wordAt, len(p.runs))
	for i := range p.runs {
		if !bytes.Contains(fold, []byte(p.runs[i])) {
			return HeldNo
		}
		runs[i] = p.wordsFor(i, fold, f.Text)
	}
	return f.held(p, runs, f.sepRuns(newSepKeys([]Pattern{p})))
}

// held is what f tells of p, given the words that can hold each run
// (runs[i], word numbers ascending) and what f's separator runs tell of
// its separators (File.sepRuns).
func (f *File) held(p Pattern, runs [][]wordAt, seps *sepRuns) Held {
	switch {
	case p.any:
		return HeldMaybe
	case p.sep != "":
		if bytes.Contains(f.Seps, []byte(p.sep)) {
			return HeldYes
		}
		return HeldNo
	case p.lead != "":
		if !f.join(p, runs, seps, false) {
			return HeldNo
		}
		var starts []Occ
		f.chains(p, runs, seps, func(first Occ, _ Hit) { starts = append(starts, first) })
		held := HeldNo
		for _, h := range f.leadBefore(p.lead, starts) {
			if h == HeldYes {
				return HeldYes
			}
			if h == HeldMaybe {
				held = HeldMaybe
			}
		}
		return held
	case f.join(p, runs, seps, true):
		return HeldYes
	}
	return HeldNo
}

// wordOK reports whether the matcher's boundary rules let p's term start
// in word w (its own case) when i is its first run, and end in it when i
// is its last; a run that starts or ends at a separator has nothing to
// check there.
func (p Pattern) wordOK(i int, w []byte) bool {
	r := p.runs[i]
	if i == 0 && !p.starts[0] && !match.StartsWord(w, len(w)-len(r)) {
		return false
	}
	return i < len(p.runs)-1 || p.ends[i] || match.EndsWord(w, len(r))
}

// wordAt is word k of an entry, n bytes long, one the term may start or
// end in where it holds the term's first or last run (Pattern.wordOK:
// wordsFor keeps no other).
type wordAt struct {
	k int
	n int32
}

// join reports whether the words that can hold each run (runs[i], word
// numbers ascending) occur in order on one line, each but the last
// followed by the pattern's separator to the next (the words are those
// the term may start and end in: wordsFor). exact also asks that the run
// after the last starts with the trailing separator: then a chain is a
// match.
func (f *File) join(p Pattern, runs [][]wordAt, seps *sepRuns, exact bool) bool {
	for _, ws := range runs {
		if len(ws) == 0 {
			return false
		}
	}
	if !seps.around(p) {
		return false
	}
	gap := make([]int32, len(p.gaps))
	for i, g := range p.gaps {
		if gap[i] = seps.number(g); gap[i] == 0 {
			return false
		}
	}
	// at holds where run i may start (line and column as one key), sorted:
	// where run i-1's word ends plus its separator.
	var at, next []uint64
	var occs []Occ
	last := len(p.runs) - 1
	for i := range p.runs {
		next = next[:0]
		for _, w := range runs[i] {
			if i == last && i == 0 && !(exact && p.trail != "") {
				return true
			}
			occs = DecodeOccs(f.List(w.k), occs[:0])
			for _, o := range occs {
				if i > 0 {
					if _, ok := slices.BinarySearch(at, placeKey(o.Line, o.Col)); !ok {
						continue
					}
				}
				switch {
				case i < last:
					if o.Sep == gap[i] {
						next = append(next, placeKey(o.Line, o.Col+w.n+int32(len(p.gaps[i]))))
					}
				case !exact || p.trail == "" || f.sepStarts(o.Sep, p.trail):
					return true
				}
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

// sepStarts reports whether separator run n (Occ.Sep) starts with s.
func (f *File) sepStarts(n int32, s string) bool {
	k := int32(1)
	found := false
	eachWord(f.Seps, func(w []byte) {
		if k == n {
			found = bytes.HasPrefix(w, []byte(s))
		}
		k++
	})
	return found
}

// placeKey is a line and column as one comparable key.
func placeKey(line, col int32) uint64 { return uint64(uint32(line))<<32 | uint64(uint32(col)) }
