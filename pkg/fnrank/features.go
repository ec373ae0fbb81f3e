package fnrank

import (
	"math"
	"strings"
)

// FeatureNames name the columns of a unit's feature row (Features), in
// order: the hand-written score and its parts, the unit's shape, how much
// of the goal it holds, and how it stands in the call graph of the ranked
// files (which units name it, which it names). A model names the columns
// it was trained on (rank.LoadModelOver), so the list may grow.
var FeatureNames = []string{
	// the hand-written score and where it places the unit
	"hand_log", "hand_rel", "hand_file_rel", "hand_place", "file_place", "evidence_log",
	// the file
	"file_rank_log", "file_rank1", "file_rank2", "test", "units_log", "file_ev_units_log", "file_share", "file_named",
	// the unit's shape
	"kind_top", "kind_container", "kind_decl", "kind_func", "kind_class", "has_container", "own_log", "span_log", "pos",
	// how much of the goal it holds
	"terms_n", "terms_frac", "w_frac", "wmax_frac", "head_frac", "name_match", "name_w_frac", "name_part",
	"container_match", "mentions_log", "ev_lines_log", "density",
	// the call graph among the ranked files' units
	"calls_named", "called_by_named", "calls_top3", "called_by_top3", "name_uses_log",
	// the goal
	"goal_terms_log", "goal_w_log",
}

// unitStats is what a unit's own lines hold beyond its score, for its
// feature row.
type unitStats struct {
	file      int     // index of the unit's file among Rank's files
	rank      int     // the file's rank
	test      bool    // a test file's unit
	raw       float64 // evidence before the kind's and the file's factors
	distinct  int     // distinct goal terms in its own lines
	wsum      float64 // their weights summed
	wmax      float64 // the heaviest of them
	headW     float64 // weights of the terms on the head line
	nameW     float64 // weight of the term the name equals
	namePart  bool    // a term of four letters or more is part of the name
	contMatch bool    // the container's name equals a term
	mentions  int     // mentions of the goal's terms
	evLines   int     // own lines holding a term
	pos       float64 // the head's place in the file, 0 first line, 1 last
	nunits    int     // units of the file
	idents    map[string]bool
}

// rows computes the feature rows of the candidates out (hand order) from
// their stats; all are every unit of the ranked files, candidates or not,
// with theirs, for the call graph.
func rows(out []Unit, st []*unitStats, all []Unit, allSt []*unitStats, terms []Term) [][]float64 {
	c := newRowContext(out, st, all, allSt, terms)
	res := make([][]float64, len(out))
	filePlace := make([]int, c.nf)
	for i, u := range out {
		filePlace[st[i].file]++
		res[i] = c.row(i, u, filePlace[st[i].file])
	}
	return res
}

// rowContext is what every candidate's row is measured against: the
// goal's weights, each file's evidence, the names units use, the best
// scores, and the first three candidates that are not top-level code.
type rowContext struct {
	out         []Unit
	st          []*unitStats
	all         []Unit
	allSt       []*unitStats
	nterms      int
	total, wtop float64 // the goal terms' weights summed, and the heaviest (at least 1e-9)
	nf          int     // files, by the largest file index
	evUnits     []int   // per file: units with evidence
	evSum       []float64
	named       []bool          // per file: a unit's name is a goal term
	namedNames  map[string]bool // the names of those units
	uses        map[string]int  // how many units name each identifier
	best        float64         // the best candidate's score (at least 1e-9)
	fileBest    []float64       // per file: its best candidate's score
	top3        []int           // the first three candidates that are not top-level code
}

// newRowContext measures the context of the candidates' rows.
func newRowContext(out []Unit, st []*unitStats, all []Unit, allSt []*unitStats, terms []Term) *rowContext {
	c := &rowContext{out: out, st: st, all: all, allSt: allSt, nterms: len(terms)}
	for _, t := range terms {
		c.total += t.Weight
		c.wtop = max(c.wtop, t.Weight)
	}
	c.total, c.wtop = max(c.total, 1e-9), max(c.wtop, 1e-9)
	for _, s := range allSt {
		c.nf = max(c.nf, s.file+1)
	}
	c.fileEvidence()
	c.uses = map[string]int{}
	for _, s := range allSt {
		for id := range s.idents {
			c.uses[id]++
		}
	}
	c.fileBest = make([]float64, c.nf)
	for i, u := range out {
		c.best = max(c.best, u.Score)
		c.fileBest[st[i].file] = max(c.fileBest[st[i].file], u.Score)
	}
	c.best = max(c.best, 1e-9)
	c.top3 = []int{}
	for i, u := range out {
		if u.Kind != TopLevel && len(c.top3) < 3 {
			c.top3 = append(c.top3, i)
		}
	}
	return c
}

// fileEvidence sums, per file, the units with evidence and their evidence,
// and marks the files holding a unit the goal names.
func (c *rowContext) fileEvidence() {
	c.evUnits = make([]int, c.nf)
	c.evSum = make([]float64, c.nf)
	c.named = make([]bool, c.nf)
	c.namedNames = map[string]bool{}
	for i, s := range c.allSt {
		if s.raw > 0 {
			c.evUnits[s.file]++
			c.evSum[s.file] += s.raw
		}
		if s.nameW > 0 {
			c.named[s.file] = true
			c.namedNames[c.all[i].Name] = true
		}
	}
}

