package probe

import (
	"cmp"
	"math/bits"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/rtch/rtch/pkg/fields"
	"github.com/rtch/rtch/pkg/index"
	"github.com/rtch/rtch/pkg/match"
	"github.com/rtch/rtch/pkg/symbols"
)

// Field of a match.
const (
	fieldPath       = "path"
	fieldDefinition = "definition"
	fieldDefLine    = "definition_line"
	fieldHeading    = "heading"
	fieldKey        = "key"
	fieldBody       = "body"
)

const (
	keptPositions = 4  // match positions kept per term per file, for hits
	anchorsKept   = 5  // anchor lines per file
	anchorSpread  = 25 // anchors closer than this to a better one are dropped
	anchorWindow  = 8  // lines either side whose terms count toward an anchor
)

// pos is one kept match.
type pos struct {
	line, col int32
	field     uint8
}

var fieldNames = []string{fieldBody, fieldDefinition, fieldDefLine, fieldHeading, fieldKey, fieldPath}

const (
	fBody uint8 = iota
	fDef
	fDefLine
	fHeading
	fKey
	fPath
)

// termEv is one term's evidence in one file.
type termEv struct {
	term                       int32
	body, def, defl, head, key int32
	fileExact, filePart, dir   bool
	npos                       int8
	pos                        [keptPositions]pos
	scored                     int32 // the last line whose score counted the term
}

// fileEv is one file's evidence.
type fileEv struct {
	path    string
	bytes   int64
	lines   int
	terms   []termEv
	anchors []int
	// window is the best window's terms: the most IDF of distinct terms
	// within anchorWindow lines of one line, and how many they are.
	window      float64
	windowTerms int
}

type lineScore struct {
	line  int
	score float64
	seen  uint64 // the bits (censusTerm.bit) of the terms on the line
}

// collector gathers one file's evidence; slot maps a term to its entry + 1
// and defs a term with an entry to its definition lines in the file
// (censusTerm.locations, looked up once per file); both are reset after
// the file.
type collector struct {
	ev     *fileEv
	slot   []int32
	defs   [][]int
	looked []bool
	// ls and cands are scratch for a file's line scores and its anchor
	// candidates (fileScan.finish), terms for its terms' evidence until
	// done keeps a copy of their number.
	ls    []lineScore
	cands []anchorCand
	terms []termEv
}

func newCollector(terms int) *collector {
	return &collector{slot: make([]int32, terms), defs: make([][]int, terms), looked: make([]bool, terms)}
}

func (c *collector) get(t int) *termEv {
	if c.slot[t] == 0 {
		c.ev.terms = append(c.ev.terms, termEv{term: int32(t)})
		c.slot[t] = int32(len(c.ev.terms))
	}
	return &c.ev.terms[c.slot[t]-1]
}

func (c *collector) done() *fileEv {
	for _, te := range c.ev.terms {
		c.slot[te.term] = 0
		c.defs[te.term], c.looked[te.term] = nil, false
	}
	if len(c.ev.terms) == 0 {
		return nil
	}
	c.terms, c.ev.terms = c.ev.terms[:0], slices.Clone(c.ev.terms)
	return c.ev
}

// fileScan is one file's evidence being gathered, match by match, from its
// bytes (scanFile) or from the tree index (replayFile): both hand every
// match to add in the order the matcher finds them, so both give the same
// evidence.
type fileScan struct {
	terms                 []censusTerm
	path                  string
	isMD, isKeyed, isCode bool
	c                     *collector
	ls                    []lineScore
}

func newFileScan(terms []censusTerm, p string, c *collector) *fileScan {
	ext := strings.ToLower(path.Ext(p))
	return &fileScan{terms: terms, path: p, c: c, ls: c.ls[:0],
		isMD:    ext == ".md" || ext == ".markdown" || ext == ".mdx",
		isKeyed: ext == ".json" || ext == ".yaml" || ext == ".yml" || ext == ".toml",
		isCode:  symbols.Lang(p) != ""}
}

