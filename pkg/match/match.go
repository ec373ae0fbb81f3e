// Package match is the literal matcher shared by the shape scout (document
// frequencies) and the probe pass (hits): an Aho-Corasick automaton over
// ASCII-case-folded bytes, so one pass over a file's bytes finds every term at
// once without a lowercased copy and without a regular expression, followed by
// an identifier-aware boundary check on the original bytes. Up to three
// 64-bit words of term bytes (after cutting long terms to prefixes) run on a
// Shift-And loop instead, which is faster and reports the same matches.
//
// Boundaries follow how code spells words: a term matches at the start of a
// word, after '_' or '.', and at a camelCase hump ("Runnable" in
// "isRunnable", "server" in "HTTPServer"), and it must end at a word end or a
// hump. Plain lowercase words of four letters or more may also carry a short
// English suffix ("command" matches "commands", "parse" matches "parsed"), so
// the goal's prose finds the code's plurals. A compound name also matches
// its other spellings (Variants): the goal's --scroll-off finds the code's
// scrollOff, halt_error finds HaltError. Case folding is ASCII only:
// non-ASCII bytes must match exactly.
package match

import (
	"bytes"
	"math/bits"
	"slices"
	"strings"
)

// Matcher finds whole-word, case-insensitive occurrences of a fixed set of terms.
type Matcher struct {
	// terms are the folded patterns: first one per caller term, in the
	// caller's order (stems for stemmed words), then the spelling variants
	// of compound names (see Variants).
	terms   []string
	orig    []int32 // caller term of each pattern
	ncaller int     // number of caller terms
	stem    []bool  // pattern may carry a suffix
	stemmed []bool  // pattern is a stem: it carries one of stemSuffixes (or none)
	class   [256]uint8
	nclass  int
	delta   []int32   // DFA: delta[state*nclass+class]
	out     [][]int32 // term indices ending at a state (failure chain merged)
	hasOut  []bool
	// fast is delta premultiplied for the scan loop: fast[off+class] is the
	// next state's offset (state*nclass) times 2, plus 1 when that state
	// ends a term.
	fast []int32
	// sa, when set, replaces the automaton's scan loop for small term sets.
	sa *shiftAnd
}

// suffixes a plain word may carry before its word boundary.
var suffixes = []string{"s", "es", "ed", "d", "r", "rs", "ing", "er", "ers", "ion", "ions", "ly"}

// stemSuffixes a stemmed word ("compil" from "compiling") may carry.
var stemSuffixes = []string{"e", "es", "ed", "er", "ers", "ing", "ings", "ion", "ions", "ation", "ations",
	"s", "able", "ment", "ments", "y", "ies", "ied", "ity", "al", "ly"}

// inflections are stripped from a goal word to find its stem, longest first.
var inflections = []string{"ations", "ation", "ings", "ing", "ions", "ion", "ies", "ied", "es", "ed", "s"}

// Stem strips one inflection from a plain lowercase word of six letters or
// more ("compiling" → "compil", "multiplying" → "multiply", "values" →
// "valu"), keeping at least four letters; other words are returned as they
// are. A doubled final consonant left behind is undoubled ("running" →
// "runn" → "run", which is then too short, so "running" stays).
func Stem(w string) string {
	if len(w) < 6 || !stemmable(w) {
		return w
	}
	for _, inf := range inflections {
		if !strings.HasSuffix(w, inf) {
			continue
		}
		st := w[:len(w)-len(inf)]
		if inf == "s" && (strings.HasSuffix(st, "s") || strings.HasSuffix(st, "u") || strings.HasSuffix(st, "i")) {
			return w // "process", "status", "analysis"
		}
		if inf == "ies" || inf == "ied" {
			st += "y"
		}
		if n := len(st); n >= 2 && st[n-1] == st[n-2] && !strings.ContainsRune("aeiouls", rune(st[n-1])) {
			st = st[:n-1]
		}
		if len(st) < 4 {
			return w
		}
		return st
	}
	return w
}

