package index

import (
	"encoding/binary"
	"path"
	"strings"
	"sync"
	"unsafe"

	"github.com/rtch/rtch/pkg/fields"
	"github.com/rtch/rtch/pkg/match"
	"github.com/rtch/rtch/pkg/secret"
	"github.com/rtch/rtch/pkg/symbols"
)

// Facts are what the index keeps of one file's bytes: everything a warm
// scout or probe needs to answer for the file as a cold one would, and no
// term. Words are the maximal runs of the matcher's word bytes (ASCII
// letters and digits, and every byte from 0x80: pkg/match's isAlnum);
// because every other byte bounds a word, a term of word bytes alone
// matches inside a word exactly as it matches inside the file, so running
// the matcher over the words gives the file's matches (File.Hits). Terms
// with other bytes are the caller's fixed phrases, whose matches are kept
// whole (Phrases), or are found by reading the file.
type Facts struct {
	Summary

	data  []byte
	words [][2]int32 // distinct words (offset, length in data), in order of first occurrence
	occs  []occRec   // every occurrence, in file order
	// seps are the distinct separator runs (Occ.Sep), in order of first
	// occurrence.
	seps [][2]int32
	t    *wordTable // the scratch words and occs live in, until Release
	st   *wordTable // the scratch the runs are numbered in
}

type occRec struct {
	word int32
	o    Occ
}

// Summary is what the index keeps of a file besides its words: the same
// fields in the facts a build extracts (Facts) and in the entry a warm run
// decodes (File).
type Summary struct {
	// Bytes is the file's length; Lines its line count (match.CountLines).
	Bytes int64
	Lines int
	// Heads are the lines that are ATX headings (fields.IsHeading), kept
	// for markdown files.
	Heads []int32
	// Defs are the definition lines of code files with the columns of
	// their name part (fields.DefSpan).
	Defs []Def
	// Phrases are the matches of the phrases Extract was given.
	Phrases []Hit
	// Shape is the scout's own record of the file (pkg/scout encodes it).
	Shape []byte
	// Names are the names the scout's shape holds (its symbols', headings'
	// and keys', as the scout compares them with terms), in its order;
	// NamesHeld finds the entries holding a name. A name holding a line
	// break cannot be stored (Put makes the file unindexable).
	Names []string
	// Tally is a few bytes of the scout's kept in the table row, read
	// without decoding the entry (Stat).
	Tally []byte
}

// Def is one definition line: Line (1-based) and the name part's columns
// [Start, End) (0-based).
type Def struct {
	Line, Start, End int32
}

// Occ is one occurrence of a word: its line (1-based), the column of its
// first byte (0-based), whether a key's ':' or '=' follows it (kept for
// JSON, YAML and TOML files, fields.IsKeyAt) and the separator run that
// follows it: 1 + its number among the file's runs (File.Seps), 0 when the
// word ends its line. A separator run is a maximal run of bytes that are
// neither word bytes nor line breaks: between two words of a line it is
// every byte that separates them, so a term's separators can be checked
// without the file (Pattern).
type Occ struct {
	Line, Col int32
	Key       bool
	Sep       int32
}

// secretShaped is the length from which a word made of both letters and
// digits is shown to the redactor before its file is indexed.
const secretShaped = 16

