package codegraph

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

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
	meta  Meta
	files map[string]Facts
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
// so the hot paths hash integers, not ids.
type out struct {
	nodes []*graph.Node
	index map[string]int32
	edges map[edgeKey]float64
	unres map[unresKey]*Unresolved
	// untyped counts selectors on local values of unknown type, which are
	// not listed one by one.
	untyped int
}

// newOut sizes the maps for a tree of that many definitions and uses, so
// they do not grow by rehashing (a tenth of the build's time on
// GOROOT/src): every definition is a node and about two edges, and the
// edges and unresolved entries together are fewer than the uses.
func newOut(defs, uses int) *out {
	return &out{index: make(map[string]int32, defs), edges: make(map[edgeKey]float64, 2*defs+uses/2),
		unres: make(map[unresKey]*Unresolved, uses/8)}
}

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
		uses += len(f.Uses) + len(f.Imports)
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
	newGoResolver(b.meta, byLang["go"]).resolve(o)
	newPyResolver(byLang["python"]).resolve(o)
	resolvePatterned(o, byLang, b.files)
	return o.file(b.meta, &st)
}

// file sorts what o holds into the output document.
func (o *out) file(meta Meta, st *Stats) (graph.File, []Unresolved, Stats) {
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
	f.Nodes = make([]graph.Node, 0, len(order))
	for r, i := range order {
		rank[i] = int32(r)
		n := o.nodes[i]
		sort.Strings(n.SourceRefs)
		f.Nodes = append(f.Nodes, *n)
	}
	keys := make([]edgeKey, 0, len(o.edges))
	for k := range o.edges {
		keys = append(keys, edgeKey{rank[k.src], rank[k.dst], k.typ})
	}
	slices.SortFunc(keys, func(a, b edgeKey) int {
		if a.src != b.src {
			return cmp.Compare(a.src, b.src)
		}
		if a.dst != b.dst {
			return cmp.Compare(a.dst, b.dst)
		}
		return cmp.Compare(edgeTypeOrder[a.typ], edgeTypeOrder[b.typ])
	})
	f.Edges = make([]graph.Edge, 0, len(keys))
	for _, k := range keys {
		w := o.edges[edgeKey{order[k.src], order[k.dst], k.typ}]
		f.Edges = append(f.Edges, graph.Edge{Source: f.Nodes[k.src].ID, Target: f.Nodes[k.dst].ID, Type: edgeTypes[k.typ], Direction: "out", Weight: w})
	}
	us := make([]Unresolved, 0, len(o.unres))
	for _, u := range o.unres {
		us = append(us, *u)
	}
	sort.Slice(us, func(i, j int) bool {
		if us[i].From != us[j].From {
			return us[i].From < us[j].From
		}
		return us[i].Name < us[j].Name
	})
	st.Nodes, st.Edges, st.Unresolved, st.Untyped = len(f.Nodes), len(f.Edges), len(us), o.untyped
	return f, us, *st
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
