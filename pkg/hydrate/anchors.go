package hydrate

import (
	"math"
	"slices"
	"sort"

	"github.com/rtch/rtch/pkg/match"
	"github.com/rtch/rtch/pkg/schema"
)

// maxAnchors caps the target lines considered on one surface.
const maxAnchors = 32

// anchors lists the surface's target lines, best first: the ranking's (with
// the definitions their windows call on the top surfaces), then
// the other lines where its terms occur (hitAnchors); without ranking anchors
// the hit lines by strength, else the file head (0).
func (h *hydrator) anchors(sf *surface) (out []int) {
	seen := map[int]bool{}
	add := func(a int) {
		if !seen[a] && len(out) < maxAnchors {
			seen[a] = true
			out = append(out, a)
		}
	}
	h.rankAnchors(sf, add)
	if len(out) > 0 && !(len(out) == 1 && out[0] == -1) {
		// The ranking keeps a few anchors per file; the other lines where the
		// file's terms occur follow them, the ones that bring terms no
		// earlier window holds first.
		for _, a := range h.hitAnchors(sf, out) {
			add(a)
		}
	} else {
		hs := append([]schema.Hit(nil), h.hits[sf.rs.Path]...)
		sort.SliceStable(hs, func(i, j int) bool {
			if a, b := classStrength(hs[i].ConfidenceClass), classStrength(hs[j].ConfidenceClass); a != b {
				return a > b
			}
			return hs[i].Line < hs[j].Line
		})
		for _, x := range hs {
			add(x.Line)
		}
	}
	if len(out) == 0 {
		add(0)
	}
	return out
}

// rankAnchors adds the ranking's anchors of sf. On the top surfaces the
// definitions their windows call come in between (callees.go): those of the
// first window right after it, the others' after the ranking's last.
func (h *hydrator) rankAnchors(sf *surface, add func(int)) {
	ra := sf.rs.Anchors
	if sf.order >= breadthTop || sf.file == nil || len(ra) == 0 || ra[0] < 1 {
		for _, a := range ra {
			add(a)
		}
		return
	}
	c := h.newCallees(sf)
	add(ra[0])
	for _, a := range c.of(ra[0], ra, firstCallees) {
		add(a)
	}
	for _, a := range ra[1:] {
		add(a)
	}
	for _, a := range ra[1:] {
		for _, d := range c.of(a, ra, maxCallees) {
			add(d)
		}
	}
}

// lineTerms is one line of a surface with the goal terms on it: terms
// numbers them in the surface's sorted terms.
type lineTerms struct {
	line  int
	terms termSet
	bonus float64
}

// hitAnchors orders the lines of sf where its terms occur that no window
// around the given anchors holds, for the windows after the ranking's own. A
// line's worth is the rarity of the distinct terms within a window of it that
// no chosen window holds yet (so a file's later windows go to other term
// clusters), a quarter of that for terms a chosen window holds, plus a bonus
// for a definition, heading or key hit on the line itself. Caution-only hits
// (source-of-truth phrasing) choose no window.
func (h *hydrator) hitAnchors(sf *surface, chosen []int) []int {
	w := h.o.Window
	ls := h.termLines(sf)
	if len(ls) == 0 {
		return nil
	}
	// The distinct terms within a window of each hit line, and their rarity.
	n := len(sf.terms)
	rarity := make([]float64, n)
	for t, term := range sf.terms {
		rarity[t] = h.idf(term)
	}
	around := make([]termSet, len(ls))
	lo := 0
	for i, lt := range ls {
		for ls[lo].line < lt.line-w {
			lo++
		}
		around[i] = newTermSet(n)
		for j := lo; j < len(ls) && ls[j].line <= lt.line+w; j++ {
			around[i].addAll(ls[j].terms)
		}
	}
	covered := newTermSet(n)
	var anchors []int
	near := func(n int) bool {
		for _, a := range anchors {
			if a >= 1 && n >= a-w && n <= a+w {
				return true
			}
		}
		return false
	}
	cover := func(a int) {
		anchors = append(anchors, a)
		for _, lt := range ls {
			if lt.line >= a-w && lt.line <= a+w {
				covered.addAll(lt.terms)
			}
		}
	}
	for _, a := range chosen {
		if a >= 1 {
			cover(a)
		}
	}
	var out []int
	for len(chosen)+len(out) < maxAnchors {
		best, bestScore := -1, 0.0
		for i, lt := range ls {
			if near(lt.line) {
				continue
			}
			sc := lt.bonus
			for t := range around[i].all() { // in the terms' order, as the sums always were
				if covered.has(t) {
					sc += rarity[t] / 4
				} else {
					sc += rarity[t]
				}
			}
			// Every term on the line counts a little, so a line of only
			// already-covered terms still orders by how much it holds.
			sc += 0.1 * float64(lt.terms.len())
			if best < 0 || sc > bestScore {
				best, bestScore = i, sc
			}
		}
		if best < 0 {
			break
		}
		out = append(out, ls[best].line)
		cover(ls[best].line)
	}
	return out
}

