package index

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/rtch/rtch/pkg/match"
)

// The dictionary section holds the distinct words of every entry of the
// index (words of files with facts; skip verdicts, unindexable and racy
// entries have none), so that a query runs its matcher once over the
// tree's vocabulary instead of once per file, and then visits only the
// entries that hold a matching word. Layout: the number of words and the
// length of their text (uint32 little-endian each); the text, each word
// followed by '\n' exactly as in an entry's word text (so the matcher
// finds in it what it finds in each entry's words); per word the end of
// its posting list (uint32, relative to the lists); the lists: per entry
// holding the word, in table order, the row's delta from the previous one
// and the word's number in that entry's own word list (uvarints).
type dictionary struct {
	n     int
	text  []byte
	ends  []byte
	lists []byte

	foldOnce sync.Once
	folded   []byte // text case-folded, made once and shared by every view

	// the lines of each run last asked of runLines, by run and roles
	// (runSearch), and the entries' words of each run the last
	// Candidates asked: a server's call asks mostly the same runs in its
	// scout and its probe
	lastMu    sync.Mutex
	lastLines map[string][]lineAt
	lastWords map[runKey]rowWords
}

// foldedText is the dictionary's text case-folded; a server's calls share
// the dictionary, so they fold it once.
func (d *dictionary) foldedText() []byte {
	d.foldOnce.Do(func() { d.folded = foldWords(nil, d.text) })
	return d.folded
}

// A dictionary is of one word text of the entries: their words
// (wordText) or their names (namesText).
type textOf func(f *File) []byte

func wordText(f *File) []byte  { return f.Text }
func namesText(f *File) []byte { return f.Names }
func sepsText(f *File) []byte  { return f.Seps }

// newDictionary is the builder of the dictionary of the entries about to
// be written, of their text of: rows, for each new row its row in the old
// table (-1 for a new entry), and fresh the number of new rows. The old
// dictionary brought up to date when there is one and few rows are new
// (updating costs a pass over the old lists plus the new rows' words, which
// it holds in memory); otherwise one built from every entry.
func (ix *Index) newDictionary(old *dictionary, oldRows []int, fresh int, of textOf) dictBuilder {
	if old != nil && fresh*8 <= len(oldRows) && slices.ContainsFunc(oldRows, func(r int) bool { return r >= 0 }) {
		return &updateBuilder{ix: ix, old: old, oldRows: oldRows, of: of, fw: &freshWords{ids: map[string]int32{}}}
	}
	return newFullBuilder(ix.scratch, of)
}

// posting is one (row, word number) of a posting list.
type posting struct{ row, k int32 }

// hasWords reports whether a row's entry is facts with words to index
// (skip verdicts, unindexable and racy entries have none).
func hasWords(e *entry) bool { return !e.skip && !e.unindex && !e.racy }

// updateBuilder is the old dictionary with the rows renumbered, the lists
// of rows no longer copied dropped, the new rows' words added and the
// words left in no entry removed: a pass over the old lists instead of
// hashing every word of every entry again.
type updateBuilder struct {
	ix      *Index
	old     *dictionary
	oldRows []int
	of      textOf
	fw      *freshWords
}

func (u *updateBuilder) wants(oldRow int) bool { return oldRow < 0 }

func (u *updateBuilder) row(row int32, fl *File) { u.fw.add(row, u.of(fl)) }

func (u *updateBuilder) close() {}

