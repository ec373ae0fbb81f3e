package codegraph

import (
	"cmp"
	"fmt"
	"path"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/rtch/rtch/pkg/graph"
)

// Edge types the builder writes.
const (
	EdgeContains   = "contains"
	EdgeDefines    = "defines"
	EdgeImports    = "imports"
	EdgeCalls      = "calls"
	EdgeReferences = "references"
	EdgeEmbeds     = "embeds"
	EdgeInherits   = "inherits"
	EdgeImplements = "implements"
)

// Meta describes the tree a graph is built from.
type Meta struct {
	// Commit is the tree's HEAD commit ("" outside git).
	Commit string
	// Name and Description name the project.
	Name, Description string
	// GoModules maps a directory (relative, "." for the root) holding a
	// go.mod to its module path.
	GoModules map[string]string
}

// Unresolved is a use the builder could not tie to a node.
type Unresolved struct {
	// From is the node whose code holds the use.
	From string `json:"from"`
	// Name is the name as written ("strings.Builder", "self.run", "foo").
	Name string `json:"name"`
	// Ref is the first place it is used, "path#Lx-Lx".
	Ref string `json:"ref"`
	// Count is how many times From uses it.
	Count int `json:"count"`
}

// Stats counts what a build produced.
type Stats struct {
	Files, Nodes, Edges, Unresolved, Problems int
	// Untyped counts the selectors on local values whose type the builder
	// does not know (Go without type checking).
	Untyped int
}

// Builder collects per-file Facts and turns them into a graph.
type Builder struct {
	// Workers bounds the goroutines of the build's parallel steps (0:
	// GOMAXPROCS); the graph is the same for every value.
	Workers int
	meta    Meta
	files   map[string]Facts
}

// NewBuilder starts a graph of a tree described by meta.
func NewBuilder(meta Meta) *Builder {
	return &Builder{meta: meta, files: map[string]Facts{}}
}

// Add takes one file's facts; a later Add of the same path replaces it.
func (b *Builder) Add(f Facts) { b.files[f.Path] = f }

// Remove forgets a file.
func (b *Builder) Remove(path string) { delete(b.files, path) }

type edgeKey struct {
	src, dst int32
	typ      uint8
}

type unresKey struct {
	from int32
	name string
}

// edgeTypes are the edge types by their code in edgeKey.
var edgeTypes = []string{EdgeContains, EdgeDefines, EdgeImports, EdgeCalls, EdgeReferences, EdgeEmbeds, EdgeInherits, EdgeImplements}

var edgeCode = map[string]uint8{}

// edgeTypeOrder is each code's place among the type names in byte order,
// the order of edges between the same two nodes.
var edgeTypeOrder = make([]uint8, len(edgeTypes))

func init() {
	for i, t := range edgeTypes {
		edgeCode[t] = uint8(i)
		for _, u := range edgeTypes {
			if u < t {
				edgeTypeOrder[i]++
			}
		}
	}
}

// out is a graph under construction. Nodes are addressed by their index,
// so the hot paths hash integers, not ids. Edges and unresolved uses go
// to its part; fork gives a view with a part of its own, which a
// goroutine fills while the nodes stay as they are.
type out struct {
	nodes []*graph.Node
	index map[string]int32
	*part
	// parts are the forks' parts, in the order the sequential build
	// would have filled them, all before the main part.
	parts []*part
}

// part holds edges and unresolved uses. Two parts may hold the same edge
// or unresolved use (two vendored copies of one import path are one
// node): the output sums their counts, the first part's line first.
type part struct {
	edges map[edgeKey]float64
	unres map[unresKey]*Unresolved
	// untyped counts selectors on local values of unknown type, which are
	// not listed one by one.
	untyped int
}

// newPart sizes the maps for that many definitions and uses, so they do
// not grow by rehashing (a tenth of the build's time on GOROOT/src): every
// definition is a node and about two edges, and the edges and unresolved
// entries together are fewer than the uses.
func newPart(defs, uses int) *part {
	return &part{edges: make(map[edgeKey]float64, 2*defs+uses/2), unres: make(map[unresKey]*Unresolved, uses/8)}
}

func newOut(defs, uses int) *out {
	return &out{index: make(map[string]int32, defs), part: newPart(defs, uses)}
}

// fork is a view of o's nodes with a new part for that many uses. It may
// look nodes up, add edges and unresolved uses, never add a node; keep
// adds its part to o.
func (o *out) fork(uses int) *out {
	return &out{nodes: o.nodes, index: o.index, part: newPart(0, uses)}
}

