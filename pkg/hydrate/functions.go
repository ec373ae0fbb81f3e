package hydrate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rtch/rtch/pkg/fnrank"
	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/symbols"
)

// Windows follow functions: on the best surfaces, the definitions are
// ranked by the evidence inside them (pkg/fnrank) and read in that order,
// each whole when it fits (its lead lines to its closing line), a long one
// as its signature and a window around its best evidence; the file's top
// level (imports, declarations, tables) keeps the windows around its
// anchors. A change lands in a function far more often than around a
// line where the goal's words happen to cluster (docs/decisions/functions.md).

// fnFiles is how many of the ranked surfaces have their definitions
// ranked.
const fnFiles = 10

// MaxRankedFunctions is how many ranked definitions rtch.functions (and
// the packet's ranked_functions) carries.
const MaxRankedFunctions = 20

// wholeFunctionLines: a definition of at most this many lines, lead lines
// included, is read whole; a longer one as its signature and windows
// around its evidence.
const wholeFunctionLines = 600

// maxSignatureLines caps the head read of a long definition.
const maxSignatureLines = 8

// topLevelWindows is how many windows the top level's evidence gets.
const topLevelWindows = 2

// container reports whether u holds other definitions and is not itself
// a function: a class, an impl block or a module is read by its head and
// evidence, while a function is read whole with the closures inside it.
func container(u *rankedUnit) bool {
	return u.Nested && u.Kind != "func" && u.Kind != "method"
}

// rankedUnit is one of a surface's ranked definitions with its place in
// the whole ranking.
type rankedUnit struct {
	fnrank.Unit
	rank int // 1-based, among all ranked definitions
}

// rankFunctions ranks the definitions of the first fnFiles readable code
// surfaces in rank order (the known target keeps its own range), gives
// each surface its units in ranking order, and returns the ranking's first
// MaxRankedFunctions entries.
func (h *hydrator) rankFunctions(surfaces []*surface) []schema.RankedFunction {
	files, by := functionFiles(surfaces)
	if len(files) == 0 {
		return []schema.RankedFunction{}
	}
	terms := fnrank.Terms(h.in.Candidates)
	var units []fnrank.Unit
	var err error
	if h.o.LearnedFunctions {
		units, err = fnrank.RankLearned(files, terms)
	}
	if !h.o.LearnedFunctions || err != nil {
		// The shipped model is checked by fnrank's tests; a build without
		// it reads by the hand-written order.
		units = fnrank.Rank(files, terms, fnrank.Weights{})
	}
	out := []schema.RankedFunction{}
	if !slices.ContainsFunc(units, func(u fnrank.Unit) bool { return u.Kind != fnrank.TopLevel }) {
		// No definition holds evidence: the windows around the anchors
		// read the files as before.
		return out
	}
	for i, u := range units {
		sf := by[u.Path]
		sf.units = append(sf.units, rankedUnit{Unit: u, rank: i + 1})
		h.ranked = append(h.ranked, sf)
		if len(out) < MaxRankedFunctions {
			out = append(out, RankedFunction(u))
		}
	}
	return out
}

// functionFiles are the first fnFiles readable code surfaces whose
// definitions are ranked, in rank order (the known target keeps its own
// range), and the surface of each path.
func functionFiles(surfaces []*surface) ([]fnrank.File, map[string]*surface) {
	var files []fnrank.File
	by := map[string]*surface{}
	for _, sf := range surfaces {
		if len(files) == fnFiles {
			break
		}
		if sf.file == nil || sf.known || sf.rs.Rank < 1 || symbols.Lang(sf.rs.Path) == "" {
			continue
		}
		files = append(files, fnrank.File{Path: sf.rs.Path, Rank: sf.rs.Rank, Data: sf.file.Data, Defs: sf.definitions()})
		by[sf.rs.Path] = sf
	}
	return files, by
}

// RankedFunction is a ranked unit as the record carries it.
func RankedFunction(u fnrank.Unit) schema.RankedFunction {
	why := u.Why
	if why == nil {
		why = []string{}
	}
	return schema.RankedFunction{Path: u.Path, Name: u.Name, Kind: u.Kind, StartLine: u.Start, EndLine: u.End, Score: u.Score, Why: why}
}

