// Package fnrank ranks the definitions of a lane's best files by the
// evidence in their bodies and signatures, so that a reader (rtch-hydrate,
// an agent) takes in the units a change lands in rather than fixed windows
// around hits.
//
// Every line of a file belongs to one unit: the innermost definition that
// holds it (symbols.Defs: functions, methods, types, classes, with their
// lead lines), or the file's top level (imports, package-level
// declarations, tables). A unit's evidence is what its own lines hold of
// the goal's terms: each term's weight (its rarity and how the goal wrote
// it) times its rarity among the file's units, saturated over the number
// of mentions and normalised by the unit's length; terms on the head line
// (the signature) count once more, and a name the goal writes counts three
// times its weight. Units of the best files count more than those of files
// further down (the file's rank); those of a test file, and a type that
// only declares a shape, count less. The weights were chosen on the shared
// evaluation tasks (docs/decisions/functions.md).
package fnrank

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/rtch/rtch/pkg/match"
	"github.com/rtch/rtch/pkg/rank"
	"github.com/rtch/rtch/pkg/symbols"
)

// TopLevel is the kind of a file's top-level unit.
const TopLevel = "top_level"

// Term is one goal term as the function ranking weighs it.
type Term struct {
	Term string
	// Weight is the term's rarity times how the goal wrote it (Weigh).
	Weight float64
}

// File is one ranked surface to read the units of.
type File struct {
	// Path is relative to the zone root; Rank is the surface's 1-based rank.
	Path string
	Rank int
	// Data is the file's bytes.
	Data []byte
	// Defs are its definitions (symbols.Defs of Path and Data); nil reads
	// them from Data.
	Defs []symbols.Def
}

// Unit is one ranked definition, or a file's top level.
type Unit struct {
	Path string
	// Name is the defined name ("" for the top level); Container the
	// receiver type or enclosing class when known.
	Name, Container string
	// Kind is the definition's kind (func, method, class, type, …) or
	// TopLevel.
	Kind string
	// Lead is the first line of the doc, comment or decorator lines above
	// the head; Start the head line; End the body's last line. The top
	// level spans the whole file.
	Lead, Start, End int
	// Score is the unit's evidence times its file's factor; Why names what
	// lifted it, strongest first.
	Score float64
	Why   []string
	// Evidence lists the unit's own lines that hold a goal term, the
	// heaviest first (their terms' weights summed), at most maxEvidence.
	Evidence []int
	// Nested is true when other units lie inside this one (a class and its
	// methods): its own lines are not contiguous.
	Nested bool
	// Own is the number of the unit's own lines.
	Own int
}

// Weights are the ranking's tunable numbers.
type Weights struct {
	// K1 saturates a term's mentions; B normalises by the unit's own
	// length against AvgLines.
	K1, B, AvgLines float64
	// Head adds each term on the head line once more; Name adds this many
	// times the weight of a term the unit's name equals.
	Head, Name float64
	// TopLevel and Container scale the evidence of a file's top level and
	// of a unit that holds others (a class): their own lines are a
	// docstring or declarations that mention everything, and a change
	// lands there less often than in a function.
	TopLevel, Container float64
	// FileFactor scales a unit by its file's rank (index rank-1); files
	// further down take the last factor.
	FileFactor []float64
	// BestTopLevel is the highest position the best file's top level is
	// lifted to (0: not lifted): imports and declarations of the file a
	// fix lands in change with it in about one task in six.
	BestTopLevel int
	// Test scales the units of a test file (rank.IsTest): the goal's
	// words are in the tests of the code that changes, and the change is
	// in that code. Decl scales a type, struct, interface or enum that
	// holds no other definition: it names the goal's words, and the code
	// that uses it is where a fix lands.
	Test, Decl float64
}

// Default are the weights in use (docs/decisions/functions.md).
var Default = Weights{K1: 1.2, B: 0.3, AvgLines: 30, Head: 1, Name: 3, TopLevel: 0.5, Container: 0.5,
	FileFactor: []float64{1, 0.5, 0.35, 0.2}, BestTopLevel: 4, Test: 0.3, Decl: 0.5}

// declKinds are the kinds of definitions that declare a shape rather
// than hold code.
var declKinds = map[string]bool{"type": true, "struct": true, "interface": true, "enum": true}

// maxEvidence caps the evidence lines kept per unit.
const maxEvidence = 8

// Rank returns the units of files that hold evidence of terms, best first
// (ties by path and line), and the best file's top level at BestTopLevel
// at the latest. A zero Weights means Default.
func Rank(files []File, terms []Term, w Weights) []Unit {
	out, _ := RankFeatures(files, terms, w)
	return out
}

