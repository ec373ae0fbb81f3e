package index

import (
	"bytes"
	"slices"
)

// Spelling names the matches of a pattern: the term they are reported as,
// and the spelling's place among a matcher's spellings (its terms, then
// the variants it adds: match.Matcher.Spellings), which orders matches
// ending at one byte.
type Spelling struct{ Term, Rank int }

// Places appends to buf every match in f of the patterns' terms, as a scan
// of its bytes finds them: the matches of pattern pi are of spelling
// sp[pi]. It reports false when f may hold a pattern's term that its
// entry cannot place (one that closes with a separator, is made of
// separators alone or may be anywhere, or one that opens with a
// separator where the run before its first word is unknown: placeLead):
// only the file's bytes tell those, and the caller reads it. The hits are not in a scan's order
// (MergeHits).
func (c *Cands) Places(f *File, sp []Spelling, buf []Hit) ([]Hit, bool) {
	if !c.May(f.entry) {
		return buf, true
	}
	var seps *sepRuns
	for pi, p := range c.pats {
		if p.lead != "" && p.trail == "" && p.sep == "" && !p.any {
			runs := c.wordsAt(f, pi)
			if runs == nil {
				continue
			}
			if seps == nil {
				seps = f.sepRuns(c.keys)
			}
			var ok bool
			if buf, ok = f.placeLead(p, runs, seps, sp[pi], buf); !ok {
				return buf, false
			}
			continue
		}
		if p.sep != "" || p.any || p.trail != "" {
			var h Held
			if h, seps = c.heldOne(f, pi, seps); h != HeldNo {
				return buf, false
			}
			continue
		}
		runs := c.wordsAt(f, pi)
		if runs == nil {
			continue
		}
		if seps == nil {
			seps = f.sepRuns(c.keys)
		}
		buf = f.place(p, runs, seps, sp[pi], buf)
	}
	return buf, true
}

// wordsAt are the words of f that can hold each run of pattern pi (not
// one of separators alone), nil when a run has none.
func (c *Cands) wordsAt(f *File, pi int) [][]wordAt {
	rs := c.runs[pi]
	for _, g := range rs {
		if len(g.of(f.entry)) == 0 {
			return nil
		}
	}
	runs := make([][]wordAt, len(rs))
	for i, g := range rs {
		ws := g.of(f.entry)
		runs[i] = make([]wordAt, len(ws))
		for j, w := range ws {
			runs[i][j] = wordAt{int(w.k), w.n}
		}
	}
	return runs
}

// heldOne is what f tells of pattern pi (Held); seps are f's separator
// runs (File.sepRuns), found on first need and returned for the next
// pattern.
func (c *Cands) heldOne(f *File, pi int, seps *sepRuns) (Held, *sepRuns) {
	p := c.pats[pi]
	if !c.May(f.entry) {
		return HeldNo, seps
	}
	var runs [][]wordAt
	if p.sep == "" && !p.any {
		if runs = c.wordsAt(f, pi); runs == nil {
			return HeldNo, seps
		}
		if seps == nil {
			seps = f.sepRuns(c.keys)
		}
	}
	return f.held(p, runs, seps), seps
}

// placedWord is one occurrence of a word that can hold a run after the
// first, with the word's length.
type placedWord struct {
	o Occ
	n int32
}

// place appends to buf a Hit of spelling s for each match of p (of two or more
// runs, with neither a leading nor a trailing separator) in f: an
// occurrence of a word that can hold the first run, in which the term may
// start, followed on its line by the pattern's separators and words that
// hold the other runs, the last one a word in which it may end (the
// certain chain of join, every one of them).
func (f *File) place(p Pattern, runs [][]wordAt, seps *sepRuns, s Spelling, buf []Hit) []Hit {
	f.chains(p, runs, seps, func(_ Occ, h Hit) {
		h.Term, h.rank = s.Term, int32(s.Rank)+1
		buf = append(buf, h)
	})
	return buf
}

// chain follows a match of p from o, an occurrence of a word n bytes long
// holding its first run, through the words at the places its separators
// lead to; the Hit (without its term) when every run is there.
func (p Pattern) chain(o Occ, n int32, gap []int32, at []map[uint64]placedWord) (Hit, bool) {
	h := Hit{Line: o.Line, Col: o.Col + n - int32(len(p.runs[0]))}
	for i, g := range gap {
		if o.Sep != g {
			return Hit{}, false
		}
		next, ok := at[i][placeKey(o.Line, o.Col+n+int32(len(p.gaps[i])))]
		if !ok {
			return Hit{}, false
		}
		o, n = next.o, next.n
	}
	end := int32(len(p.runs[len(p.runs)-1]))
	h.Key, h.word, h.end = o.Key && end == n, o.Col, end
	return h, true
}

// SortHits puts hits in the order a scan of the file reports them: by
// line, the word holding the match's end, the end in it, and the term.
func SortHits(hs []Hit) {
	slices.SortFunc(hs, compareHits)
}

// MergeHits is hits (in a scan's order) and placed (sorted here) together
// in a scan's order, in a new slice.
func MergeHits(hits, placed []Hit) []Hit {
	SortHits(placed)
	out := make([]Hit, 0, len(hits)+len(placed))
	for len(hits) > 0 && len(placed) > 0 {
		if compareHits(placed[0], hits[0]) < 0 {
			out, placed = append(out, placed[0]), placed[1:]
		} else {
			out, hits = append(out, hits[0]), hits[1:]
		}
	}
	return append(append(out, hits...), placed...)
}