// field is the field of a match of term t on line ln, which add is given
// next; the line's facts are asked only when the field depends on them.
func (fs *fileScan) field(t, ln int, heading, key, def func() bool) uint8 {
	switch {
	case containsInt(fs.defLines(t), ln):
		if fs.isMD {
			return fHeading
		} else if fs.isKeyed {
			return fKey
		}
		return fDef
	case fs.isMD && heading():
		return fHeading
	case fs.isKeyed && key():
		return fKey
	case fs.isCode && def():
		return fDefLine
	}
	return fBody
}

// defLines are term t's definition lines in the file. A term looked up
// here has an entry by the end of the file (add follows field), so
// collector.done resets it.
func (fs *fileScan) defLines(t int) []int {
	c := fs.c
	if !c.looked[t] {
		c.defs[t], c.looked[t] = fs.terms[t].locations[fs.path], true
	}
	return c.defs[t]
}

// add records one match of term t on line ln, col its first byte (0-based).
func (fs *fileScan) add(t, ln, col int, f uint8) {
	ct := &fs.terms[t]
	te := fs.c.get(t)
	switch f {
	case fDef:
		te.def++
	case fDefLine:
		te.defl++
	case fHeading:
		te.head++
	case fKey:
		te.key++
	default:
		te.body++
	}
	if int(te.npos) < keptPositions {
		te.pos[te.npos] = pos{int32(ln), int32(col + 1), f}
		te.npos++
	} else if f != fBody {
		// A stronger field replaces the last kept body position.
		for k := keptPositions - 1; k >= 0; k-- {
			if te.pos[k].field == fBody {
				te.pos[k] = pos{int32(ln), int32(col + 1), f}
				break
			}
		}
	}
	if ct.phrase == "" && !ct.neighbor {
		w := ct.idf
		switch f {
		case fDef:
			w *= 4
		case fDefLine, fHeading:
			w *= 2
		}
		if n := len(fs.ls); n > 0 && fs.ls[n-1].line == ln {
			if te.scored != int32(ln) {
				fs.ls[n-1].score += w
				fs.ls[n-1].seen |= ct.bit
			}
		} else {
			fs.ls = append(fs.ls, lineScore{line: ln, score: w, seen: ct.bit})
		}
		te.scored = int32(ln)
	}
}

// finish sets the counts of a file with evidence.
func (fs *fileScan) finish(bytes int64, lines func() int) {
	ev := fs.c.ev
	ev.bytes = bytes
	if len(ev.terms) > 0 {
		ev.lines = lines()
		if cap(fs.c.cands) < len(fs.ls) {
			fs.c.cands = make([]anchorCand, len(fs.ls))
		}
		ev.anchors, ev.window, ev.windowTerms = pickAnchors(fs.ls, fs.terms, fs.c.cands)
	}
	fs.c.ls = fs.ls[:0]
}

// scanFile finds every census term in one file's bytes.
func scanFile(m *match.Matcher, terms []censusTerm, p string, data []byte, c *collector) {
	fs := newFileScan(terms, p, c)
	var lines *match.Lines
	curLine, curStart, curEnd := 0, 0, -1
	m.Scan(data, func(t, s, e int) bool {
		if lines == nil {
			lines = match.NewLines(data)
		}
		if s >= curEnd || s < curStart {
			curLine, curStart, curEnd = lines.At(s)
		}
		line := data[curStart:curEnd]
		f := fs.field(t, curLine,
			func() bool { return fields.IsHeading(line) },
			func() bool { return fields.IsKeyAt(data, e) },
			func() bool { return fields.InDef(line, s-curStart) })
		fs.add(t, curLine, s-curStart, f)
		return true
	})
	fs.finish(int64(len(data)), func() int { return match.CountLines(data) })
}