func fold(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

// Fold returns s with ASCII letters lowercased.
func Fold(s string) string {
	b := []byte(s)
	for i := range b {
		b[i] = fold(b[i])
	}
	return string(b)
}

func stemmable(t string) bool {
	if len(t) < 4 {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] < 'a' || t[i] > 'z' {
			return false
		}
	}
	return true
}

// New builds a matcher for terms (matched case-insensitively). Empty terms never
// match. Term indices in results are indices into terms.
func New(terms []string) *Matcher {
	m := &Matcher{}
	m.addTerms(terms)
	m.addVariants(terms)
	m.assignClasses()
	m.buildDFA(m.trie())
	m.sa = newShiftAnd(m.terms)
	m.packFast()
	return m
}

// addTerms takes the caller's terms, folded, and stemmed where an
// inflection can be stripped; a stem of a plain word also matches its
// other inflections (stem).
func (m *Matcher) addTerms(terms []string) {
	n := len(terms)
	m.terms, m.orig, m.ncaller, m.stem, m.stemmed = make([]string, n), make([]int32, n), n, make([]bool, n), make([]bool, n)
	for i, t := range terms {
		ft := Fold(t)
		if st := Stem(ft); st != ft {
			ft = st
			m.stemmed[i] = true
		}
		m.terms[i] = ft
		m.orig[i] = int32(i)
		m.stem[i] = stemmable(ft)
	}
}

// addVariants appends the spelling variants of compound names not already
// searched: each matches as the term it spells, whole and without
// suffixes.
func (m *Matcher) addVariants(terms []string) {
	seen := map[string]bool{}
	for _, t := range m.terms {
		seen[t] = true
	}
	for i, t := range terms {
		for _, v := range Variants(t) {
			if !seen[v] {
				seen[v] = true
				m.terms = append(m.terms, v)
				m.orig = append(m.orig, int32(i))
				m.stem = append(m.stem, false)
				m.stemmed = append(m.stemmed, false)
			}
		}
	}
}

// assignClasses gives every byte that occurs in a folded term its own
// byte class, shared by its uppercase twin; every other byte is class 0.
func (m *Matcher) assignClasses() {
	next := uint8(1)
	for _, ft := range m.terms {
		for j := 0; j < len(ft); j++ {
			c := ft[j]
			if m.class[c] == 0 {
				if next == 255 {
					continue // more than 254 distinct bytes: the rest share class 0 and never match
				}
				m.class[c] = next
				if 'a' <= c && c <= 'z' {
					m.class[c-'a'+'A'] = next
				}
				next++
			}
		}
	}
	m.nclass = int(next)
}

// trieNode is a node of the terms' trie while the automaton is built.
type trieNode struct {
	next map[uint8]int32 // child by byte class
	fail int32           // the longest proper suffix's node
	out  []int32         // the terms that end here
}

// trie is the trie of the terms over byte classes. A term holding a byte of
// class 0 (beyond 254 distinct bytes) or an empty term ends nowhere.
func (m *Matcher) trie() []trieNode {
	nodes := []trieNode{{next: map[uint8]int32{}}}
	for i, t := range m.terms {
		if t == "" {
			continue
		}
		s := int32(0)
		ok := true
		for j := 0; j < len(t); j++ {
			c := m.class[t[j]]
			if c == 0 {
				ok = false
				break
			}
			n, found := nodes[s].next[c]
			if !found {
				nodes = append(nodes, trieNode{next: map[uint8]int32{}})
				n = int32(len(nodes) - 1)
				nodes[s].next[c] = n
			}
			s = n
		}
		if ok {
			nodes[s].out = append(nodes[s].out, int32(i))
		}
	}
	return nodes
}