// placeLead appends to buf a Hit of spelling s for each match in f of p,
// a pattern that opens with a separator and does not close with one: a
// chain of its runs (chains) whose first word the run before ends with
// the separator (leadBefore). It reports false when that run is unknown
// for a chain (a line's first word), and the caller reads the file.
func (f *File) placeLead(p Pattern, runs [][]wordAt, seps *sepRuns, s Spelling, buf []Hit) ([]Hit, bool) {
	if !f.join(p, runs, seps, false) {
		return buf, true
	}
	var starts []Occ
	var hits []Hit
	f.chains(p, runs, seps, func(first Occ, h Hit) {
		starts, hits = append(starts, first), append(hits, h)
	})
	for i, held := range f.leadBefore(p.lead, starts) {
		switch held {
		case HeldMaybe:
			return buf, false
		case HeldYes:
			h := hits[i]
			h.Col = starts[i].Col - int32(len(p.lead)) // the first run starts its word
			h.Term, h.rank = s.Term, int32(s.Rank)+1
			buf = append(buf, h)
		}
	}
	return buf, true
}

// chains calls fn with the first run's occurrence and the Hit (without
// its term) of every chain of p's runs in f that is a match but for p's
// leading separator: join's exact chains, every one of them, the last
// word followed by p's trailing separator when it has one. The Hit is
// chain's: its Col is where the first run starts when it ends its word.
func (f *File) chains(p Pattern, runs [][]wordAt, seps *sepRuns, fn func(first Occ, h Hit)) {
	last := len(p.runs) - 1
	gap := make([]int32, len(p.gaps))
	for i, g := range p.gaps {
		if gap[i] = seps.number(g); gap[i] == 0 {
			return
		}
	}
	trailOK := func(o Occ) bool { return p.trail == "" || f.sepStarts(o.Sep, p.trail) }
	// at[i-1] holds, by place, the occurrences of the words that can hold
	// run i.
	at := make([]map[uint64]placedWord, last)
	var occs []Occ
	for i := 1; i <= last; i++ {
		at[i-1] = map[uint64]placedWord{}
		for _, w := range runs[i] {
			occs = DecodeOccs(f.List(w.k), occs[:0])
			for _, o := range occs {
				if i < last || trailOK(o) {
					at[i-1][placeKey(o.Line, o.Col)] = placedWord{o, w.n}
				}
			}
		}
		if len(at[i-1]) == 0 {
			return
		}
	}
	for _, w := range runs[0] {
		occs = DecodeOccs(f.List(w.k), occs[:0])
		for _, o := range occs {
			if last == 0 && !trailOK(o) {
				continue
			}
			if h, ok := p.chain(o, w.n, gap, at); ok {
				fn(o, h)
			}
		}
	}
}

// leadBefore tells, for each occurrence of a word in starts, whether the
// separator run before it on its line ends with lead. That run is the
// run after the word before it (Occ.Sep), found by following every
// occurrence of the file's words to the place its run leads to; a line's
// first word has no word before it, and the run before it is the line's
// leading run, as many bytes as its column, which the entry does not
// keep: the file's runs of that length tell when all or none of them end
// with lead, and it is HeldMaybe otherwise.
func (f *File) leadBefore(lead string, starts []Occ) []Held {
	out := make([]Held, len(starts))
	if len(starts) == 0 {
		return out
	}
	// The runs' lengths and whether each ends with lead, by number - 1.
	var runLen []int32
	var runEnds []bool
	eachWord(f.Seps, func(r []byte) {
		runLen = append(runLen, int32(len(r)))
		runEnds = append(runEnds, bytes.HasSuffix(r, []byte(lead)))
	})
	pending := make(map[uint64]int, len(starts))
	var lastLine int32
	for i, o := range starts {
		if int(o.Col) < len(lead) {
			continue // HeldNo: too few bytes before it on its line
		}
		out[i] = HeldMaybe
		pending[placeKey(o.Line, o.Col)] = i
		lastLine = max(lastLine, o.Line)
	}
	if len(pending) == 0 {
		return out
	}
	onLine := make([]bool, lastLine+1)
	for i, o := range starts {
		if out[i] == HeldMaybe {
			onLine[o.Line] = true
		}
	}
	// Every occurrence is followed to where its run leads, until each
	// start has been reached (a word's list is in line order, so it is
	// left at the last line with a start).
	found := make([]bool, len(starts))
	left := len(pending)
	text := f.Text
	for k := 0; k < f.nword && left > 0; k++ {
		n := bytes.IndexByte(text, '\n')
		if n < 0 {
			n = len(text)
		}
		text = text[min(n+1, len(text)):]
		d := decoder{b: f.List(k)}
		line := int32(0)
		for len(d.b) > 0 && d.err == nil {
			line += int32(d.uv())
			col := int32(d.uv() >> 1)
			sep := int32(d.uv())
			if line > lastLine {
				break
			}
			if sep == 0 || int(sep) > len(runLen) || !onLine[line] {
				continue
			}
			i, ok := pending[placeKey(line, col+int32(n)+runLen[sep-1])]
			if !ok || found[i] {
				continue
			}
			found[i], left = true, left-1
			out[i] = HeldNo
			if runEnds[sep-1] {
				out[i] = HeldYes
			}
		}
	}
	for i, o := range starts {
		if out[i] != HeldMaybe || found[i] {
			continue
		}
		yes, no := false, false
		for n, l := range runLen {
			if l == o.Col {
				yes, no = yes || runEnds[n], no || !runEnds[n]
			}
		}
		switch {
		case yes && !no:
			out[i] = HeldYes
		case no && !yes:
			out[i] = HeldNo
		}
	}
	return out
}
