package graph

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/rtch/rtch/pkg/bm25"
	"github.com/rtch/rtch/pkg/tokens"
)

// Hit is one node selected by a query, with the text that represents it.
type Hit struct {
	// Node is the selected node.
	Node Node
	// Score is in [0,1].
	Score float64
	// Depth is the hop count from the nearest seed (0 for a seed).
	Depth int
	// Relation says how the node was reached ("calls pkg.Parse"), if not a seed.
	Relation string
	// Text is the node rendered for a prompt.
	Text string
	// Tokens is tokens.Estimate(Text).
	Tokens int
}

// Options bound a query.
type Options struct {
	// MaxTokens caps the sum of Hit.Tokens (1,200 when zero).
	MaxTokens int
	// MaxDepth bounds the traversal in hops (2 when zero).
	MaxDepth int
	// MaxNodes caps the number of hits (no cap when zero).
	MaxNodes int
	// MinImportance drops nodes whose importance is set and below it.
	MinImportance int
}

func (o Options) withDefaults(depth int) Options {
	if o.MaxTokens <= 0 {
		o.MaxTokens = 1200
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = depth
	}
	return o
}

// maxSeeds is how many best-matching nodes start the traversal.
const maxSeeds = 5

// decay scales a neighbour's score per hop.
const decay = 0.5

// Query is the token-scored traversal: nodes are scored by BM25 (recall
// parameters) over their id, name, type, summary and source refs; the best
// few seed a breadth-first expansion in both directions where each hop
// multiplies the score by decay and the edge weight (capped at 1). Hits come
// best first and stop before the token cap would be exceeded. The seed score
// is the BM25 score normalised by its attainable maximum (package bm25).
func (g *Graph) Query(q string, opt Options) []Hit {
	opt = opt.withDefaults(2)
	terms := bm25.Terms(q)
	if len(terms) == 0 || len(g.Nodes) == 0 {
		return nil
	}
	ix := bm25.New(bm25.Recall)
	for _, n := range g.Nodes {
		ix.Add(bm25.Terms(n.ID + " " + n.Name + " " + n.Type + " " + n.Summary + " " + strings.Join(n.SourceRefs, " ")))
	}
	res := ix.Search(terms, maxSeeds)
	best := map[int]*Hit{}
	var frontier []int
	for _, r := range res {
		best[r.Doc] = &Hit{Node: g.Nodes[r.Doc], Score: ix.Normalized(r.Score, terms)}
		frontier = append(frontier, r.Doc)
	}
	for depth := 1; depth <= opt.MaxDepth && len(frontier) > 0; depth++ {
		var next []int
		for _, from := range frontier {
			parent := best[from]
			for _, dir := range []struct {
				arcs [][]arc
				verb string
				past bool
			}{{g.out, "%s %s", false}, {g.in, "%s by %s", true}} {
				for _, a := range dir.arcs[from] {
					s := parent.Score * decay * min(a.weight, 1)
					if h, ok := best[a.to]; ok && h.Score >= s {
						continue
					}
					verb := relVerb(a.typ)
					if dir.past {
						verb = pastTense(a.typ)
					}
					best[a.to] = &Hit{Node: g.Nodes[a.to], Score: s, Depth: depth,
						Relation: fmt.Sprintf(dir.verb, verb, g.Nodes[from].Name)}
					next = append(next, a.to)
				}
			}
		}
		frontier = next
	}
	return g.bound(best, opt)
}

// bound orders hits and applies the token and node caps.
func (g *Graph) bound(best map[int]*Hit, opt Options) []Hit {
	idx := make([]int, 0, len(best))
	for i := range best {
		idx = append(idx, i)
	}
	sort.Slice(idx, func(a, b int) bool {
		ha, hb := best[idx[a]], best[idx[b]]
		if ha.Score != hb.Score {
			return ha.Score > hb.Score
		}
		if ha.Depth != hb.Depth {
			return ha.Depth < hb.Depth
		}
		return ha.Node.ID < hb.Node.ID
	})
	var out []Hit
	used := 0
	for _, i := range idx {
		h := best[i]
		if h.Node.Importance > 0 && h.Node.Importance < opt.MinImportance {
			continue
		}
		h.Text = g.Render(h.Node, h.Relation)
		h.Tokens = tokens.Estimate(h.Text)
		if used+h.Tokens > opt.MaxTokens {
			continue
		}
		if opt.MaxNodes > 0 && len(out) >= opt.MaxNodes {
			break
		}
		used += h.Tokens
		out = append(out, *h)
	}
	return out
}

// maxEdgeLines bounds how many relations a rendered node lists.
const maxEdgeLines = 6