// buildDFA sets the failure links breadth first and fills the full
// transition table (delta) and each state's sorted outputs, its own and its
// failure chain's.
func (m *Matcher) buildDFA(nodes []trieNode) {
	ns := len(nodes)
	m.delta = make([]int32, ns*m.nclass)
	m.out = make([][]int32, ns)
	m.hasOut = make([]bool, ns)
	queue := make([]int32, 0, ns)
	for c := 1; c < m.nclass; c++ {
		if n, ok := nodes[0].next[uint8(c)]; ok {
			nodes[n].fail = 0
			m.delta[c] = n
			queue = append(queue, n)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		f := nodes[s].fail
		nodes[s].out = append(nodes[s].out, m.out[f]...)
		slices.Sort(nodes[s].out)
		m.out[s] = nodes[s].out
		m.hasOut[s] = len(m.out[s]) > 0
		for c := 1; c < m.nclass; c++ {
			if n, ok := nodes[s].next[uint8(c)]; ok {
				nodes[n].fail = m.delta[int(f)*m.nclass+c]
				m.delta[int(s)*m.nclass+c] = n
				queue = append(queue, n)
			} else {
				m.delta[int(s)*m.nclass+c] = m.delta[int(f)*m.nclass+c]
			}
		}
	}
}

// packFast packs each transition for the scan loop: the next state's row
// offset times two, with the low bit set when that state has outputs.
func (m *Matcher) packFast() {
	m.fast = make([]int32, len(m.delta))
	for i, n := range m.delta {
		v := n * int32(m.nclass) * 2
		if m.hasOut[n] {
			v |= 1
		}
		m.fast[i] = v
	}
}

// Terms returns the folded terms, one per caller term (without variants).
func (m *Matcher) Terms() []string { return m.terms[:m.ncaller] }

// Spellings calls fn with every spelling the matcher finds, in the order
// that breaks Scan's ties (the caller's terms, folded and stemmed, then
// the variants it added, each once), with the caller's term its matches
// are reported as.
func (m *Matcher) Spellings(fn func(spelling string, term int)) {
	for k, t := range m.terms {
		fn(t, int(m.orig[k]))
	}
}

// Variants are the other spellings of a compound name that code uses for
// the same thing, folded: "scroll-off" is also scrolloff (scrollOff,
// ScrollOff) and scroll_off; "halt_error" is also halterror (haltError) and
// halt-error; "TraverseChildren" is also traverse_children and
// traverse-children. A name is compound when it has two or more parts of
// ASCII letters and digits, split at '-' or '_' or at lower-to-upper humps;
// anything else (a path, a phrase, a single word) has none.
func Variants(t string) []string {
	var parts []string
	start := 0
	for i := 0; i <= len(t); i++ {
		if i == len(t) || t[i] == '-' || t[i] == '_' {
			if i == start {
				return nil // leading, trailing or doubled separator: not a plain compound
			}
			parts = append(parts, t[start:i])
			start = i + 1
			continue
		}
		c := t[i]
		if !isLower(c) && !isUpper(c) && !isDigit(c) {
			return nil
		}
		if i > start && isUpper(c) && isLower(t[i-1]) {
			parts = append(parts, t[start:i])
			start = i
		}
	}
	if len(parts) < 2 {
		return nil
	}
	for i := range parts {
		parts[i] = Fold(parts[i])
	}
	out := []string{strings.Join(parts, ""), strings.Join(parts, "_"), strings.Join(parts, "-")}
	folded := Fold(t)
	keep := out[:0]
	for _, v := range out {
		if v != folded {
			keep = append(keep, v)
		}
	}
	return keep
}

// Scan calls fn for every boundary-checked occurrence in data, in order of end
// offset (ties by term index): term index, start and end byte offsets. fn
// returns false to stop the scan.
func (m *Matcher) Scan(data []byte, fn func(term, start, end int) bool) {
	if len(m.fast) == 0 {
		return
	}
	if m.sa != nil {
		m.scanShiftAnd(data, fn)
		return
	}
	fast, class := m.fast, &m.class
	var v int32
	for i := 0; i < len(data); i++ {
		v = fast[int(v>>1)+int(class[data[i]])]
		if v&1 == 0 {
			continue
		}
		st := int(v>>1) / m.nclass
		for _, t := range m.out[st] {
			if !m.whole(data, t, i, fn) {
				return
			}
		}
	}
}

// whole hands fn the whole-term match of pattern t ending at byte i, if its
// boundaries hold; it returns false when fn stops the scan.
func (m *Matcher) whole(data []byte, t int32, i int, fn func(term, start, end int) bool) bool {
	start := i + 1 - len(m.terms[t])
	end, ok := m.boundary(data, start, i+1, int(t))
	return !ok || fn(int(m.orig[t]), start, end)
}

// scanShiftAnd is Scan's loop over the Shift-And words. Matches ending at
// the same byte are reported in term order, as the automaton does.
func (m *Matcher) scanShiftAnd(data []byte, fn func(term, start, end int) bool) {
	if m.sa.cut {
		report, flush := m.cutReporter(data, fn)
		if m.shiftAndLoop(data, report) {
			flush()
		}
		return
	}
	m.shiftAndLoop(data, func(i int, hits []int32) bool {
		sortHits(hits)
		for _, t := range hits {
			if !m.whole(data, t, i, fn) {
				return false
			}
		}
		return true
	})
}

// shiftAndLoop runs the Shift-And words over data and calls report with the
// terms whose words end at each byte. It returns false when report stopped
// the scan.
func (m *Matcher) shiftAndLoop(data []byte, report func(int, []int32) bool) bool {
	gs := m.sa.groups
	var buf [8]int32
	collect := func(g *saGroup, x uint64, hits []int32) []int32 {
		for x != 0 {
			b := bits.TrailingZeros64(x)
			hits = append(hits, g.termAt[b])
			x &= x - 1
		}
		return hits
	}
	if len(gs) == 1 {
		g := &gs[0]
		var d uint64
		start, final, tb := g.start, g.final, &g.b
		for i := 0; i < len(data); i++ {
			d = (d<<1 | start) & tb[data[i]]
			if d&final != 0 {
				if !report(i, collect(g, d&final, buf[:0])) {
					return false
				}
			}
		}
		return true
	}
	if len(gs) == 2 {
		g0, g1 := &gs[0], &gs[1]
		b0, b1 := &g0.b, &g1.b
		s0, s1, f0, f1 := g0.start, g1.start, g0.final, g1.final
		var d0, d1 uint64
		for i := 0; i < len(data); i++ {
			c := data[i]
			d0 = (d0<<1 | s0) & b0[c]
			d1 = (d1<<1 | s1) & b1[c]
			if d0&f0|d1&f1 != 0 {
				h := collect(g0, d0&g0.final, buf[:0])
				h = collect(g1, d1&g1.final, h)
				if !report(i, h) {
					return false
				}
			}
		}
		return true
	}
	g0, g1, g2 := &gs[0], &gs[1], &gs[2]
	b0, b1, b2 := &g0.b, &g1.b, &g2.b
	s0, s1, s2 := g0.start, g1.start, g2.start
	f0, f1, f2 := g0.final, g1.final, g2.final
	var d0, d1, d2 uint64
	for i := 0; i < len(data); i++ {
		c := data[i]
		d0 = (d0<<1 | s0) & b0[c]
		d1 = (d1<<1 | s1) & b1[c]
		d2 = (d2<<1 | s2) & b2[c]
		if d0&f0|d1&f1|d2&f2 != 0 {
			h := collect(g0, d0&f0, buf[:0])
			h = collect(g1, d1&f1, h)
			h = collect(g2, d2&f2, h)
			if !report(i, h) {
				return false
			}
		}
	}
	return true
}

// cutReporter reports the hits of a scan whose words hold cut terms: a
// prefix hit is kept only when the rest of its term follows, and waits until
// the scan has passed the term's end, so that matches still come in order of
// end offset (ties by term index), as the automaton gives them. flush
// reports what still waits when the scan has run to the end; the caller does
// not call it after fn has stopped the scan.
func (m *Matcher) cutReporter(data []byte, fn func(term, start, end int) bool) (report func(int, []int32) bool, flush func() bool) {
	type hit struct{ at, term, start, end int }
	var wait []hit // by (at, term): at is where the automaton would report
	emit := func(upTo int) bool {
		k := 0
		for ; k < len(wait) && wait[k].at <= upTo; k++ {
			h := wait[k]
			if !fn(int(m.orig[h.term]), h.start, h.end) {
				return false
			}
		}
		wait = wait[:copy(wait, wait[k:])]
		return true
	}
	hold := func(t int32, i int) {
		term := m.terms[t]
		k := m.sa.plen[t]
		start := i + 1 - k
		at := start + len(term)
		if at > len(data) || !foldedEqual(data[i+1:at], term[k:]) {
			return
		}
		end, ok := m.boundary(data, start, at, int(t))
		if !ok {
			return
		}
		h := hit{at, int(t), start, end}
		j := len(wait)
		wait = append(wait, h)
		for ; j > 0 && (wait[j-1].at > at || wait[j-1].at == at && wait[j-1].term > h.term); j-- {
			wait[j] = wait[j-1]
		}
		wait[j] = h
	}
	report = func(i int, hits []int32) bool {
		if len(wait) > 0 && !emit(i) {
			return false
		}
		sortHits(hits)
		if len(wait) > 0 && wait[0].at == i+1 {
			// Rare: a held term ends here too; merge by term index.
			for _, t := range hits {
				hold(t, i)
			}
			return emit(i + 1)
		}
		// A cut term found here ends past i, so it never comes before the
		// whole terms that end at i.
		for _, t := range hits {
			if m.sa.plen[t] < len(m.terms[t]) {
				hold(t, i)
				continue
			}
			if !m.whole(data, t, i, fn) {
				return false
			}
		}
		return true
	}
	flush = func() bool { return emit(len(data)) }
	return report, flush
}

// sortHits puts the few terms found at one byte in term order.
func sortHits(hits []int32) {
	for a := 1; a < len(hits); a++ {
		for b := a; b > 0 && hits[b] < hits[b-1]; b-- {
			hits[b], hits[b-1] = hits[b-1], hits[b]
		}
	}
}

// foldedEqual reports whether b, ASCII-folded, equals the folded s.
func foldedEqual(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range len(b) {
		if fold(b[i]) != s[i] {
			return false
		}
	}
	return true
}

// StartsWord reports whether a match of a term that opens with a letter
// or digit may start at data[start]: at a word's start, a lower-to-upper
// hump, the last capital before a lower-case letter, or a letter after a
// digit (or a digit after a letter), as Scan decides.
func StartsWord(data []byte, start int) bool {
	if start == 0 {
		return true
	}
	p, c := data[start-1], data[start]
	if !isAlnum(p) {
		return true
	}
	hump := isUpper(c) && (isLower(p) || isDigit(p) ||
		(isUpper(p) && start+1 < len(data) && isLower(data[start+1])))
	return hump || isDigit(p) != isDigit(c)
}

// EndsWord reports whether a match of a term that closes with a letter or
// digit may end at data[end] without a suffix (Scan also lets a stemmable
// term take a suffix): at a word's end, before a hump, at a digit edge, or
// before the last capital of a run followed by a lower-case letter.
func EndsWord(data []byte, end int) bool {
	if end == len(data) || !isAlnum(data[end]) {
		return true
	}
	n, prev := data[end], data[end-1]
	switch {
	case isUpper(n) && !isUpper(prev):
		return true // camel hump: "parse" in "parseArgs"
	case isDigit(n) != isDigit(prev):
		return true // "utf" in "utf8"
	}
	return isUpper(n) && isUpper(prev) && end+1 < len(data) && isLower(data[end+1]) // "HTTP" in "HTTPServer"
}

func isLower(b byte) bool { return 'a' <= b && b <= 'z' }
func isUpper(b byte) bool { return 'A' <= b && b <= 'Z' }
func isDigit(b byte) bool { return '0' <= b && b <= '9' }
func isAlnum(b byte) bool { return isLower(b) || isUpper(b) || isDigit(b) || b >= 0x80 }

// boundary checks that data[start:end] is a whole-word occurrence of term t and
// returns the end including an allowed suffix.
func (m *Matcher) boundary(data []byte, start, end, t int) (int, bool) {
	term := m.terms[t]
	if isAlnum(term[0]) && !StartsWord(data, start) {
		return 0, false
	}
	if !isAlnum(term[len(term)-1]) || EndsWord(data, end) {
		return end, true
	}
	if m.stem[t] {
		sufs := suffixes
		if m.stemmed[t] {
			sufs = stemSuffixes
		}
		for _, suf := range sufs {
			e := end + len(suf)
			if e > len(data) {
				continue
			}
			ok := true
			for k := 0; k < len(suf); k++ {
				if fold(data[end+k]) != suf[k] {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			if e == len(data) || !isAlnum(data[e]) || (isUpper(data[e]) && !isUpper(data[e-1])) {
				return e, true
			}
		}
	}
	return 0, false
}

// Lines maps byte offsets to 1-based line numbers the way walk.Lines counts
// lines: "\n", "\r\n" and a lone "\r" each end a line.
type Lines struct {
	data []byte
	pos  int // offset counted up to
	line int // line number at pos
	lone bool
}

// NewLines prepares line numbering over data. Offsets asked in
// non-decreasing order cost one pass in all; an earlier offset restarts the
// count from the top.
func NewLines(data []byte) *Lines {
	l := &Lines{data: data, line: 1}
	for i := 0; i < len(data); {
		j := bytes.IndexByte(data[i:], '\r')
		if j < 0 {
			break
		}
		i += j + 1
		if i == len(data) || data[i] != '\n' {
			l.lone = true
			break
		}
	}
	return l
}

// At returns the line number of offset off and the bounds of that line
// (without its terminator).
func (l *Lines) At(off int) (line, lineStart, lineEnd int) {
	if off < l.pos {
		l.pos, l.line = 0, 1
	}
	if !l.lone {
		// Every '\r' is the first half of a "\r\n": only '\n' ends a line.
		l.line += bytes.Count(l.data[l.pos:off], newline)
		l.pos = off
		ls := bytes.LastIndexByte(l.data[:off], '\n') + 1
		le := len(l.data)
		if i := bytes.IndexByte(l.data[off:], '\n'); i >= 0 {
			le = off + i
		}
		if le > off && l.data[le-1] == '\r' {
			le--
		}
		return l.line, ls, le
	}
	for ; l.pos < off; l.pos++ {
		c := l.data[l.pos]
		if c == '\n' || (c == '\r' && (l.pos+1 == len(l.data) || l.data[l.pos+1] != '\n')) {
			l.line++
		}
	}
	ls := off
	for ls > 0 && l.data[ls-1] != '\n' && l.data[ls-1] != '\r' {
		ls--
	}
	le := off
	for le < len(l.data) && l.data[le] != '\n' && l.data[le] != '\r' {
		le++
	}
	return l.line, ls, le
}

var newline = []byte{'\n'}

// CountLines is the number of lines in data as walk.Lines counts them.
func CountLines(data []byte) int {
	if len(data) == 0 {
		return 0
	}
	n := bytes.Count(data, newline)
	if bytes.IndexByte(data, '\r') >= 0 {
		for i := 0; i < len(data); i++ {
			if data[i] == '\r' && (i+1 == len(data) || data[i+1] != '\n') {
				n++
			}
		}
	}
	last := data[len(data)-1]
	if last != '\n' && last != '\r' {
		n++
	}
	return n
}

// shiftAnd is a multi-pattern Shift-And (bitap) matcher for short term sets:
// the terms are packed end to end into 64-bit words, and each byte updates
// every word with a shift, an or and an and. Unlike a DFA step, the update
// does not wait on a table load that depends on the previous state, so on
// small term sets it runs several times faster. Each word costs about 0.4 ns
// a byte, so long terms are cut to a prefix (at least minPrefix bytes) when
// that saves a word, and a prefix hit is checked against the rest of its
// term (see cutReporter). It finds exactly the same matches, in the same
// order, as the automaton; the caller verifies boundaries.
type shiftAnd struct {
	groups []saGroup
	// plen is the length of each term's prefix in the words; cut is set
	// when some prefix is shorter than its term.
	plen []int
	cut  bool
}

type saGroup struct {
	b      [256]uint64 // bits of the positions byte c may occupy (case-folded)
	start  uint64      // first position of every term
	final  uint64      // last position of every term
	termAt [64]int32   // term ending at a final bit
}

// maxShiftAndGroups bounds the words: beyond three, the automaton is faster.
const maxShiftAndGroups = 3

// minPrefix is the shortest prefix a long term is cut to so that the terms
// fit in fewer words; the rest of the term is compared at each prefix hit.
const minPrefix = 5

func newShiftAnd(terms []string) *shiftAnd {
	// Longest first, so that first-fit packs well for every prefix length.
	order := make([]int, len(terms))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(terms[b]) - len(terms[a]) })
	longest := 0
	if len(terms) > 0 {
		longest = min(len(terms[order[0]]), 64)
	}
	// The fewest words first, then the longest prefixes that fit them: a
	// word less saves more per byte than the comparisons a shorter prefix
	// costs at its hits.
	for n := 1; n <= maxShiftAndGroups; n++ {
		for p := longest; p >= minPrefix || p == longest; p-- {
			if words := packWords(terms, order, n, p); words != nil {
				return buildShiftAnd(terms, words, p)
			}
		}
	}
	return nil
}

// packWords places the terms, cut to at most p bytes, first-fit in order
// into at most n words: the word and bit offset of each term, or nil when
// they do not fit (or no term is left).
func packWords(terms []string, order []int, n, p int) [][2]int {
	place := make([][2]int, len(terms))
	used := make([]int, 0, n)
	for _, t := range order {
		k := min(len(terms[t]), p)
		if k == 0 {
			continue
		}
		w := 0
		for w < len(used) && used[w]+k > 64 {
			w++
		}
		if w == len(used) {
			if len(used) == n {
				return nil
			}
			used = append(used, 0)
		}
		place[t] = [2]int{w, used[w]}
		used[w] += k
	}
	if len(used) == 0 {
		return nil
	}
	return place
}

// buildShiftAnd fills the words for the places packWords chose.
func buildShiftAnd(terms []string, place [][2]int, p int) *shiftAnd {
	sa := &shiftAnd{plen: make([]int, len(terms))}
	for t, term := range terms {
		k := min(len(term), p)
		if k == 0 {
			continue
		}
		sa.plen[t] = k
		if k < len(term) {
			sa.cut = true
		}
		w, at := place[t][0], place[t][1]
		for len(sa.groups) <= w {
			sa.groups = append(sa.groups, saGroup{})
		}
		g := &sa.groups[w]
		for j := 0; j < k; j++ {
			c := term[j]
			bit := uint64(1) << uint(at+j)
			g.b[c] |= bit
			if 'a' <= c && c <= 'z' {
				g.b[c-'a'+'A'] |= bit
			}
		}
		g.start |= 1 << uint(at)
		g.final |= 1 << uint(at+k-1)
		g.termAt[at+k-1] = int32(t)
	}
	return sa
}