func (u *updateBuilder) write(w *countWriter) (uint32, error) {
	d := u.old
	newRow := make([]int32, len(u.ix.table))
	for i := range newRow {
		newRow[i] = -1
	}
	for row, old := range u.oldRows {
		if old >= 0 && old < len(newRow) {
			newRow[old] = int32(row)
		}
	}
	fw := u.fw
	fw.group()
	// The old ids of the new rows' words.
	oldOf := make([]int32, len(fw.words))
	for i := range oldOf {
		oldOf[i] = -1
	}
	type oldFresh struct{ old, f int32 }
	var byOld []oldFresh // the new rows' words the old dictionary has, by old id
	id := int32(0)
	eachWord(d.text, func(w []byte) {
		if f, ok := fw.ids[unsafe.String(unsafe.SliceData(w), len(w))]; ok {
			oldOf[f] = id
			byOld = append(byOld, oldFresh{id, f})
		}
		id++
	})
	dw := &dictWriter{lists: newTape(u.ix.scratch)}
	defer dw.lists.Close()
	dw.text = make([]byte, 0, len(d.text)+len(fw.words)*8)
	dw.ends = make([]byte, 0, len(d.ends)+4*len(fw.words))
	var kept, merged []posting
	id = 0
	eachWord(d.text, func(w []byte) {
		list := d.list(int(id))
		kept = kept[:0]
		same := true // every row kept, under its old number
		eachPosting(list, func(row, k int) {
			if row < len(newRow) && newRow[row] >= 0 {
				kept = append(kept, posting{newRow[row], int32(k)})
				same = same && int(newRow[row]) == row
			} else {
				same = false
			}
		})
		fresh := len(byOld) > 0 && byOld[0].old == id
		switch {
		case fresh:
			merged = mergeRows(merged[:0], kept, fw.of(byOld[0].f))
			byOld = byOld[1:]
			dw.add(w, merged)
		case same && len(list) > 0:
			dw.addList(w, list)
		case len(kept) > 0:
			dw.add(w, kept)
		}
		id++
	})
	for f, w := range fw.words {
		if oldOf[f] < 0 {
			dw.add(w, fw.of(int32(f)))
		}
	}
	return dw.write(w)
}

// freshWords are the words of the new rows of a write, each with its
// postings.
type freshWords struct {
	ids   map[string]int32
	words [][]byte
	all   []freshPosting
	posts []posting // grouped by word, rows ascending
	start []int32   // word f's postings are posts[start[f]:start[f+1]]
}

type freshPosting struct {
	f int32
	p posting
}

// add adds the words of a new row (text, whose bytes are the caller's).
func (rw *freshWords) add(row int32, text []byte) {
	k := int32(0)
	eachWord(text, func(w []byte) {
		f, ok := rw.ids[string(w)]
		if !ok {
			w = append([]byte(nil), w...)
			f = int32(len(rw.words))
			rw.ids[string(w)] = f
			rw.words = append(rw.words, w)
		}
		rw.all = append(rw.all, freshPosting{f, posting{row, k}})
		k++
	})
}

// group sorts the postings by word, rows ascending within one.
func (rw *freshWords) group() {
	slices.SortStableFunc(rw.all, func(a, b freshPosting) int { return int(a.f - b.f) })
	rw.start = make([]int32, len(rw.words)+1)
	for _, x := range rw.all {
		rw.posts = append(rw.posts, x.p)
		rw.start[x.f+1]++
	}
	for i := 1; i < len(rw.start); i++ {
		rw.start[i] += rw.start[i-1]
	}
	rw.all = nil
}

func (rw *freshWords) of(f int32) []posting { return rw.posts[rw.start[f]:rw.start[f+1]] }