// FunctionsRecord is the rtch.functions record of a hydration's ranking.
func FunctionsRecord(fs []schema.RankedFunction) schema.Functions {
	ids := make([]string, 0, len(fs))
	for _, f := range fs {
		ids = append(ids, fmt.Sprintf("%s:%d", f.Path, f.StartLine))
	}
	return schema.Functions{Envelope: record.Env(schema.KindFunctions, schema.V1, strings.Join(ids, ",")), Functions: fs}
}

// functionSteps lists the reads of a surface's ranked units, best first,
// none overlapping another: a definition whole, or its signature and a
// window around its best evidence when it is long; a definition that
// holds others (a class) its head down to the first of them, and a window
// around its best evidence below that; the top level its anchor windows
// (topLevelWindows).
func (h *hydrator) functionSteps(sf *surface, segs []segment) []*step {
	var planned []segment
	var steps []*step
	add := func(sg segment, u *rankedUnit, part string) {
		sg, ok := clipTo(sg, planned)
		if !ok {
			return
		}
		planned = append(planned, sg)
		st := &step{seg: sg, unit: u, part: part}
		h.estimate(sf, st)
		steps = append(steps, st)
	}

	w := h.o.Window
	for i := range sf.units {
		u := &sf.units[i]
		switch {
		case u.Kind == fnrank.TopLevel:
			for _, sg := range h.topLevelWindows(sf, segs, u) {
				add(sg, u, "top level")
			}
		case !container(u) && u.End-u.Lead < wholeFunctionLines:
			add(segment{s: u.Lead, e: u.End, target: u.Start, anchors: []int{u.Start}}, u, "whole")
		default:
			head := min(u.End, u.Start+maxSignatureLines-1, u.Lead+2*w)
			if container(u) {
				head = min(u.End, u.Lead+2*w, h.firstNested(sf, u)-1)
			}
			add(segment{s: u.Lead, e: head, target: u.Start, anchors: []int{u.Start}}, u, "head")
			for _, l := range u.Evidence[:min(len(u.Evidence), 2)] {
				if l > head {
					add(segment{s: max(head+1, l-w), e: min(u.End, l+w), target: l, anchors: []int{l}}, u, "evidence")
				}
			}
		}
	}
	return steps
}

// clipTo clips sg against the planned segments: nothing when its target
// is already planned, else the part around its target that none holds.
func clipTo(sg segment, planned []segment) (segment, bool) {
	for _, o := range planned {
		if sg.target >= o.s && sg.target <= o.e {
			return sg, false
		}
	}
	for _, o := range planned {
		if o.e < sg.target && o.e >= sg.s {
			sg.s = o.e + 1
		}
		if o.s > sg.target && o.s <= sg.e {
			sg.e = o.s - 1
		}
	}
	return sg, sg.s <= sg.e
}

// definitions are the surface's definitions with their extents
// (symbols.Defs), once.
func (sf *surface) definitions() []symbols.Def {
	if sf.fdefs == nil {
		sf.fdefs = symbols.Defs(sf.rs.Path, sf.file.Data)
		if sf.fdefs == nil {
			sf.fdefs = []symbols.Def{}
		}
	}
	return sf.fdefs
}

// topLevelWindows are the reads of a surface's top level: the anchor
// windows (segs) whose target lies outside every definition, as the lane
// reads code without definitions, at most topLevelWindows of them; else
// windows around the top level's heaviest evidence lines; else the
// file's head.
func (h *hydrator) topLevelWindows(sf *surface, segs []segment, u *rankedUnit) []segment {
	var out []segment
	for _, sg := range segs {
		if len(out) == topLevelWindows {
			return out
		}
		if sg.target >= 1 && symbols.Innermost(sf.definitions(), sg.target) < 0 {
			out = append(out, sg)
		}
	}
	if len(out) > 0 {
		return out
	}
	w, n := h.o.Window, sf.file.Lines()
	for _, l := range u.Evidence[:min(len(u.Evidence), topLevelWindows)] {
		out = append(out, segment{s: max(1, l-w), e: min(n, l+w), target: l, anchors: []int{l}})
	}
	if len(out) == 0 {
		out = append(out, segment{s: 1, e: min(n, 2*w+1), target: 1, anchors: []int{1}})
	}
	return out
}