// termLines lists the lines of sf that hold a term of its non-caution hits,
// with those terms, in line order. The probe keeps only a few hit positions
// per term and file, so the file is scanned again for every occurrence (with
// the probe's matcher): in a large file the terms' clusters are where they
// occur, not where the first hits happened to be kept. The hits add their
// field's bonus to their own line.
func (h *hydrator) termLines(sf *surface) []*lineTerms {
	var terms []string
	seen := map[string]bool{}
	if h.probeOf == nil {
		h.probeOf = map[string]string{}
	}
	kept := func(x schema.Hit) bool { return x.Line >= 1 && x.ConfidenceClass != "caution_only" }
	for _, x := range h.hits[sf.rs.Path] {
		if kept(x) && !seen[x.Term] {
			seen[x.Term] = true
			terms = append(terms, x.Term)
			if k := sf.rs.Path + "\x00" + x.Term; h.probeOf[k] == "" {
				h.probeOf[k] = x.ProbeID
			}
		}
	}
	slices.Sort(terms)
	sf.terms = terms
	byLine := map[int]*lineTerms{}
	at := func(n int) *lineTerms {
		lt := byLine[n]
		if lt == nil {
			lt = &lineTerms{line: n, terms: newTermSet(len(terms))}
			byLine[n] = lt
		}
		return lt
	}
	for _, x := range h.hits[sf.rs.Path] {
		if !kept(x) {
			continue
		}
		lt := at(x.Line)
		t, _ := slices.BinarySearch(terms, x.Term)
		lt.terms.add(t)
		idf := h.idf(x.Term)
		switch x.Field {
		case "definition":
			lt.bonus = max(lt.bonus, 3*idf)
		case "definition_line", "heading", "key":
			lt.bonus = max(lt.bonus, idf)
		}
	}
	if len(terms) > 0 && sf.file != nil {
		match.New(terms).Scan(sf.file.Data, func(t, s, _ int) bool {
			at(sf.file.LineAt(s)).terms.add(t)
			return true
		})
	}
	ls := make([]*lineTerms, 0, len(byLine))
	for _, lt := range byLine {
		ls = append(ls, lt)
	}
	sort.Slice(ls, func(i, j int) bool { return ls[i].line < ls[j].line })
	sf.occurs = ls
	return ls
}

// idf is a term's rarity among the files hit: ln(1 + files hit / files the
// term hits).
func (h *hydrator) idf(term string) float64 {
	if h.df == nil {
		h.df = map[string]int{}
		files := map[string]bool{}
		seen := map[[2]string]bool{}
		for _, x := range h.in.Hits {
			files[x.Path] = true
			k := [2]string{x.Term, x.Path}
			if !seen[k] {
				seen[k] = true
				h.df[x.Term]++
			}
		}
		h.nfiles = len(files)
	}
	df := h.df[term]
	if df == 0 {
		return 0
	}
	return math.Log(1 + float64(h.nfiles)/float64(df))
}

// hitAt returns the strongest hit on line n of p (line 0: a path match).
func (h *hydrator) hitAt(p string, n int) *schema.Hit {
	var best *schema.Hit
	for i := range h.hits[p] {
		x := &h.hits[p][i]
		if x.Line != n && !(n <= 0 && x.Line == 0) {
			continue
		}
		if best == nil || classStrength(x.ConfidenceClass) > classStrength(best.ConfidenceClass) {
			best = x
		}
	}
	return best
}

// bestHitIn returns the strongest hit inside lines s..e of p, path matches
// included.
func (h *hydrator) bestHitIn(p string, s, e int) *schema.Hit {
	var best *schema.Hit
	for i := range h.hits[p] {
		x := &h.hits[p][i]
		if x.Line != 0 && (x.Line < s || x.Line > e) {
			continue
		}
		if best == nil || classStrength(x.ConfidenceClass) > classStrength(best.ConfidenceClass) {
			best = x
		}
	}
	return best
}

func classStrength(c string) int {
	switch c {
	case "source_bearing_hit":
		return 5
	case "hit":
		return 4
	case "neighbor_only":
		return 3
	case "caution_only":
		return 2
	case "weak_hit":
		return 1
	}
	return 0
}