// RankFeatures is Rank with each unit's feature row (FeatureNames), for a
// learned model to order them.
func RankFeatures(files []File, terms []Term, w Weights) ([]Unit, [][]float64) {
	if w.K1 == 0 {
		w = Default
	}
	names := make([]string, len(terms))
	for i, t := range terms {
		names[i] = t.Term
	}
	m := match.New(names)
	// The names every file defines, for the call graph among them.
	defs := make([][]symbols.Def, len(files))
	defNames := map[string]bool{}
	for i, f := range files {
		defs[i] = f.Defs
		if defs[i] == nil {
			defs[i] = symbols.Defs(f.Path, f.Data)
		}
		for _, d := range defs[i] {
			if len(d.Name) >= 3 {
				defNames[d.Name] = true
			}
		}
	}
	type cand struct {
		u  Unit
		st *unitStats
	}
	var out []cand
	var all []Unit
	var allSt []*unitStats
	var bestTop *cand
	for fi, f := range files {
		us, sts := fileUnits(f, defs[fi], terms, m, w, defNames)
		for i := range us {
			sts[i].file = fi
			all = append(all, us[i])
			allSt = append(allSt, sts[i])
			if us[i].Kind == TopLevel && f.Rank == 1 && w.BestTopLevel > 0 {
				bestTop = &cand{us[i], sts[i]}
				continue
			}
			if us[i].Score > 0 {
				out = append(out, cand{us[i], sts[i]})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b cand) int {
		if c := cmp.Compare(b.u.Score, a.u.Score); c != 0 {
			return c
		}
		if c := strings.Compare(a.u.Path, b.u.Path); c != 0 {
			return c
		}
		return cmp.Compare(a.u.Start, b.u.Start)
	})
	if bestTop != nil {
		at := len(out)
		for i, c := range out {
			if c.u.Score < bestTop.u.Score {
				at = i
				break
			}
		}
		if at >= w.BestTopLevel || bestTop.u.Score == 0 {
			at = min(at, w.BestTopLevel-1)
			bestTop.u.Why = append(bestTop.u.Why, "the best file's imports and declarations")
		}
		out = slices.Insert(out, min(at, len(out)), *bestTop)
	}
	units := make([]Unit, len(out))
	sts := make([]*unitStats, len(out))
	for i, c := range out {
		units[i], sts[i] = c.u, c.st
	}
	return units, rows(units, sts, all, allSt, terms)
}

// unitEvidence is what one unit's own lines hold.
type unitEvidence struct {
	tf   map[int]int // term → mentions in own lines
	head map[int]bool
	line map[int]float64 // own line → summed weight of its terms
}

// fileUnits scores the units of one file.
func fileUnits(f File, defs []symbols.Def, terms []Term, m *match.Matcher, w Weights, defNames map[string]bool) ([]Unit, []*unitStats) {
	lines := bytes.Count(f.Data, []byte("\n"))
	if len(f.Data) > 0 && f.Data[len(f.Data)-1] != '\n' {
		lines++
	}
	units := make([]Unit, len(defs)+1)
	for i, d := range defs {
		units[i] = Unit{Path: f.Path, Name: d.Name, Container: d.Container, Kind: d.Kind, Lead: d.Lead, Start: d.Line, End: d.End}
	}
	top := len(defs)
	units[top] = Unit{Path: f.Path, Kind: TopLevel, Lead: 1, Start: 1, End: max(1, lines)}
	owner := owners(defs, lines, units)
	ev := make([]unitEvidence, len(units))
	for i := range ev {
		ev[i] = unitEvidence{tf: map[int]int{}, head: map[int]bool{}, line: map[int]float64{}}
	}
	starts := lineStarts(f.Data)
	// The matches come in text order: the terms of the current line, so
	// that a term adds its weight to a line once.
	// A term's spellings (parse_flags, parseFlags) may match at the same
	// place: a mention counts once.
	type mention struct{ t, s int }
	cur, onLine, seen := 0, []int(nil), []mention(nil)
	m.Scan(f.Data, func(t, s, _ int) bool {
		l := lineOf(starts, s)
		if l != cur {
			cur, onLine, seen = l, onLine[:0], seen[:0]
		}
		if slices.Contains(seen, mention{t, s}) {
			return true
		}
		seen = append(seen, mention{t, s})
		u := owner[l]
		e := &ev[u]
		if !slices.Contains(onLine, t) {
			onLine = append(onLine, t)
			e.line[l] += terms[t].Weight
		}
		e.tf[t]++
		if u != top && l == defs[u].Line {
			e.head[t] = true
		}
		return true
	})
	// df of each term among the file's units, for its rarity inside the file.
	df := make([]int, len(terms))
	for i := range ev {
		for t := range ev[i].tf {
			df[t]++
		}
	}
	factor := w.FileFactor[min(max(f.Rank, 1), len(w.FileFactor))-1]
	test := rank.IsTest(f.Path)
	if test {
		factor *= w.Test
	}
	sts := make([]*unitStats, len(units))
	for i := range units {
		sts[i] = &unitStats{rank: f.Rank, test: test, nunits: len(units), idents: map[string]bool{}}
		units[i].Score, units[i].Why, sts[i].raw = score(&units[i], &ev[i], terms, df, len(units), w)
		units[i].Score = math.Round(units[i].Score*factor*10000) / 10000
		units[i].Evidence = heaviest(ev[i].line)
		stats(sts[i], &units[i], &ev[i], terms, lines)
	}
	identifiers(f.Data, defNames, func(id string, at int) {
		sts[owner[lineOf(starts, at)]].idents[id] = true
	})
	return units, sts
}

// stats fills what a unit's evidence says beyond its score.
func stats(s *unitStats, u *Unit, e *unitEvidence, terms []Term, lines int) {
	for t, n := range e.tf {
		w := terms[t].Weight
		s.distinct++
		s.wsum += w
		s.wmax = max(s.wmax, w)
		s.mentions += n
		if e.head[t] {
			s.headW += w
		}
		if u.Name != "" && sameName(u.Name, terms[t].Term) {
			s.nameW = max(s.nameW, w)
		}
	}
	for _, t := range terms {
		if u.Name != "" && namePart(u.Name, t.Term) {
			s.namePart = true
		}
		if u.Container != "" && sameName(u.Container, t.Term) {
			s.contMatch = true
		}
	}
	for l := range e.line {
		if l > 0 {
			s.evLines++
		}
	}
	if u.Kind != TopLevel && lines > 1 {
		s.pos = float64(u.Start-1) / float64(lines-1)
	}
}

// owners maps each line to the index of its innermost unit (the top level
// is the last index) and counts each unit's own lines.
func owners(defs []symbols.Def, lines int, units []Unit) []int {
	top := len(defs)
	owner := make([]int, lines+2)
	for l := range owner {
		owner[l] = top
	}
	// Definitions come in head order and nest or are disjoint, so a later
	// one inside an earlier one overwrites its lines.
	for i, d := range defs {
		for l := max(1, d.Lead); l <= min(d.End, lines); l++ {
			if o := owner[l]; o != top && o != i {
				units[o].Nested = true
			}
			owner[l] = i
		}
	}
	for l := 1; l <= lines; l++ {
		units[owner[l]].Own++
	}
	return owner
}

// score is a unit's evidence before its file's factor, and the reasons.
// The third value is the evidence before the kind's factor.
func score(u *Unit, e *unitEvidence, terms []Term, df []int, nunits int, w Weights) (float64, []string, float64) {
	type part struct {
		term   string
		score  float64
		fields []string
	}
	var parts []part
	norm := 1 - w.B + w.B*float64(max(u.Own, 1))/w.AvgLines
	local := math.Log(1 + float64(nunits))
	for t, n := range e.tf {
		tr := terms[t]
		inFile := 1.0
		if nunits > 1 {
			inFile = math.Log(1+float64(nunits)/float64(df[t])) / local
		}
		tf := float64(n) / norm
		p := part{term: tr.Term, score: tr.Weight * inFile * tf * (w.K1 + 1) / (tf + w.K1), fields: []string{fmt.Sprintf("body×%d", n)}}
		if e.head[t] {
			p.score += tr.Weight * w.Head
			p.fields = append([]string{"signature"}, p.fields...)
		}
		if u.Name != "" && sameName(u.Name, tr.Term) {
			p.score += tr.Weight * w.Name
			p.fields = append([]string{"name"}, p.fields...)
		}
		parts = append(parts, p)
	}
	slices.SortFunc(parts, func(a, b part) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return strings.Compare(a.term, b.term)
	})
	s := 0.0
	var why []string
	for i, p := range parts {
		s += p.score
		if i < 3 {
			why = append(why, fmt.Sprintf("%s (%s)", p.term, strings.Join(p.fields, ", ")))
		}
	}
	raw := s
	switch {
	case u.Kind == TopLevel:
		s *= w.TopLevel
	case u.Nested:
		s *= w.Container
	case declKinds[u.Kind]:
		s *= w.Decl
	}
	return s, why, raw
}

// sameName reports whether a definition's name is the term, its last
// dotted part (cfg.Hosts names Hosts) or its spelling without separators
// (parse_args names parseArgs).
func sameName(name, term string) bool {
	if i := strings.LastIndexByte(term, '.'); i >= 0 {
		term = term[i+1:]
	}
	return strings.EqualFold(squash(name), squash(term))
}

func squash(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' {
			return -1
		}
		return r
	}, strings.TrimSuffix(s, "()"))
}

// heaviest lists the lines of weights, heaviest first (lower line first
// among equals), at most maxEvidence.
func heaviest(weights map[int]float64) []int {
	var ls []int
	for l := range weights {
		if l > 0 {
			ls = append(ls, l)
		}
	}
	slices.SortFunc(ls, func(a, b int) int {
		if c := cmp.Compare(weights[b], weights[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	return ls[:min(len(ls), maxEvidence)]
}

func lineStarts(data []byte) []int {
	starts := []int{0}
	for i, b := range data {
		if b == '\n' && i+1 < len(data) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineOf is the 1-based line holding byte offset off.
func lineOf(starts []int, off int) int {
	i, found := slices.BinarySearch(starts, off)
	if found {
		return i + 1
	}
	return i
}