// Render formats a node for a prompt: name, type, id, summary, sources and
// a few of its relations.
func (g *Graph) Render(n Node, relation string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s) [%s]", n.Name, orDash(n.Type), n.ID)
	if relation != "" {
		fmt.Fprintf(&b, "\nreached: %s", relation)
	}
	if n.Summary != "" {
		fmt.Fprintf(&b, "\n%s", n.Summary)
	}
	if len(n.SourceRefs) > 0 {
		fmt.Fprintf(&b, "\nsources: %s", strings.Join(n.SourceRefs, ", "))
	}
	if i, ok := g.byID[n.ID]; ok {
		var rels []string
		for _, a := range g.out[i] {
			rels = append(rels, relVerb(a.typ)+" "+g.Nodes[a.to].Name)
		}
		for _, a := range g.in[i] {
			rels = append(rels, pastTense(a.typ)+" by "+g.Nodes[a.to].Name)
		}
		if len(rels) > maxEdgeLines {
			rels = append(rels[:maxEdgeLines], fmt.Sprintf("… %d more", len(rels)-maxEdgeLines))
		}
		if len(rels) > 0 {
			fmt.Fprintf(&b, "\nrelations: %s", strings.Join(rels, "; "))
		}
	}
	return b.String()
}

func relVerb(t string) string {
	if t == "" {
		return "relates to"
	}
	return strings.ReplaceAll(t, "_", " ")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// Intent is a structural question about the graph.
type Intent struct {
	// Kind is callers, callees, importers, imports, defines, definers,
	// implementers, implemented or impact.
	Kind string
	// Target is the entity asked about, as written.
	Target string
	// Inbound is true when the answer follows edges into the target.
	Inbound bool
	// EdgeTypes restricts the hops (nil: every type).
	EdgeTypes []string
}

var (
	callTypes   = []string{"calls", "call", "invokes"}
	importTypes = []string{"imports", "import", "depends_on", "depends on", "uses", "requires"}
	defineTypes = []string{"defines", "define", "declares", "contains"}
	// implementTypes are the edges from a type to what it satisfies or
	// extends: a Go interface (implements), a base class (inherits).
	implementTypes = []string{"implements", "implement", "inherits", "extends", "realizes"}
)

// intentPattern is one form of a structural question.
type intentPattern struct {
	re      *regexp.Regexp
	kind    string
	inbound bool
	types   []string
}

// intentPatterns are the forms, compiled by the first question.
var intentPatterns = sync.OnceValue(func() []intentPattern {
	return []intentPattern{
		{regexp.MustCompile(`(?i)^(?:who|what|which \w+) (?:calls|invokes|uses) (.+)$`), "callers", true, callTypes},
		{regexp.MustCompile(`(?i)^(?:callers|call sites|callsites|invokers) (?:of|for|to) (.+)$`), "callers", true, callTypes},
		{regexp.MustCompile(`(?i)^where (?:is|are) (.+?) (?:called|used|invoked)$`), "callers", true, callTypes},
		{regexp.MustCompile(`(?i)^(?:callees|calls) (?:of|from|made by) (.+)$`), "callees", false, callTypes},
		{regexp.MustCompile(`(?i)^what (?:does|do) (.+?) call$`), "callees", false, callTypes},
		{regexp.MustCompile(`(?i)^(?:who|what|which \w+) (?:imports|depends on|requires) (.+)$`), "importers", true, importTypes},
		{regexp.MustCompile(`(?i)^(?:importers|dependents|reverse dependencies) of (.+)$`), "importers", true, importTypes},
		{regexp.MustCompile(`(?i)^(?:imports|dependencies|deps) of (.+)$`), "imports", false, importTypes},
		{regexp.MustCompile(`(?i)^what (?:does|do) (.+?) (?:import|depend on|require|use)$`), "imports", false, importTypes},
		{regexp.MustCompile(`(?i)^what (?:does|do) (.+?) (?:define|declare|contain)$`), "defines", false, defineTypes},
		{regexp.MustCompile(`(?i)^(?:definitions|symbols|members|contents) (?:in|of) (.+)$`), "defines", false, defineTypes},
		{regexp.MustCompile(`(?i)^(?:where|who|what) (?:is|are) (.+?) defined$`), "definers", true, defineTypes},
		{regexp.MustCompile(`(?i)^(?:implementations|implementers|implementors|subclasses) of (.+)$`), "implementers", true, implementTypes},
		{regexp.MustCompile(`(?i)^(?:who|what|which \w+) (?:implements|implement|extends|inherits from|subclasses) (.+)$`), "implementers", true, implementTypes},
		{regexp.MustCompile(`(?i)^what (?:does|do) (.+?) (?:implement|extend|inherit from)$`), "implemented", false, implementTypes},
		{regexp.MustCompile(`(?i)^(?:the )?(?:impact|blast radius|consequences?) of (?:changing |modifying |editing |removing |deleting |renaming )?(.+)$`), "impact", true, nil},
		{regexp.MustCompile(`(?i)^what (?:breaks|would break|is affected|depends on this) if (?:i |we |you )?(?:change|modify|edit|remove|delete|rename) (.+)$`), "impact", true, nil},
	}
})

// ParseIntent recognises a structural question. It returns false for free
// text, which recall answers by search instead.
func ParseIntent(q string) (Intent, bool) {
	s := strings.TrimSpace(q)
	s = strings.TrimRight(s, "?.! ")
	for _, p := range intentPatterns() {
		m := p.re.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		t := strings.Trim(strings.TrimSpace(m[1]), "`'\"")
		t = strings.TrimPrefix(t, "the ")
		if t == "" || len(strings.Fields(t)) > 4 {
			continue
		}
		return Intent{Kind: p.kind, Target: t, Inbound: p.inbound, EdgeTypes: p.types}, true
	}
	return Intent{}, false
}

// Resolve finds the nodes a target names: an exact id, else an exact name
// (case-insensitive), else ids or names ending in "."+target, "/"+target,
// "#"+target or ":"+target, else nodes with a source ref in that file.
func (g *Graph) Resolve(target string) []int {
	t := strings.ToLower(strings.TrimSpace(target))
	if i, ok := g.byID[target]; ok {
		return []int{i}
	}
	var byName, bySuffix, byRef []int
	for i, n := range g.Nodes {
		id, name := strings.ToLower(n.ID), strings.ToLower(n.Name)
		switch {
		case id == t || name == t:
			byName = append(byName, i)
		case hasSepSuffix(id, t) || hasSepSuffix(name, t):
			bySuffix = append(bySuffix, i)
		default:
			for _, r := range n.SourceRefs {
				p, _, _ := strings.Cut(strings.ToLower(r), "#")
				if p == t {
					byRef = append(byRef, i)
					break
				}
			}
		}
	}
	switch {
	case len(byName) > 0:
		return byName
	case len(bySuffix) > 0:
		return bySuffix
	}
	return byRef
}

func hasSepSuffix(s, t string) bool {
	if !strings.HasSuffix(s, t) || len(s) == len(t) {
		return false
	}
	switch s[len(s)-len(t)-1] {
	case '.', '/', '#', ':':
		return true
	}
	return false
}

// Structural answers an intent: the resolved target nodes first (score 1),
// then the nodes reached by following matching edges inbound or outbound,
// breadth first up to MaxDepth hops (3 when zero), each hop multiplying
// the score by hopScore, within the token cap. It returns false when the target names no node.
func (g *Graph) Structural(in Intent, opt Options) ([]Hit, bool) {
	opt = opt.withDefaults(3)
	seeds := g.Resolve(in.Target)
	if len(seeds) == 0 {
		return nil, false
	}
	best := map[int]*Hit{}
	var frontier []int
	for _, s := range seeds {
		best[s] = &Hit{Node: g.Nodes[s], Score: 1}
		frontier = append(frontier, s)
	}
	adj := g.out
	verb := "%s %s"
	if in.Inbound {
		adj = g.in
		verb = "%s %s"
	}
	for depth := 1; depth <= opt.MaxDepth && len(frontier) > 0; depth++ {
		var next []int
		for _, from := range frontier {
			for _, a := range adj[from] {
				if in.EdgeTypes != nil && !contains(in.EdgeTypes, a.typ) {
					continue
				}
				if _, seen := best[a.to]; seen {
					continue
				}
				rel := fmt.Sprintf(verb, relVerb(a.typ), g.Nodes[from].Name)
				if !in.Inbound {
					rel = fmt.Sprintf("%s by %s", pastTense(a.typ), g.Nodes[from].Name)
				}
				best[a.to] = &Hit{Node: g.Nodes[a.to], Score: best[from].Score * hopScore(a), Depth: depth, Relation: rel}
				next = append(next, a.to)
			}
		}
		frontier = next
	}
	return g.bound(best, opt), true
}

// hopScore is what one hop over a keeps of the score of the node it
// leaves: one half, times the edge weight (a code graph counts call sites
// and importing files: one scores 0.55, four or more score 1), halved again
// for a containment edge (defines, contains), so that what uses a target
// outranks what merely holds it, and a path through a container ranks below
// a path of uses.
func hopScore(a arc) float64 {
	w := a.weight
	if w > 1 {
		w = 0.55 + 0.15*min(w-1, 3)
	} else {
		w *= 0.55
	}
	s := w / 2
	if contains(defineTypes, a.typ) {
		s /= 2
	}
	return s
}

func pastTense(t string) string {
	switch t {
	case "calls", "call", "invokes":
		return "called"
	case "imports", "import":
		return "imported"
	case "defines", "define", "declares", "contains":
		return "defined"
	}
	return relVerb(t)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Neighbor is one node adjacent to another.
type Neighbor struct {
	// Node is the index of the adjacent node in Nodes.
	Node int
	// Type is the edge type, lowercased.
	Type string
	// Weight is the edge weight (1 when unset).
	Weight float64
}

// Neighbors lists the nodes one edge away from node i: those it points to
// (outbound) or those pointing to it (inbound), in edge order.
func (g *Graph) Neighbors(i int, inbound bool) []Neighbor {
	adj := g.out
	if inbound {
		adj = g.in
	}
	if i < 0 || i >= len(adj) {
		return nil
	}
	out := make([]Neighbor, 0, len(adj[i]))
	for _, a := range adj[i] {
		out = append(out, Neighbor{Node: a.to, Type: a.typ, Weight: a.weight})
	}
	return out
}