// Extract reads the facts of the file at p (its '/'-separated path) from
// its bytes; phrases, when set, is a matcher of the caller's fixed phrases
// whose matches are kept. ok is false when the file must not be indexed:
// it opens with a byte-order mark (the scout and the probe see its first
// line differently), or one of its long words is a secret to the redactor
// (the index never holds what pkg/secret would mask). The facts refer to
// data until Encode.
func Extract(p string, data []byte, phrases *match.Matcher) (f *Facts, ok bool) {
	if len(data) >= 3 && data[0] == 0xef && data[1] == 0xbb && data[2] == 0xbf {
		return nil, false
	}
	ext := strings.ToLower(path.Ext(p))
	isMD := ext == ".md" || ext == ".markdown" || ext == ".mdx"
	isKeyed := ext == ".json" || ext == ".yaml" || ext == ".yml" || ext == ".toml"
	isCode := symbols.Lang(p) != ""
	t, st := tables.Get().(*wordTable), tables.Get().(*wordTable)
	t.reset(len(data))
	st.reset(len(data) / 4)
	f = &Facts{Summary: Summary{Bytes: int64(len(data))}, data: data, t: t, st: st, words: t.words[:0], occs: t.occs[:0], seps: st.words[:0]}
	var one [256]int32 // the run id + 1 of each one-byte run, the most of them
	wordEnd := -1      // where the last word ended
	line, ls := 1, 0
	endLine := func(le int) {
		l := data[ls:le]
		if isMD && fields.IsHeading(l) {
			f.Heads = append(f.Heads, int32(line))
		}
		if isCode && mayDef(l) {
			if s, e, ok := fields.DefSpan(l); ok {
				f.Defs = append(f.Defs, Def{int32(line), int32(s), int32(e)})
			}
		}
	}
	for i := 0; i < len(data); {
		c := data[i]
		switch {
		case c == '\n' || c == '\r':
			endLine(i)
			if c == '\r' && i+1 < len(data) && data[i+1] == '\n' {
				i++
			}
			i++
			line++
			ls = i
		case wordByte(c):
			j := i + 1
			for j < len(data) && wordByte(data[j]) {
				j++
			}
			id := t.id(data, i, j, &f.words)
			f.occs = append(f.occs, occRec{id, Occ{Line: int32(line), Col: int32(i - ls), Key: isKeyed && fields.IsKeyAt(data, j)}})
			i, wordEnd = j, j
		default:
			j := i + 1
			for j < len(data) && !wordByte(data[j]) && data[j] != '\n' && data[j] != '\r' {
				j++
			}
			var id int32
			if j == i+1 && one[c] != 0 {
				id = one[c] - 1
			} else if id = st.id(data, i, j, &f.seps); j == i+1 {
				one[c] = id + 1
			}
			if wordEnd == i {
				f.occs[len(f.occs)-1].o.Sep = id + 1
			}
			i = j
		}
	}
	if ls < len(data) {
		endLine(len(data))
	}
	f.Lines = line
	if len(data) == 0 || data[len(data)-1] == '\n' || data[len(data)-1] == '\r' {
		f.Lines = line - 1
	}
	if phrases != nil {
		f.Phrases = phraseHits(phrases, data, isKeyed)
	}
	if f.holdsSecret() {
		f.Release()
		return nil, false
	}
	return f, true
}

// Release hands the facts' scratch back for the next file; the facts must
// not be used after it.
func (f *Facts) Release() {
	if f.t != nil {
		f.t.words, f.t.occs = f.words[:0], f.occs[:0]
		tables.Put(f.t)
		f.t = nil
	}
	if f.st != nil {
		f.st.words = f.seps[:0]
		tables.Put(f.st)
		f.st = nil
	}
}

// PhraseMask is the union of the PhraseBits of the phrases hits are of
// (phrase hits: Facts.Phrases): a caller asking for some phrases skips the
// files that hold none of them.
func PhraseMask(hits []Hit) uint64 {
	var m uint64
	for _, h := range hits {
		m |= PhraseBit(h.Term)
	}
	return m
}

// PhraseBit is phrase t's bit of a PhraseMask: bit t, bit 60 for every
// phrase from the 61st on.
func PhraseBit(t int) uint64 { return 1 << min(t, 60) }

// phraseHits are the matches of the phrases in data, each placed by the
// word its last byte is in, as File.Hits places a word's matches.
func phraseHits(m *match.Matcher, data []byte, isKeyed bool) []Hit {
	var out []Hit
	var lines *match.Lines
	m.Scan(data, func(t, s, e int) bool {
		if lines == nil {
			lines = match.NewLines(data)
		}
		ln, ls, _ := lines.At(s)
		ws := e - 1
		for ws > 0 && wordByte(data[ws-1]) {
			ws--
		}
		out = append(out, Hit{Term: t, Line: int32(ln), Col: int32(s - ls), Key: isKeyed && fields.IsKeyAt(data, e),
			word: int32(ws - ls), end: int32(e - ws)})
		return true
	})
	return out
}