// replayFile gathers one file's evidence from its entry in the tree index,
// as scanFile would from its bytes: the matches are words' (m's, from the
// dictionary) when set, or m's over the entry's own words, and the places
// of the terms of other bytes (index.Cands.Places).
func replayFile(m *match.Matcher, words *index.Words, phrase []int, terms []censusTerm, p string, fl *index.File, placed []index.Hit, c *collector, buf []index.Hit) ([]index.Hit, error) {
	fs := newFileScan(terms, p, c)
	var hits []index.Hit
	var err error
	if words != nil {
		hits, err = words.Hits(fl, phrase, buf[:0])
	} else {
		hits, err = fl.Hits(m, phrase, buf[:0])
	}
	if err != nil {
		return hits, err
	}
	all := hits
	if len(placed) > 0 {
		all = index.MergeHits(hits, placed)
	}
	for _, h := range all {
		ln, col := int(h.Line), int(h.Col)
		f := fs.field(h.Term, ln,
			func() bool { return fl.Heading(h.Line) },
			func() bool { return h.Key },
			func() bool { return fl.InDef(h.Line, h.Col) })
		fs.add(h.Term, ln, col, f)
	}
	fs.finish(fl.Bytes, func() int { return fl.Lines })
	return hits, nil
}

// pickAnchors chooses the lines hydration should center on: each line with
// hits is scored by its own evidence plus the IDF of every distinct term
// within anchorWindow lines of it (the window hydration will read), best
// first, spread apart. It also returns the best window's IDF and number
// of distinct terms. scratch holds the candidates when it is large enough.
func pickAnchors(ls []lineScore, terms []censusTerm, scratch []anchorCand) (anchors []int, window float64, windowTerms int) {
	var bitIDF [64]float64
	for _, t := range terms {
		if t.bit != 0 {
			bitIDF[bits.TrailingZeros64(t.bit)] = t.idf
		}
	}
	if cap(scratch) < len(ls) {
		scratch = make([]anchorCand, len(ls))
	}
	cs := scratch[:len(ls)]
	lo := 0
	for i, l := range ls {
		for ls[lo].line < l.line-anchorWindow {
			lo++
		}
		var mask uint64
		for j := lo; j < len(ls) && ls[j].line <= l.line+anchorWindow; j++ {
			mask |= ls[j].seen
		}
		sc := l.score
		w, n := 0.0, 0
		for b := 0; mask != 0; b++ {
			if mask&1 != 0 {
				sc += bitIDF[b]
				w += bitIDF[b]
				n++
			}
			mask >>= 1
		}
		if w > window {
			window, windowTerms = w, n
		}
		cs[i] = anchorCand{l.line, sc}
	}
	best := anchorHeap(cs)
	best.init()
	for len(best) > 0 && len(anchors) < anchorsKept {
		var c anchorCand
		c, best = best.pop()
		near := false
		for _, a := range anchors {
			if c.line-a < anchorSpread && a-c.line < anchorSpread {
				near = true
				break
			}
		}
		if !near {
			anchors = append(anchors, c.line)
		}
	}
	return anchors, window, windowTerms
}

// anchorCand is a line with its anchor score.
type anchorCand struct {
	line  int
	score float64
}

// better orders anchor candidates: the higher score, then the earlier line.
func (a anchorCand) better(b anchorCand) bool {
	c := cmp.Compare(a.score, b.score)
	return c > 0 || c == 0 && a.line < b.line
}

// anchorHeap hands out anchor candidates best first (anchorCand.better)
// without sorting them all: a file with hits on thousands of lines
// keeps five anchors, found among the first few dozen.
type anchorHeap []anchorCand

