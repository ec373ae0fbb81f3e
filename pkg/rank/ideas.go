package rank

import (
	"slices"
	"strings"
)

// ideas are the groups of terms that spell one idea (Term.Group). The
// ranking scores each group as one term, which stands after the plain
// terms: group k at index base+k.
type ideas struct {
	base int
	// of is each term's group, -1 for a term in none.
	of []int
	// members are each group's terms, in term order.
	members [][]int
}

// groupIdeas finds the groups of at least two terms with a positive trust
// and appends one term per group to terms and trusts. Its IDF is the
// group's (from the files that hold any spelling; without it the
// commonest spelling's), its trust that of its most trusted spelling times the
// saturated number of spellings the goal writes, n·(k3+1)/(n+k3) with k3
// = w.IdeaK3: an idea the goal spells three ways weighs more than one it
// spells once, but less than three ideas. Its origin and kind are those of
// that spelling.
func groupIdeas(terms []Term, trusts []float64, w Weights) ([]Term, []float64, ideas) {
	id := ideas{base: len(terms), of: make([]int, len(terms))}
	byGroup := map[string][]int{}
	var order []string
	for i, t := range terms {
		id.of[i] = -1
		if t.Group == "" || trusts[i] <= 0 {
			continue
		}
		if byGroup[t.Group] == nil {
			order = append(order, t.Group)
		}
		byGroup[t.Group] = append(byGroup[t.Group], i)
	}
	for _, name := range order {
		ms := byGroup[name]
		if len(ms) < 2 {
			continue
		}
		best, idf := ms[0], terms[ms[0]].IDF
		for _, m := range ms {
			id.of[m] = len(id.members)
			if trusts[m] > trusts[best] {
				best = m
			}
			idf = min(idf, terms[m].IDF)
		}
		t := terms[best]
		t.IDF = idf
		if t.GroupIDF > 0 {
			t.IDF = t.GroupIDF
		}
		n := float64(len(ms))
		terms = append(terms, t)
		trusts = append(trusts, trusts[best]*n*(w.IdeaK3+1)/(n+w.IdeaK3))
		id.members = append(id.members, ms)
	}
	return terms, trusts, id
}

// merge folds a file's evidence of each group's spellings into one
// evidence of the group's term, so the idea saturates once, and returns
// the spellings matched, by group. Mentions, definitions and definition
// lines add up: the matcher finds "type" in types too, so a mention of
// the narrower spelling counts twice, the weight its own term gave it
// (with the most any spelling has instead, replayed, SWE-bench MRR fell
// 78.9 → 78.7). Names, headings and keys count as the most any spelling
// has.
func (id ideas) merge(ev []TermEvidence) ([]TermEvidence, map[int][]int) {
	if len(id.members) == 0 {
		return ev, nil
	}
	out := make([]TermEvidence, 0, len(ev))
	at := map[int]int{}
	matched := map[int][]int{}
	for _, e := range ev {
		g := -1
		if e.Term < len(id.of) {
			g = id.of[e.Term]
		}
		if g < 0 {
			out = append(out, e)
			continue
		}
		matched[g] = append(matched[g], e.Term)
		i, ok := at[g]
		if !ok {
			at[g] = len(out)
			out = append(out, TermEvidence{Term: id.base + g})
			i = len(out) - 1
		}
		out[i] = addEvidence(out[i], e)
	}
	for g := range matched {
		slices.Sort(matched[g])
	}
	return out, matched
}

// addEvidence is a's evidence with b's: the mentions summed, the fields a
// file holds once the larger; a's term.
func addEvidence(a, b TermEvidence) TermEvidence {
	a.FileNameExact = a.FileNameExact || b.FileNameExact
	a.FileNamePart = a.FileNamePart || b.FileNamePart
	a.DirName = a.DirName || b.DirName
	a.Definitions += b.Definitions
	a.DefLines += b.DefLines
	a.Headings = max(a.Headings, b.Headings)
	a.Keys = max(a.Keys, b.Keys)
	a.Body += b.Body
	return a
}

// spellings names a group's matched spellings for a reason: "restart /
// restarts".
func spellings(terms []Term, ms []int) string {
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = terms[m].Term
	}
	return strings.Join(names, " / ")
}