// wordTable numbers the distinct words of one file without allocating a
// string per word: an open-addressing table of word ids keyed by the
// words' bytes in the file.
type wordTable struct {
	slots []int32 // word id + 1, 0 for empty
	hash  []uint32
	n     int
	// Reused file to file: the words and occurrences of Facts, Encode's
	// grouping.
	words  [][2]int32
	occs   []occRec
	start  []int32
	next   []int32
	byWord []Occ
}

var tables = sync.Pool{New: func() any { return &wordTable{} }}

func (t *wordTable) reset(size int) {
	want := 64
	for want < size/16 {
		want <<= 1
	}
	if len(t.slots) < want || len(t.slots) > 8*want {
		t.slots = make([]int32, want)
	} else {
		t.slots = t.slots[:want]
		clear(t.slots)
	}
	t.hash = t.hash[:0]
	t.n = 0
}

// id returns the id of data[i:j], adding it to words when it is new.
func (t *wordTable) id(data []byte, i, j int, words *[][2]int32) int32 {
	if 2*(t.n+1) > len(t.slots) {
		t.grow(data, *words)
	}
	h := fnv(data[i:j])
	mask := uint32(len(t.slots) - 1)
	for k := h & mask; ; k = (k + 1) & mask {
		s := t.slots[k]
		if s == 0 {
			id := int32(len(*words))
			*words = append(*words, [2]int32{int32(i), int32(j - i)})
			t.hash = append(t.hash, h)
			t.slots[k] = id + 1
			t.n++
			return id
		}
		w := (*words)[s-1]
		if t.hash[s-1] == h && int(w[1]) == j-i && string(data[w[0]:w[0]+w[1]]) == string(data[i:j]) {
			return s - 1
		}
	}
}

func (t *wordTable) grow(data []byte, words [][2]int32) {
	if cap(t.slots) >= 2*len(t.slots) {
		t.slots = t.slots[:2*len(t.slots)]
		clear(t.slots)
	} else {
		t.slots = make([]int32, 2*len(t.slots))
	}
	mask := uint32(len(t.slots) - 1)
	for id := range words {
		k := t.hash[id] & mask
		for t.slots[k] != 0 {
			k = (k + 1) & mask
		}
		t.slots[k] = int32(id) + 1
	}
}

func fnv(b []byte) uint32 {
	h := uint32(2166136261)
	for _, c := range b {
		h = (h ^ uint32(c)) * 16777619
	}
	return h
}

// holdsSecret reports whether the redactor would mask text the index
// keeps: it is shown the whole file, as it reads an output (so a secret
// known only by what is around it, a short password after a password key
// or the credentials of a URL, is found), and then every long word that
// mixes letters and digits on its own (the shape of keys, tokens and
// encoded blobs, which the index keeps cut from their context). Each word
// is a paragraph of its own: joined line to line, the hex test vectors and
// hashes of unrelated lines read as the body of a PEM key, which no output
// shows (a body the file holds is found in the whole file).
func (f *Facts) holdsSecret() bool {
	if len(f.data) > 0 && len(secret.Find(unsafe.String(unsafe.SliceData(f.data), len(f.data)))) > 0 {
		return true
	}
	var b strings.Builder
	for _, w := range f.words {
		if w[1] >= secretShaped && mixed(f.data[w[0]:w[0]+w[1]]) {
			b.Write(f.data[w[0] : w[0]+w[1]])
			b.WriteString("\n\n")
		}
	}
	return b.Len() > 0 && len(secret.Find(b.String())) > 0
}

func mixed(w []byte) bool {
	letter, digit := false, false
	for _, c := range w {
		letter = letter || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
		digit = digit || ('0' <= c && c <= '9')
	}
	return letter && digit
}

// wordByte is pkg/match's isAlnum.
func wordByte(c byte) bool {
	return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9') || c >= 0x80
}

// mayDef is a cheap test before fields.DefSpan: a definition line's first
// byte past its indentation opens one of the definition keywords.
func mayDef(l []byte) bool {
	for _, c := range l {
		if c == ' ' || c == '\t' {
			continue
		}
		return strings.IndexByte("fdactpseimvl#", c) >= 0
	}
	return false
}