// firstNested is the first lead line of a definition inside u (u.End+1
// when none is).
func (h *hydrator) firstNested(sf *surface, u *rankedUnit) int {
	first := u.End + 1
	for _, d := range sf.definitions() {
		if d.Lead > u.Start && d.End <= u.End {
			first = min(first, d.Lead)
		}
	}
	return first
}

// unitWhy says which ranked definition a step reads, and how much of it.
func unitWhy(st *step) string {
	u := st.unit
	what := fmt.Sprintf("%s %s (L%d-L%d)", u.Kind, u.Name, u.Start, u.End)
	if u.Kind == fnrank.TopLevel {
		what = "the file's top level (lines outside every definition)"
	}
	lifted := ""
	if len(u.Why) > 0 {
		lifted = ": " + strings.Join(u.Why, "; ")
	}
	rank := fmt.Sprintf("ranked %d among the functions (score %.2f%s)", u.rank, u.Score, lifted)
	switch st.part {
	case "whole":
		return fmt.Sprintf("%s, read whole; %s", what, rank)
	case "head":
		return fmt.Sprintf("the head of %s, too long to read whole; %s", what, rank)
	case "evidence":
		return fmt.Sprintf("inside %s, around its evidence at L%d; %s", what, st.seg.target, rank)
	}
	return fmt.Sprintf("%s, around L%d; %s", what, st.seg.target, rank)
}

// fillByFunctions spends the budget in the order of the ranked
// definitions: the known target's first chunk and further windows first,
// then each ranked definition's reads in ranking order (a surface read
// whole takes its whole file when its best definition comes up), a read
// that does not fit passed over for the next; then the first chunk of
// every other surface in rank order, their further windows round-robin,
// and last, with budget left, context next to the ranges read (deepen).
func (h *hydrator) fillByFunctions(surfaces []*surface) {
	for _, sf := range surfaces {
		if sf.known && len(sf.steps) > 0 {
			for k := 0; k <= topDepth && h.take(sf, h.o.Budget); k++ {
			}
		}
	}
	for i, sf := range h.ranked {
		rank := i + 1
		for sf.next < len(sf.steps) {
			st := sf.steps[sf.next]
			if st.unit == nil && sf.next > 0 || st.unit != nil && st.unit.rank != rank {
				break
			}
			if !st.built && st.cost > 2*(h.o.Budget-h.spent) {
				// Priced at twice what is left: building it (redaction,
				// the injection scan) only to pass it over is most of a
				// lane's hydration time once the budget is nearly spent.
				sf.passed = append(sf.passed, st)
				sf.next++
				continue
			}
			if !h.take(sf, h.o.Budget) && sf.next < len(sf.steps) && sf.steps[sf.next] == st {
				sf.passed = append(sf.passed, st)
				sf.next++
			}
		}
	}
	h.fillRest(surfaces)
}

// definedUnits reports whether the ranking lists a definition of the
// surface (not only its top level): then its reads follow its definitions.
func definedUnits(sf *surface) bool {
	return slices.ContainsFunc(sf.units, func(u rankedUnit) bool { return u.Kind != fnrank.TopLevel })
}

// FunctionFeatures are the ranked definitions hydration would read by, in
// the hand-written order, with each one's feature row
// (fnrank.FeatureNames): what a learned function ranking is trained on.
func FunctionFeatures(in *Input, o Options) ([]fnrank.Unit, [][]float64, error) {
	if in.Rank == nil {
		return nil, nil, ErrNoRank
	}
	if in.Zone == nil {
		return nil, nil, ErrNoZone
	}
	h := &hydrator{in: in, o: o, perProbe: map[string]int{}, heldView: map[string]bool{}, read: map[string]int{}}
	h.index()
	surfaces := h.surfaces()
	for _, sf := range surfaces {
		h.load(sf)
	}
	files, _ := functionFiles(surfaces)
	if len(files) == 0 {
		return nil, nil, nil
	}
	units, rows := fnrank.RankFeatures(files, fnrank.Terms(h.in.Candidates), fnrank.Weights{})
	return units, rows, nil
}