// mergeRows appends a and b, each sorted by row (no row in both), to out
// in row order.
func mergeRows(out, a, b []posting) []posting {
	for len(a) > 0 && len(b) > 0 {
		if a[0].row < b[0].row {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}

// dictWriter lays out a dictionary word by word: the text and the lists'
// ends in memory, the lists on a tape.
type dictWriter struct {
	n          int
	text, ends []byte
	lists      *tape
	buf        []byte
}

// add appends a word and its postings (rows ascending).
func (w *dictWriter) add(word []byte, posts []posting) {
	b := w.buf[:0]
	prev := int32(0)
	for _, p := range posts {
		b = binary.AppendUvarint(b, uint64(p.row-prev))
		b = binary.AppendUvarint(b, uint64(p.k))
		prev = p.row
	}
	w.buf = b
	w.addList(word, b)
}

// addList appends a word and its encoded posting list as it is.
func (w *dictWriter) addList(word, list []byte) {
	w.text = append(append(w.text, word...), '\n')
	w.lists.Write(list)
	w.ends = binary.LittleEndian.AppendUint32(w.ends, uint32(w.lists.Len()))
	w.n++
}

// write writes the section: its head, the text, the ends, then the lists
// from the tape.
func (w *dictWriter) write(c *countWriter) (uint32, error) {
	if w.lists.err != nil {
		return 0, w.lists.err
	}
	if w.lists.Len() > math.MaxUint32 {
		return 0, errDictTooLarge
	}
	head := binary.LittleEndian.AppendUint32(nil, uint32(w.n))
	head = binary.LittleEndian.AppendUint32(head, uint32(len(w.text)))
	crc := c.part(0, head)
	crc = c.part(crc, w.text)
	crc = c.part(crc, w.ends)
	buf := make([]byte, 1<<20)
	r := w.lists.reader()
	for {
		n, err := io.ReadFull(r, buf)
		crc = c.part(crc, buf[:n])
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return crc, c.err
		}
		if err != nil {
			return 0, err
		}
	}
}

// eachWord calls fn for every word of a word text.
func eachWord(text []byte, fn func(w []byte)) {
	for len(text) > 0 {
		i := bytes.IndexByte(text, '\n')
		if i < 0 {
			fn(text)
			return
		}
		fn(text[:i])
		text = text[i+1:]
	}
}

// dictSection is one dictionary section of a mapping, decoded and checked
// by its first use; a Keeper's views share it.
type dictSection struct {
	what string // the section, as a warning names it
	b    []byte
	crc  uint32
	once sync.Once
	d    *dictionary
}

// section is s decoded, checked on first use; nil when the index has none
// or it is damaged (then the index is rebuilt, with a warning).
func (ix *Index) section(s *dictSection) *dictionary {
	if s == nil {
		return nil
	}
	s.once.Do(func() {
		if !ix.fresh || len(ix.table) == 0 {
			return
		}
		d, ok := parseDictionary(s.b)
		if !ok || crc32.Checksum(s.b, castagnoli) != s.crc {
			ix.damaged(s.what)
			return
		}
		s.d = d
		ix.dropSection(s.b)
	})
	return s.d
}

// dropSection hands back the pages of a section of the mapping that its
// check has read whole: a query reads a few posting lists, and the lists
// grow with the tree (docs/decisions/index.md, "In the server").
func (ix *Index) dropSection(b []byte) {
	at := len(ix.data) - cap(b)
	if at < 0 || at > len(ix.data) || len(b) == 0 {
		return
	}
	start := at &^ (os.Getpagesize() - 1) // a mapping starts at a page
	dropPages(ix.data[start : at+len(b)])
}

// dict is the dictionary of the entries' words.
func (ix *Index) dict() *dictionary { return ix.section(ix.words) }

// nameDict is the dictionary of the entries' names (Facts.Names).
func (ix *Index) nameDict() *dictionary { return ix.section(ix.names) }

// sepDict is the dictionary of the entries' separator runs (File.Seps).
func (ix *Index) sepDict() *dictionary { return ix.section(ix.seps) }

func parseDictionary(b []byte) (*dictionary, bool) {
	if len(b) < 8 {
		return nil, false
	}
	n, tl := int(binary.LittleEndian.Uint32(b)), int(binary.LittleEndian.Uint32(b[4:]))
	b = b[8:]
	if tl > len(b) || 4*n > len(b)-tl {
		return nil, false
	}
	d := &dictionary{n: n, text: b[:tl], ends: b[tl : tl+4*n], lists: b[tl+4*n:]}
	if n > 0 && int(binary.LittleEndian.Uint32(d.ends[4*n-4:])) != len(d.lists) {
		return nil, false
	}
	return d, true
}

// list is the posting list of word id.
func (d *dictionary) list(id int) []byte { return listAt(d.ends, d.lists, id) }

// listAt is list k of lists, whose ends (uint32 little-endian each) are in
// ends; nil when they are out of order.
func listAt(ends, lists []byte, k int) []byte {
	lo := 0
	if k > 0 {
		lo = int(binary.LittleEndian.Uint32(ends[4*k-4:]))
	}
	hi := int(binary.LittleEndian.Uint32(ends[4*k:]))
	if lo > hi || hi > len(lists) {
		return nil
	}
	return lists[lo:hi]
}

// eachPosting calls fn with every (row, word number) of a posting list.
func eachPosting(list []byte, fn func(row, k int)) {
	d := decoder{b: list}
	row := 0
	for len(d.b) > 0 && d.err == nil {
		row += int(d.uv())
		k := int(d.uv())
		if d.err == nil {
			fn(row, k)
		}
	}
}

// Words are the matches of one matcher in the dictionary, by entry: what
// File.Hits and File.Terms would find by running the matcher over each
// entry's own words.
type Words struct {
	pats []string
	// groups are the matched words: the matches (offsets in the word)
	// and the word's length.
	groups []wordGroup
	// refs are the (row, word number, group) of every entry word that
	// matched, grouped by row (byRow); first[row] is the row's first ref
	// (len(table)+1 entries).
	refs  []wordRef
	first []int32
}

type wordGroup struct {
	ms   []wordMatch
	wlen int
}

type wordRef struct{ row, k, group int32 }

// Words runs m over the dictionary once. It returns nil when the index
// has no usable dictionary: callers then ask each File (Hits, Terms).
// m's terms must have no spelling variants, as for File.Hits.
func (ix *Index) Words(m *match.Matcher) *Words {
	d := ix.dict()
	if d == nil {
		return nil
	}
	w := &Words{pats: m.Terms()}
	var refs []wordRef
	matchWords(m, d.text, func(id int, ms []wordMatch, wlen int) {
		gi := int32(len(w.groups))
		w.groups = append(w.groups, wordGroup{ms: ms, wlen: wlen})
		eachPosting(d.list(id), func(row, k int) {
			refs = append(refs, wordRef{int32(row), int32(k), gi})
		})
	})
	w.refs, w.first = byRow(refs, len(ix.table), func(r *wordRef) int32 { return r.row })
	return w
}

// byRow groups items by their row, a counting sort that keeps the order of
// the items of one row: row r's are out[first[r]:first[r+1]]. Items of a
// row outside the table are left out.
func byRow[T any](items []T, rows int, rowOf func(*T) int32) (out []T, first []int32) {
	first = make([]int32, rows+1)
	for i := range items {
		if r := rowOf(&items[i]); r >= 0 && int(r) < rows {
			first[r+1]++
		}
	}
	for r := 1; r <= rows; r++ {
		first[r] += first[r-1]
	}
	out = make([]T, first[rows])
	next := append([]int32(nil), first[:rows]...)
	for i := range items {
		if r := rowOf(&items[i]); r >= 0 && int(r) < rows {
			out[next[r]] = items[i]
			next[r]++
		}
	}
	return out, first
}

// of is the refs of one row.
func (w *Words) of(row int) []wordRef {
	if row < 0 || row+1 >= len(w.first) {
		return nil
	}
	return w.refs[w.first[row]:w.first[row+1]]
}

// Has reports whether the entry in row holds a word the matcher matches.
func (w *Words) Has(row int) bool { return len(w.of(row)) > 0 }

// Terms marks in seen every term the matcher finds in f's words, as
// f.Terms does.
func (w *Words) Terms(f *File, seen []bool) { w.TermsOf(f.entry, seen) }

// TermsOf is Terms for the entry in a table row, without decoding it.
func (w *Words) TermsOf(row int, seen []bool) {
	for _, r := range w.of(row) {
		for _, m := range w.groups[r.group].ms {
			seen[m.t] = true
		}
	}
}

// Hits is f.Hits for the words' matcher, from the dictionary's matches.
func (w *Words) Hits(f *File, phrase []int, buf []Hit) ([]Hit, error) {
	out := buf
	runs := hitRunsPool.Get().(*hitRuns)
	defer hitRunsPool.Put(runs)
	runs.starts = runs.starts[:0]
	for _, r := range w.of(f.entry) {
		if int(r.k) >= f.nword {
			return out, errShort
		}
		g := &w.groups[r.group]
		runs.occs = DecodeOccs(f.List(int(r.k)), runs.occs[:0])
		runs.starts = append(runs.starts, len(out)-len(buf))
		out = appendWordHits(out, w.pats, g.ms, g.wlen, runs.occs)
	}
	return f.finishHits(out, len(buf), phrase, runs), nil
}

// appendWordHits appends the hits of one word's matches (offsets in the
// word, which is wlen bytes long) at each of its occurrences.
func appendWordHits(out []Hit, pats []string, ms []wordMatch, wlen int, occs []Occ) []Hit {
	for _, o := range occs {
		for _, m := range ms {
			out = append(out, Hit{Term: m.t, Line: o.Line, Col: o.Col + int32(m.s),
				Key: o.Key && m.e == wlen, word: o.Col, end: int32(m.s + len(pats[m.t]))})
		}
	}
	return out
}

// Cands are what the dictionary says of the patterns of terms the words do
// not answer for (Pattern): which entries may hold one (every run of a
// pattern has a word that can hold it), and, for those, the words, so that
// Holds places them without folding the entry's words.
type Cands struct {
	pats []Pattern
	keys *sepKeys
	may  []bool
	// runs[p][i] are the words of every entry that can hold run i of
	// pattern p, grouped by row.
	runs [][]rowWords
}

// rowWords are words grouped by row (byRow).
type rowWords struct {
	ws    []runWord
	first []int32
}

// of is the words of one row.
func (g rowWords) of(row int) []runWord {
	if row < 0 || row+1 >= len(g.first) {
		return nil
	}
	return g.ws[g.first[row]:g.first[row+1]]
}

type runWord struct {
	row, k, n int32 // n: the word's length
}

// Candidates finds the entries that may hold one of the patterns. It
// returns nil when the index has no usable dictionary: ask every File
// (MayHold) instead.
func (ix *Index) Candidates(pats []Pattern) *Cands {
	d := ix.dict()
	if d == nil {
		return nil
	}
	c := &Cands{pats: pats, keys: newSepKeys(pats), may: make([]bool, len(ix.table)), runs: make([][]rowWords, len(pats))}
	if len(pats) == 0 {
		return c
	}
	found := d.runLines(pats)
	seen := map[runKey]rowWords{}
	var scratch []runWord // runWords', before byRow copies them
	d.lastMu.Lock()
	asked := d.lastWords
	d.lastMu.Unlock()
	for pi, p := range pats {
		if p.sep != "" {
			ix.sepRows(p.sep, c.may)
			continue
		}
		if p.any {
			for i := range c.may {
				c.may[i] = true
			}
			continue
		}
		c.runs[pi] = make([]rowWords, len(p.runs))
		for i := range p.runs {
			k := p.runKey(i)
			g, ok := seen[k]
			if !ok {
				if g, ok = asked[k]; !ok {
					g = runWords(d, p, i, found[p.runs[i]], len(ix.table), &scratch)
				}
				seen[k] = g
			}
			c.runs[pi][i] = g
		}
		for row := range c.may {
			c.may[row] = c.may[row] || slices.IndexFunc(c.runs[pi], func(g rowWords) bool { return len(g.of(row)) == 0 }) < 0
		}
	}
	d.lastMu.Lock()
	d.lastWords = seen
	d.lastMu.Unlock()
	return c
}

// runLines is, by run, the words of the dictionary's folded text that
// hold each run of the patterns where one of the patterns needs it (a
// whole word, a word's start or end: Pattern.role), found in one pass for
// the runs the last call did not ask with the same roles (the others are
// answered again without a pass).
func (d *dictionary) runLines(pats []Pattern) map[string][]lineAt {
	var runs []string
	roles := map[string][]runRole{}
	for _, p := range pats {
		for i, r := range p.runs {
			role := runRole{p.starts[i], p.ends[i]}
			if _, ok := roles[r]; !ok {
				runs = append(runs, r)
			}
			if !slices.Contains(roles[r], role) {
				roles[r] = append(roles[r], role)
			}
		}
	}
	found := map[string][]lineAt{}
	if len(runs) == 0 {
		return found
	}
	d.lastMu.Lock()
	defer d.lastMu.Unlock()
	asked := make(map[string][]lineAt, len(runs))
	var missing []string
	for _, r := range runs {
		k := runSearch(r, roles[r])
		if ls, ok := d.lastLines[k]; ok {
			found[r], asked[k] = ls, ls
		} else {
			missing = append(missing, r)
		}
	}
	missingRoles := make([][]runRole, len(missing))
	for k, r := range missing {
		missingRoles[k] = roles[r]
	}
	keep := func(k int, w []byte) bool {
		for _, role := range missingRoles[k] {
			if role.holds(missing[k], w) {
				return true
			}
		}
		return false
	}
	for i, ls := range findRuns(missing, keep, d.foldedText()) {
		found[missing[i]] = ls
		asked[runSearch(missing[i], roles[missing[i]])] = ls
	}
	d.lastLines = asked
	return found
}

// runSearch is what a run's lines depend on: the run and the roles the
// patterns need it in. No run holds a line break.
func runSearch(run string, roles []runRole) string {
	var b strings.Builder
	b.WriteString(run)
	for _, role := range roles {
		fmt.Fprintf(&b, "\n%v %v", role.starts, role.ends)
	}
	return b.String()
}

// runKey is what the words that can hold a pattern's run depend on: the
// run, whether it must start or end its word (Pattern.role), and whether
// the term starts or ends in it (Pattern.wordOK). Runs are shared by many
// terms of one goal (http of http.Server and http.Request).
type runKey struct {
	run                      string
	starts, ends, first, end bool
}

func (p Pattern) runKey(i int) runKey {
	return runKey{p.runs[i], p.starts[i], p.ends[i], i == 0, i == len(p.runs)-1}
}

// runWords are the entries' words that can hold run i of p, by row, of
// lines, the dictionary's words that hold the run (and that the matcher's
// boundary rules let the term start or end in, on the dictionary's own
// spelling: roleWords); scratch holds the words until byRow copies them
// by row.
func runWords(d *dictionary, p Pattern, i int, lines []lineAt, rows int, scratch *[]runWord) rowWords {
	ws := (*scratch)[:0]
	for _, w := range p.roleWords(i, lines, d.foldedText(), d.text) {
		eachPosting(d.list(w.k), func(row, k int) {
			ws = append(ws, runWord{int32(row), int32(k), w.n})
		})
	}
	*scratch = ws
	var g rowWords
	g.ws, g.first = byRow(ws, rows, func(w *runWord) int32 { return w.row })
	return g
}

// May reports whether the entry in row may hold one of the patterns' terms.
func (c *Cands) May(row int) bool { return row >= 0 && row < len(c.may) && c.may[row] }

// Holds is f.MayHold for the patterns, from the dictionary's words.
func (c *Cands) Holds(f *File) bool {
	return slices.ContainsFunc(c.Held(f, nil), func(h Held) bool { return h != HeldNo })
}

// Held appends to buf what f tells of each pattern's term (Held), from
// the dictionary's words. A pattern one of whose runs no word of f can
// hold is not held, without a look at f's places; the numbers of f's
// separator runs are found once for all the patterns.
func (c *Cands) Held(f *File, buf []Held) []Held {
	var seps *sepRuns
	for pi := range c.pats {
		var h Held
		h, seps = c.heldOne(f, pi, seps)
		buf = append(buf, h)
	}
	return buf
}

// foldWords is text with ASCII upper case folded, in buf's array when it
// is large enough. It folds eight bytes at a time (a dictionary's text is
// megabytes, folded by every scout and probe that asks it for a pattern).
func foldWords(buf, text []byte) []byte {
	if cap(buf) < len(text) {
		buf = make([]byte, len(text))
	}
	buf = buf[:len(text)]
	i := 0
	for ; i+8 <= len(text); i += 8 {
		binary.LittleEndian.PutUint64(buf[i:], foldASCII8(binary.LittleEndian.Uint64(text[i:])))
	}
	for ; i < len(text); i++ {
		c := text[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	return buf
}

// foldASCII8 folds the ASCII upper-case letters among w's eight bytes.
// A byte's low seven bits plus 0x80-'A' carry into its top bit when they
// are at least 'A', plus 0x80-'Z'-1 when they are above 'Z' (no carry
// crosses bytes: each sum stays under 0x100); a byte is a letter when the
// first sets its top bit, the second does not and its own top bit is
// clear, and then 0x20 is added.
func foldASCII8(w uint64) uint64 {
	const ones, tops = 0x0101010101010101, 0x8080808080808080
	low := w &^ tops
	atLeastA := low + (0x80-'A')*ones
	aboveZ := low + (0x80-'Z'-1)*ones
	upper := atLeastA &^ aboveZ &^ w & tops
	return w | upper>>2
}

// wordsFor is the words of a folded word text that can hold run i and
// that the matcher's rules let the term start or end in (wordOK, asked of
// text, the same words in their own case), in order: their numbers and
// lengths.
func (p Pattern) wordsFor(i int, fold, text []byte) []wordAt {
	var lines []lineAt
	linesWith(fold, []byte(p.runs[i]), func(id, at int, w []byte) {
		lines = append(lines, lineAt{id, at, int32(len(w))})
	})
	return p.roleWords(i, lines, fold, text)
}

// roleWords is wordsFor of lines, the words of fold that hold run i and
// in which the term may start (end) when i is its first (last) run: a
// word the matcher's rules do not let the term start or end in (wordOK:
// "n" of `}\n` in "nil") is no place of it, and a run that ends the term,
// such as that "n", is held by a large part of the dictionary's words.
func (p Pattern) roleWords(i int, lines []lineAt, fold, text []byte) []wordAt {
	var out []wordAt
	for _, l := range lines {
		if w := fold[l.at : l.at+int(l.n)]; p.role(i, w) && p.wordOK(i, text[l.at:l.at+int(l.n)]) {
			out = append(out, wordAt{l.id, l.n})
		}
	}
	return out
}

// linesWith calls fn, in order, with the number and bytes of every line of
// text ('\n'-separated) that holds r. It looks at each line once, whatever
// r: after a match it goes on after the line holding it (a run of one byte
// matches a long word many times).
func linesWith(text, r []byte, fn func(id, at int, line []byte)) {
	id, at := 0, 0 // line id starts at text[at]
	for at < len(text) {
		j := bytes.Index(text[at:], r)
		if j < 0 {
			return
		}
		pos := at + j
		if nl := bytes.LastIndexByte(text[at:pos], '\n'); nl >= 0 {
			id += bytes.Count(text[at:at+nl+1], []byte{'\n'})
			at += nl + 1
		}
		we := pos + bytes.IndexByte(text[pos:], '\n')
		if we < pos {
			we = len(text)
		}
		fn(id, at, text[at:we])
		id, at = id+1, we+1
	}
}

// sepRows marks in rows (by table row) the entries one of whose separator
// runs holds sep; all of them when the index has no usable separators
// dictionary.
func (ix *Index) sepRows(sep string, rows []bool) {
	d := ix.sepDict()
	if d == nil {
		for i := range rows {
			rows[i] = true
		}
		return
	}
	linesWith(d.text, []byte(sep), func(id, _ int, _ []byte) {
		eachPosting(d.list(id), func(row, _ int) {
			if row < len(rows) {
				rows[row] = true
			}
		})
	})
}

// NamesWith reports, by table row, whether one of the entry's names
// (Facts.Names, folded) holds one of parts, folded, anywhere in it; nil
// when the index has no usable names dictionary.
func (ix *Index) NamesWith(parts []string) []bool {
	d := ix.nameDict()
	if d == nil {
		return nil
	}
	with := make([]bool, len(ix.table))
	id := 0
	eachWord(d.text, func(w []byte) {
		for _, p := range parts {
			if strings.Contains(string(w), p) {
				eachPosting(d.list(id), func(row, _ int) {
					if row < len(with) {
						with[row] = true
					}
				})
				break
			}
		}
		id++
	})
	return with
}

// NamesHeld reports, by table row, whether the entry's names (Facts.Names)
// hold one of names; nil when the index has no usable names dictionary.
// It looks at each name of the dictionary once, whatever the number of
// names asked (a long issue text has a hundred terms).
func (ix *Index) NamesHeld(names []string) []bool {
	d := ix.nameDict()
	if d == nil {
		return nil
	}
	want := make(map[string]bool, len(names))
	for _, n := range names {
		want[n] = true
	}
	held := make([]bool, len(ix.table))
	id := 0
	eachWord(d.text, func(w []byte) {
		if want[string(w)] {
			eachPosting(d.list(id), func(row, _ int) {
				if row < len(held) {
					held[row] = true
				}
			})
		}
		id++
	})
	return held
}