// allParts are the parts in their order, the main one last.
func (o *out) allParts() []*part { return append(slices.Clone(o.parts), o.part) }

// node adds a node, or adds ref to the node of that id, and returns its
// index.
func (o *out) node(id, typ, name, ref, conf, summary string) int32 {
	if i, ok := o.index[id]; ok {
		n := o.nodes[i]
		if ref != "" && !hasRef(n.SourceRefs, ref) {
			n.SourceRefs = append(n.SourceRefs, ref)
		}
		return i
	}
	n := &graph.Node{ID: id, Type: typ, Name: name, Confidence: conf, Summary: summary, SourceRefs: []string{}}
	if ref != "" {
		n.SourceRefs = append(n.SourceRefs, ref)
	}
	i := int32(len(o.nodes))
	o.index[id] = i
	o.nodes = append(o.nodes, n)
	return i
}

func hasRef(refs []string, r string) bool {
	for _, x := range refs {
		if x == r {
			return true
		}
	}
	return false
}

// edge counts one more src→dst relation of type typ.
func (o *out) edge(src, dst int32, typ string) { o.edgeN(src, dst, typ, 1) }

// edgeN counts n more src→dst relations of type typ.
func (o *out) edgeN(src, dst int32, typ string, n int) {
	if src == dst || src < 0 || dst < 0 {
		return
	}
	o.edges[edgeKey{src, dst, edgeCode[typ]}] += float64(n)
}

// lookup is the index of the node id, -1 when there is none.
func (o *out) lookup(id string) int32 {
	if i, ok := o.index[id]; ok {
		return i
	}
	return -1
}

func (o *out) unresolved(from int32, name, p string, line int) { o.unresolvedN(from, name, p, line, 1) }

// unresolvedN records n uses of name by from that no edge is built for;
// the first recorded keeps its line.
func (o *out) unresolvedN(from int32, name, p string, line, n int) {
	if from < 0 {
		from = o.lookup(FileID(p))
	}
	k := unresKey{from, name}
	if u, ok := o.unres[k]; ok {
		u.Count += n
		return
	}
	o.unres[k] = &Unresolved{From: o.nodes[from].ID, Name: name, Ref: lineRef(p, line, line), Count: n}
}

func lineRef(p string, a, b int) string {
	if b < a {
		b = a
	}
	return fmt.Sprintf("%s#L%d-L%d", p, a, b)
}

// FileID is the node id of a file.
func FileID(p string) string { return "file:" + p }

// Build resolves every file's facts into a graph: the nodes sorted by id,
// the edges by source, target and type, the unresolved uses by node and
// name.
func (b *Builder) Build() (graph.File, []Unresolved, Stats) {
	paths := make([]string, 0, len(b.files))
	defs, uses := 0, 0
	for p, f := range b.files {
		paths = append(paths, p)
		defs += len(f.Defs) + 1
		uses += len(f.Imports)
		if f.Lang != "go" { // Go's uses go to the packages' parts
			uses += len(f.Uses)
		}
	}
	o := newOut(defs, uses)
	sort.Strings(paths)
	st := Stats{}
	byLang := map[string][]*Facts{}
	for _, p := range paths {
		f := b.files[p]
		if f.Lang == "" {
			continue
		}
		st.Files++
		if f.Problem != "" {
			st.Problems++
		}
		o.node(FileID(p), "file", p, lineRef(p, 1, max(f.Lines, 1)), "high", f.Lang+" file")
		fc := f
		group := f.Lang
		switch group {
		case "typescript":
			group = "javascript"
		case "cpp":
			group = "c"
		}
		byLang[group] = append(byLang[group], &fc)
	}
	newGoResolver(b.meta, byLang["go"]).resolve(o, b.Workers)
	newPyResolver(byLang["python"]).resolve(o)
	resolvePatterned(o, byLang, b.files)
	return o.file(b.meta, &st, b.Workers)
}

