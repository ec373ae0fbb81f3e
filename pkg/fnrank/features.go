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

// row computes the feature rows of the candidates out (hand order) from
// their stats; all are every unit of the ranked files, candidates or not,
// with theirs, for the call graph.
func rows(out []Unit, st []*unitStats, all []Unit, allSt []*unitStats, terms []Term) [][]float64 {
	total, wtop := 0.0, 0.0
	for _, t := range terms {
		total += t.Weight
		wtop = max(wtop, t.Weight)
	}
	total, wtop = max(total, 1e-9), max(wtop, 1e-9)
	// Per file: units with evidence, the evidence summed, whether a unit
	// is named by the goal.
	nf := 0
	for _, s := range allSt {
		nf = max(nf, s.file+1)
	}
	evUnits := make([]int, nf)
	evSum := make([]float64, nf)
	named := make([]bool, nf)
	namedNames := map[string]bool{}
	for i, s := range allSt {
		if s.raw > 0 {
			evUnits[s.file]++
			evSum[s.file] += s.raw
		}
		if s.nameW > 0 {
			named[s.file] = true
			namedNames[all[i].Name] = true
		}
	}
	// How many units name each definition's name.
	uses := map[string]int{}
	for _, s := range allSt {
		for id := range s.idents {
			uses[id]++
		}
	}
	best := 0.0
	fileBest := make([]float64, nf)
	for i, u := range out {
		best = max(best, u.Score)
		fileBest[st[i].file] = max(fileBest[st[i].file], u.Score)
	}
	best = max(best, 1e-9)
	filePlace := make([]int, nf)
	top3 := []int{}
	for i, u := range out {
		if u.Kind != TopLevel && len(top3) < 3 {
			top3 = append(top3, i)
		}
	}
	b := func(v bool) float64 {
		if v {
			return 1
		}
		return 0
	}
	res := make([][]float64, len(out))
	for i, u := range out {
		s := st[i]
		filePlace[s.file]++
		callsNamed, calledByNamed := false, false
		for id := range s.idents {
			if id != u.Name && namedNames[id] {
				callsNamed = true
			}
		}
		if u.Name != "" {
			for j, o := range allSt {
				if o.nameW > 0 && all[j].Name != u.Name && o.idents[u.Name] {
					calledByNamed = true
					break
				}
			}
		}
		callsTop, calledByTop := false, false
		for _, j := range top3 {
			if j == i {
				continue
			}
			if n := out[j].Name; n != "" && n != u.Name && s.idents[n] {
				callsTop = true
			}
			if u.Name != "" && out[j].Name != u.Name && st[j].idents[u.Name] {
				calledByTop = true
			}
		}
		nameUses := 0
		if u.Name != "" {
			nameUses = uses[u.Name]
			if s.idents[u.Name] {
				nameUses--
			}
		}
		own := float64(max(u.Own, 1))
		fileRel := 0.0
		if fileBest[s.file] > 0 {
			fileRel = u.Score / fileBest[s.file]
		}
		share := 0.0
		if evSum[s.file] > 0 {
			share = s.raw / evSum[s.file]
		}
		kindFunc := u.Kind == "func" || u.Kind == "method"
		res[i] = []float64{
			math.Log1p(u.Score), u.Score / best, fileRel, math.Log(float64(i + 1)), math.Log(float64(filePlace[s.file])), math.Log1p(s.raw),
			math.Log(float64(max(s.rank, 1))), b(s.rank == 1), b(s.rank == 2), b(s.test), math.Log1p(float64(s.nunits)), math.Log1p(float64(evUnits[s.file])), share, b(named[s.file]),
			b(u.Kind == TopLevel), b(u.Nested && u.Kind != TopLevel), b(declKinds[u.Kind] && !u.Nested), b(kindFunc), b(!kindFunc && !declKinds[u.Kind] && u.Kind != TopLevel), b(u.Container != ""),
			math.Log1p(own), math.Log1p(float64(u.End - u.Lead + 1)), s.pos,
			float64(s.distinct), float64(s.distinct) / float64(max(len(terms), 1)), s.wsum / total, s.wmax / wtop, s.headW / total, b(s.nameW > 0), s.nameW / wtop, b(s.namePart),
			b(s.contMatch), math.Log1p(float64(s.mentions)), math.Log1p(float64(s.evLines)), float64(s.evLines) / own,
			b(callsNamed), b(calledByNamed), b(callsTop), b(calledByTop), math.Log1p(float64(max(nameUses, 0))),
			math.Log1p(float64(len(terms))), math.Log1p(total),
		}
	}
	return res
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