// Encode is the facts as the index stores them (see File for the layout).
func (f *Facts) Encode() []byte {
	n := 0
	for _, w := range f.words {
		n += int(w[1]) + 1
	}
	b := make([]byte, 0, 64+len(f.Shape)+n+4*len(f.words)+3*len(f.occs)+3*len(f.Heads)+5*len(f.Defs)+6*len(f.Phrases))
	b = binary.AppendUvarint(b, uint64(f.Bytes))
	b = binary.AppendUvarint(b, uint64(f.Lines))
	b = binary.AppendUvarint(b, uint64(len(f.Heads)))
	prev := int32(0)
	for _, h := range f.Heads {
		b = binary.AppendUvarint(b, uint64(h-prev))
		prev = h
	}
	b = binary.AppendUvarint(b, uint64(len(f.Defs)))
	prev = 0
	for _, d := range f.Defs {
		b = binary.AppendUvarint(b, uint64(d.Line-prev))
		b = binary.AppendUvarint(b, uint64(d.Start))
		b = binary.AppendUvarint(b, uint64(d.End-d.Start))
		prev = d.Line
	}
	b = binary.AppendUvarint(b, uint64(len(f.Phrases)))
	for _, h := range f.Phrases {
		b = binary.AppendUvarint(b, uint64(h.Term))
		b = binary.AppendUvarint(b, uint64(h.Line))
		b = binary.AppendUvarint(b, uint64(h.Col))
		b = binary.AppendUvarint(b, uint64(h.word))
		b = binary.AppendUvarint(b, uint64(h.end)<<1|uint64(boolBit(h.Key)))
	}
	b = binary.AppendUvarint(b, uint64(len(f.Shape)))
	b = append(b, f.Shape...)
	nn := 0
	for _, name := range f.Names {
		nn += len(name) + 1
	}
	b = binary.AppendUvarint(b, uint64(nn))
	for _, name := range f.Names {
		b = append(append(b, name...), '\n')
	}
	ns := 0
	for _, r := range f.seps {
		ns += int(r[1]) + 1
	}
	b = binary.AppendUvarint(b, uint64(ns))
	for _, r := range f.seps {
		b = append(append(b, f.data[r[0]:r[0]+r[1]]...), '\n')
	}
	b = binary.AppendUvarint(b, uint64(len(f.words)))
	b = binary.AppendUvarint(b, uint64(n))
	for _, w := range f.words {
		b = append(b, f.data[w[0]:w[0]+w[1]]...)
		b = append(b, '\n')
	}
	// The occurrences grouped by word, in file order within a word.
	t := f.t
	if t == nil {
		t = &wordTable{}
	}
	start := grown(t.start, len(f.words)+1)
	for _, o := range f.occs {
		start[o.word+1]++
	}
	for k := 1; k < len(start); k++ {
		start[k] += start[k-1]
	}
	byWord := t.byWord
	if cap(byWord) < len(f.occs) {
		byWord = make([]Occ, len(f.occs))
	}
	byWord = byWord[:len(f.occs)]
	next := append(grown(t.next, 0), start[:len(f.words)]...)
	t.start, t.next, t.byWord = start, next, byWord
	for _, o := range f.occs {
		byWord[next[o.word]] = o.o
		next[o.word]++
	}
	// Then a table of each word's list end (uint32, relative to the lists),
	// so a reader finds any word's list without decoding the others.
	var lists []byte
	ends := make([]byte, 0, 4*len(f.words))
	for k := range f.words {
		prev := int32(0)
		for _, o := range byWord[start[k]:start[k+1]] {
			lists = binary.AppendUvarint(lists, uint64(o.Line-prev))
			lists = binary.AppendUvarint(lists, uint64(o.Col)<<1|uint64(boolBit(o.Key)))
			lists = binary.AppendUvarint(lists, uint64(o.Sep))
			prev = o.Line
		}
		ends = binary.LittleEndian.AppendUint32(ends, uint32(len(lists)))
	}
	b = append(b, ends...)
	b = append(b, lists...)
	return b
}

// namesStorable reports whether no name holds a line break, which
// separates the names in an entry and in the names dictionary.
func (f *Facts) namesStorable() bool {
	for _, n := range f.Names {
		if strings.IndexByte(n, '\n') >= 0 {
			return false
		}
	}
	return true
}

// grown is s resized to n zeroed elements, reusing its array.
func grown(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	s = s[:n]
	clear(s)
	return s
}

func boolBit(b bool) int {
	if b {
		return 1
	}
	return 0
}