func (h anchorHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

// pop returns the best candidate and the heap without it.
func (h anchorHeap) pop() (anchorCand, anchorHeap) {
	top, n := h[0], len(h)-1
	h[0] = h[n]
	h = h[:n]
	h.down(0)
	return top, h
}

func (h anchorHeap) down(i int) {
	for {
		b, l := i, 2*i+1
		if l < len(h) && h[l].better(h[b]) {
			b = l
		}
		if r := l + 1; r < len(h) && h[r].better(h[b]) {
			b = r
		}
		if b == i {
			return
		}
		h[i], h[b] = h[b], h[i]
		i = b
	}
}

// assignBits gives each of the 64 rarest terms that score lines a bit of
// its own for the window masks of pickAnchors. A goal with more terms
// leaves the commoner ones out of the window bonus rather than letting two
// terms share a bit, which would credit a common term with a rare one's IDF.
func assignBits(terms []censusTerm) {
	var idx []int
	for i := range terms {
		terms[i].bit = 0
		if terms[i].phrase == "" && !terms[i].neighbor {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return terms[idx[a]].idf > terms[idx[b]].idf })
	for k, i := range idx[:min(len(idx), 64)] {
		terms[i].bit = uint64(1) << uint(k)
	}
}

func containsInt(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// pathTerms are the terms matched against paths (the file inventory's),
// sorted once per run into those pathEvidence looks at beyond the
// matcher's scan, so that a path costs what its own matches cost, not a
// look at every term.
type pathTerms struct {
	pm    *match.Matcher
	idx   []int // the matcher's term k is term idx[k]
	affix []int // plain words of four bytes or more (isWord)
	named []int // phrases and path-like terms (pathOnly), in idx's order
}

func newPathTerms(pm *match.Matcher, idx []int, terms []censusTerm) *pathTerms {
	pt := &pathTerms{pm: pm, idx: idx}
	for _, t := range idx {
		ct := &terms[t]
		if len(ct.text) >= 4 && isWord(ct.text) {
			pt.affix = append(pt.affix, t)
		}
		if strings.Contains(ct.text, " ") || ct.pathOnly {
			pt.named = append(pt.named, t)
		}
	}
	return pt
}

// pathEvidence matches the path terms against one path.
func pathEvidence(pt *pathTerms, terms []censusTerm, p string, get func(t int) *termEv) {
	base := path.Base(p)
	stem := strings.TrimSuffix(base, path.Ext(base))
	dirEnd := len(p) - len(base)
	fp, fb, fs := match.Fold(p), match.Fold(base), match.Fold(stem)
	pt.pm.Scan([]byte(p), func(k, s, e int) bool {
		t := pt.idx[k]
		ct := &terms[t]
		te := get(t)
		switch {
		case s >= dirEnd && (ct.text == fb || ct.text == fs):
			te.fileExact = true
		case s >= dirEnd:
			te.filePart = true
		default:
			te.dir = true
		}
		if int(te.npos) < keptPositions {
			te.pos[te.npos] = pos{0, int32(s + 1), fPath}
			te.npos++
		}
		return true
	})
	// A plain word that begins or ends a compound file name without a
	// separator ("factor" in factortools.py, "tools" in polytools.py) is a
	// word of that name too.
	for _, t := range pt.affix {
		ct := &terms[t]
		if len(fs) <= len(ct.text) {
			continue
		}
		if strings.HasPrefix(fs, ct.text) || strings.HasSuffix(fs, ct.text) {
			te := get(t)
			if !te.fileExact {
				te.filePart = true
			}
		}
	}
	// Path terms ("requests/models.py", "cobra.go") match whole paths or
	// suffixes; phrases ("gh pr view") match runs of path components
	// ("pkg/cmd/pr/view/view.go").
	var comps []string
	for _, t := range pt.named {
		ct := &terms[t]
		if strings.Contains(ct.text, " ") {
			if comps == nil {
				comps = strings.Split(strings.TrimSuffix(fp, path.Ext(fp)), "/")
			}
			if atEnd, ok := phraseInPath(ct.text, comps); ok {
				te := get(t)
				if atEnd {
					te.fileExact = true
				} else {
					te.dir = true
				}
			}
			continue
		}
		if fp == ct.text || strings.HasSuffix(fp, "/"+strings.TrimPrefix(ct.text, "/")) || fb == ct.text {
			te := get(t)
			te.fileExact = true
		}
	}
}

// phraseInPath reports whether two or more consecutive words of a phrase are
// consecutive components of a path (given without its extension), and
// whether the run reaches the file's own directory or name.
func phraseInPath(phrase string, comps []string) (atEnd, ok bool) {
	words := strings.Fields(phrase)
	if len(words) < 2 {
		return false, false
	}
	for i := 0; i+1 < len(words); i++ {
		for j := 0; j+1 < len(comps); j++ {
			if comps[j] != words[i] || comps[j+1] != words[i+1] {
				continue
			}
			end := j + 1
			for k := 2; i+k < len(words) && j+k < len(comps) && comps[j+k] == words[i+k]; k++ {
				end = j + k
			}
			if end >= len(comps)-2 {
				return true, true
			}
			ok = true
		}
	}
	return false, ok
}

// isWord reports whether s is a plain lowercase word.
func isWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}