// file sorts what o holds into the output document. The sorting and the
// copying into the document's slices run on up to workers goroutines over
// disjoint parts; the result does not depend on their number.
func (o *out) file(meta Meta, st *Stats, workers int) (graph.File, []Unresolved, Stats) {
	var f graph.File
	f.Version = []byte(`"` + graph.Version + `"`)
	f.Kind = "codebase"
	f.GeneratedFromCommit = meta.Commit
	f.Project.Name = meta.Name
	f.Project.Description = meta.Description
	order := make([]int32, len(o.nodes))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(o.nodes[a].ID, o.nodes[b].ID) })
	rank := make([]int32, len(o.nodes))
	f.Nodes = make([]graph.Node, len(order))
	parallelRanges(len(order), workers, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			i := order[r]
			rank[i] = int32(r)
			n := o.nodes[i]
			sort.Strings(n.SourceRefs)
			f.Nodes[r] = *n
		}
	})
	keys := o.sortedEdges(rank, workers)
	f.Edges = make([]graph.Edge, len(keys))
	parallelRanges(len(keys), workers, func(lo, hi int) {
		for i, k := range keys[lo:hi] {
			f.Edges[lo+i] = graph.Edge{Source: f.Nodes[k.src].ID, Target: f.Nodes[k.dst].ID, Type: edgeTypes[k.typ], Direction: "out", Weight: k.w}
		}
	})
	us, untyped := o.sortedUnresolved()
	st.Nodes, st.Edges, st.Unresolved, st.Untyped = len(f.Nodes), len(f.Edges), len(us), untyped
	return f, us, *st
}

// sortedUnresolved lists the unresolved uses by node and name, one per
// pair: the line of the first part that has it, the parts' counts summed.
func (o *out) sortedUnresolved() ([]Unresolved, int) {
	var us []Unresolved
	untyped := 0
	for _, p := range o.allParts() {
		untyped += p.untyped
		for _, u := range p.unres {
			us = append(us, *u)
		}
	}
	// Stable: of two parts' entries for one pair, the first part's first.
	slices.SortStableFunc(us, compareUnresolved)
	return mergeRuns(us, compareUnresolved, func(into *Unresolved, u Unresolved) { into.Count += u.Count }), untyped
}

func compareUnresolved(a, b Unresolved) int {
	if c := strings.Compare(a.From, b.From); c != 0 {
		return c
	}
	return strings.Compare(a.Name, b.Name)
}

// rankedEdge is an edge between nodes by their place in the sorted
// nodes, with its weight.
type rankedEdge struct {
	src, dst int32
	typ      uint8
	w        float64
}

// sortedEdges lists the edges by source, target and type name, the
// endpoints given by their rank, one per triple with the parts' weights
// summed. The edges are dealt into one bucket per worker by ranges of the
// source's rank, and the buckets, which follow each other in the order,
// are sorted at the same time.
func (o *out) sortedEdges(rank []int32, workers int) []rankedEdge {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	parts := o.allParts()
	total := 0
	for _, p := range parts {
		total += len(p.edges)
	}
	nb := max(1, min(workers, total/(4*chunkLines)))
	span := int32(len(rank)/nb + 1)
	count := make([]int, nb+1)
	for _, p := range parts {
		for k := range p.edges {
			count[rank[k.src]/span+1]++
		}
	}
	for b := 1; b <= nb; b++ {
		count[b] += count[b-1]
	}
	keys := make([]rankedEdge, total)
	fill := slices.Clone(count[:nb])
	for _, p := range parts {
		for k, w := range p.edges {
			s := rank[k.src]
			b := s / span
			keys[fill[b]] = rankedEdge{s, rank[k.dst], k.typ, w}
			fill[b]++
		}
	}
	var wg sync.WaitGroup
	for b := range nb {
		wg.Add(1)
		go func(part []rankedEdge) {
			defer wg.Done()
			slices.SortFunc(part, compareEdges)
		}(keys[count[b]:count[b+1]])
	}
	wg.Wait()
	return mergeRuns(keys, compareEdges, func(into *rankedEdge, k rankedEdge) { into.w += k.w })
}

// mergeRuns folds each run of equal elements of a sorted slice into its
// first, in place: add(first, next) for every next of the run.
func mergeRuns[T any](s []T, cmp func(a, b T) int, add func(into *T, x T)) []T {
	merged := s[:0]
	for _, x := range s {
		if n := len(merged); n > 0 && cmp(merged[n-1], x) == 0 {
			add(&merged[n-1], x)
			continue
		}
		merged = append(merged, x)
	}
	return merged
}

func compareEdges(a, b rankedEdge) int {
	if a.src != b.src {
		return cmp.Compare(a.src, b.src)
	}
	if a.dst != b.dst {
		return cmp.Compare(a.dst, b.dst)
	}
	return cmp.Compare(edgeTypeOrder[a.typ], edgeTypeOrder[b.typ])
}

// nodeType maps a definition kind to a node type.
func nodeType(kind string) string {
	switch kind {
	case "func":
		return "function"
	case "":
		return "symbol"
	}
	return kind
}

// dirOf is the directory of a slash path ("." at the root).
func dirOf(p string) string { return path.Dir(p) }