// links tells how candidate i stands in the call graph: whether it names a
// unit the goal names or is named by one, and the same for the first three
// candidates.
func (c *rowContext) links(i int, u Unit) (callsNamed, calledByNamed, callsTop, calledByTop bool) {
	s := c.st[i]
	for id := range s.idents {
		if id != u.Name && c.namedNames[id] {
			callsNamed = true
		}
	}
	if u.Name != "" {
		for j, o := range c.allSt {
			if o.nameW > 0 && c.all[j].Name != u.Name && o.idents[u.Name] {
				calledByNamed = true
				break
			}
		}
	}
	for _, j := range c.top3 {
		if j == i {
			continue
		}
		if n := c.out[j].Name; n != "" && n != u.Name && s.idents[n] {
			callsTop = true
		}
		if u.Name != "" && c.out[j].Name != u.Name && c.st[j].idents[u.Name] {
			calledByTop = true
		}
	}
	return callsNamed, calledByNamed, callsTop, calledByTop
}

// nameUses is how many other units use candidate u's name.
func (c *rowContext) nameUses(s *unitStats, u Unit) int {
	if u.Name == "" {
		return 0
	}
	n := c.uses[u.Name]
	if s.idents[u.Name] {
		n--
	}
	return n
}

// row is candidate i's feature row, in FeatureNames' order; place is its
// place among its file's candidates.
func (c *rowContext) row(i int, u Unit, place int) []float64 {
	s := c.st[i]
	callsNamed, calledByNamed, callsTop, calledByTop := c.links(i, u)
	nameUses := c.nameUses(s, u)
	own := float64(max(u.Own, 1))
	fileRel := 0.0
	if c.fileBest[s.file] > 0 {
		fileRel = u.Score / c.fileBest[s.file]
	}
	share := 0.0
	if c.evSum[s.file] > 0 {
		share = s.raw / c.evSum[s.file]
	}
	kindFunc := u.Kind == "func" || u.Kind == "method"
	total, wtop := c.total, c.wtop
	return []float64{
		math.Log1p(u.Score), u.Score / c.best, fileRel, math.Log(float64(i + 1)), math.Log(float64(place)), math.Log1p(s.raw),
		math.Log(float64(max(s.rank, 1))), bit(s.rank == 1), bit(s.rank == 2), bit(s.test), math.Log1p(float64(s.nunits)), math.Log1p(float64(c.evUnits[s.file])), share, bit(c.named[s.file]),
		bit(u.Kind == TopLevel), bit(u.Nested && u.Kind != TopLevel), bit(declKinds[u.Kind] && !u.Nested), bit(kindFunc), bit(!kindFunc && !declKinds[u.Kind] && u.Kind != TopLevel), bit(u.Container != ""),
		math.Log1p(own), math.Log1p(float64(u.End - u.Lead + 1)), s.pos,
		float64(s.distinct), float64(s.distinct) / float64(max(c.nterms, 1)), s.wsum / total, s.wmax / wtop, s.headW / total, bit(s.nameW > 0), s.nameW / wtop, bit(s.namePart),
		bit(s.contMatch), math.Log1p(float64(s.mentions)), math.Log1p(float64(s.evLines)), float64(s.evLines) / own,
		bit(callsNamed), bit(calledByNamed), bit(callsTop), bit(calledByTop), math.Log1p(float64(max(nameUses, 0))),
		math.Log1p(float64(c.nterms)), math.Log1p(total),
	}
}

// bit is a flag as a feature: 1 or 0.
func bit(v bool) float64 {
	if v {
		return 1
	}
	return 0
}

// namePart reports whether a term of four letters or more (its last
// dotted part, without separators) is part of a definition's name.
func namePart(name, term string) bool {
	if i := strings.LastIndexByte(term, '.'); i >= 0 {
		term = term[i+1:]
	}
	t := strings.ToLower(squash(term))
	return len(t) >= 4 && strings.Contains(strings.ToLower(squash(name)), t)
}

// identifiers calls f with each identifier of data (a letter or _
// followed by letters, digits and _) that is one of names, and the byte
// offset it starts at.
func identifiers(data []byte, names map[string]bool, f func(id string, at int)) {
	for i := 0; i < len(data); {
		c := data[i]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			j := i + 1
			for j < len(data) && (data[j] == '_' || data[j] >= 'a' && data[j] <= 'z' || data[j] >= 'A' && data[j] <= 'Z' || data[j] >= '0' && data[j] <= '9') {
				j++
			}
			if names[string(data[i:j])] {
				f(string(data[i:j]), i)
			}
			i = j
			continue
		}
		if c >= '0' && c <= '9' {
			for i < len(data) && (data[i] == '_' || data[i] >= 'a' && data[i] <= 'z' || data[i] >= 'A' && data[i] <= 'Z' || data[i] >= '0' && data[i] <= '9') {
				i++
			}
			continue
		}
		i++
	}
}
