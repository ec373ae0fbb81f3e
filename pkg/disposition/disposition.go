// Package disposition gathers the relational surface of a decision about an
// artifact ("should we merge pkg/refs into pkg/graph?", "can we delete the
// legacy billing client?"): who it serves (importers, callers, the entry
// points that reach it), what it overlaps with (candidates to merge with or
// be replaced by), and how it is maintained (git history). A disposition is
// decided on those relations more than on a deeper read of the artifact's
// insides; each relation carries the origin of its evidence.
package disposition

import (
	"context"
	"fmt"
	"os/exec"
	"sort"
	"strings"
	"time"

	"github.com/rtch/rtch/pkg/graph"
	"github.com/rtch/rtch/pkg/rank"
	"github.com/rtch/rtch/pkg/schema"
)

// Caps bound each list of the surface.
const (
	maxResolved    = 5
	maxServes      = 15
	maxComparisons = 5
	entryDepth     = 4
)

// unitTypes are the node types an artifact can be: what is kept, merged or
// deleted as a whole.
var unitTypes = map[string]bool{"package": true, "module": true, "file": true, "class": true, "struct": true, "interface": true, "type": true}

// Surface computes the relations of d's artifact in g; root is the tree the
// graph was built from (for git).
func Surface(ctx context.Context, g *graph.Graph, root string, d schema.Disposition) schema.Relations {
	r := schema.Relations{Decision: d.Decision, Artifact: d.Artifact, Target: d.Target,
		Resolved: []string{}, Paths: []string{}, Serves: []schema.Relation{}, Comparisons: []schema.Relation{}}
	units := resolve(g, d.Artifact)
	inside := map[int]bool{}
	for _, u := range units {
		r.Resolved = append(r.Resolved, g.Nodes[u].ID)
		held := members(g, u)
		// A Go package's external tests live and go with it.
		if tests := g.Resolve(g.Nodes[u].ID + "_test"); len(tests) == 1 && g.Nodes[u].Type == "package" {
			held = append(held, members(g, tests[0])...)
		}
		for _, m := range held {
			inside[m] = true
		}
	}
	r.Paths = paths(g, inside)
	if len(units) > 0 {
		r.Serves = serves(g, units, inside)
		r.Comparisons = comparisons(g, units, inside, d.Target)
		r.Provenance = provenance(ctx, root, r.Paths)
	}
	r.ClosureCheck = closure(d, r)
	return r
}

// kindWords say what kind of artifact a name is ("the pay package"), not
// which.
var kindWords = map[string]bool{"package": true, "pkg": true, "module": true, "library": true, "lib": true, "crate": true,
	"directory": true, "folder": true, "dir": true, "file": true, "class": true, "code": true}

// resolve finds the artifact's nodes: the name as written, else its words
// joined as a path, an identifier or a package name would spell them.
func resolve(g *graph.Graph, artifact string) []int {
	var words []string
	for _, w := range strings.Fields(strings.ToLower(artifact)) {
		if !kindWords[w] {
			words = append(words, w)
		}
	}
	cands := []string{artifact}
	if len(words) == 1 {
		cands = append(cands, words[0])
	}
	if len(words) > 1 {
		cands = append(cands, strings.Join(words, "/"), strings.Join(words, "_"), strings.Join(words, "-"), strings.Join(words, ""))
		if len(words) > 2 {
			tail := words[1:]
			cands = append(cands, strings.Join(tail, "/"), strings.Join(tail, "_"), strings.Join(tail, ""))
		}
	}
	for _, c := range cands {
		var out []int
		for _, i := range g.Resolve(c) {
			if unitTypes[g.Nodes[i].Type] {
				out = append(out, i)
			}
		}
		if len(out) > 0 {
			sort.Slice(out, func(a, b int) bool { return g.Nodes[out[a]].ID < g.Nodes[out[b]].ID })
			return out[:min(len(out), maxResolved)]
		}
	}
	return nil
}

// members are the nodes an artifact holds: itself and everything reached
// over contains and defines edges.
func members(g *graph.Graph, u int) []int {
	seen := map[int]bool{u: true}
	queue := []int{u}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, nb := range g.Neighbors(n, false) {
			if (nb.Type == "contains" || nb.Type == "defines") && !seen[nb.Node] {
				seen[nb.Node] = true
				queue = append(queue, nb.Node)
			}
		}
	}
	out := make([]int, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Ints(out)
	return out
}

func refPath(n graph.Node) (string, string) {
	if len(n.SourceRefs) == 0 {
		return "", ""
	}
	p, _, _ := strings.Cut(n.SourceRefs[0], "#")
	return p, n.SourceRefs[0]
}

func paths(g *graph.Graph, inside map[int]bool) []string {
	set := map[string]bool{}
	for n := range inside {
		if g.Nodes[n].Type == "file" {
			if p, _ := refPath(g.Nodes[n]); p != "" {
				set[p] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// serves lists the artifact's importers and the outside definitions that
// call or reference its members (heaviest first), then the entry points: the
// nodes nobody imports that reach it through imports within entryDepth hops.
func serves(g *graph.Graph, units []int, inside map[int]bool) []schema.Relation {
	weight := map[int]float64{}
	kind := map[int]string{}
	via := map[int]string{}
	for n := range inside {
		for _, nb := range g.Neighbors(n, true) {
			if inside[nb.Node] {
				continue
			}
			switch nb.Type {
			case "imports":
				kind[nb.Node] = "imports"
			case "calls", "references", "embeds", "inherits":
				if kind[nb.Node] != "imports" {
					kind[nb.Node] = nb.Type
				}
				if via[nb.Node] == "" || g.Nodes[n].ID < via[nb.Node] {
					via[nb.Node] = g.Nodes[n].Name
				}
			default:
				continue
			}
			weight[nb.Node] += nb.Weight
		}
	}
	var out []schema.Relation
	for n, w := range weight {
		rel := "imports it"
		if kind[n] != "imports" {
			rel = fmt.Sprintf("%s %s", kind[n], via[n])
		}
		out = append(out, relation(g, n, rel, "graph:"+kind[n], w))
	}
	sortRelations(out)
	out = out[:min(len(out), maxServes)]
	return append(out, entryPoints(g, units)...)
}

func entryPoints(g *graph.Graph, units []int) []schema.Relation {
	depth := map[int]int{}
	frontier := append([]int(nil), units...)
	for _, u := range units {
		depth[u] = 0
	}
	for d := 1; d <= entryDepth && len(frontier) > 0; d++ {
		var next []int
		for _, n := range frontier {
			for _, nb := range g.Neighbors(n, true) {
				if nb.Type != "imports" {
					continue
				}
				if _, seen := depth[nb.Node]; !seen {
					depth[nb.Node] = d
					next = append(next, nb.Node)
				}
			}
		}
		frontier = next
	}
	var out []schema.Relation
	for n, d := range depth {
		if d == 0 || importedBy(g, n) {
			continue
		}
		if p, _ := refPath(g.Nodes[n]); rank.IsTest(p) || strings.HasSuffix(g.Nodes[n].ID, "_test") {
			continue
		}
		out = append(out, relation(g, n, fmt.Sprintf("entry point (imported by nothing) %d import hop(s) away", d), "graph:entry_point", float64(entryDepth+1-d)))
	}
	sortRelations(out)
	return out[:min(len(out), maxServes)]
}

func importedBy(g *graph.Graph, n int) bool {
	for _, nb := range g.Neighbors(n, true) {
		if nb.Type == "imports" {
			return true
		}
	}
	return false
}

// comparisons ranks the other units of the artifact's type by the symbol
// names and imports they share with it; a named target is always listed.
func comparisons(g *graph.Graph, units []int, inside map[int]bool, target string) []schema.Relation {
	mine, myImports := profile(g, units)
	targets := map[int]bool{}
	if target != "" {
		for _, t := range resolve(g, target) {
			targets[t] = true
		}
	}
	typ := g.Nodes[units[0]].Type
	var out []schema.Relation
	for i, n := range g.Nodes {
		if inside[i] || (n.Type != typ && !targets[i]) {
			continue
		}
		names, imps := profile(g, []int{i})
		shared, sharedImp := overlap(mine, names), overlap(myImports, imps)
		if !targets[i] && shared < 2 {
			continue
		}
		rel := fmt.Sprintf("shares %d symbol name(s) and %d import(s)", shared, sharedImp)
		if targets[i] {
			rel = "the named target; " + rel
		}
		w := float64(shared) + 0.5*float64(sharedImp)
		if targets[i] {
			w += 1e6 // listed first, whatever its overlap
		}
		out = append(out, relation(g, i, rel, "graph:overlap", w))
	}
	sortRelations(out)
	out = out[:min(len(out), maxComparisons)]
	for i := range out {
		if out[i].Weight >= 1e6 {
			out[i].Weight -= 1e6
		}
	}
	return out
}

// profile is the set of short symbol names a unit defines and the nodes it
// imports.
func profile(g *graph.Graph, units []int) (map[string]bool, map[int]bool) {
	names, imps := map[string]bool{}, map[int]bool{}
	for _, u := range units {
		for _, m := range members(g, u) {
			n := g.Nodes[m]
			if m != u && n.Type != "file" {
				short := n.Name
				if i := strings.LastIndexAny(short, ".#"); i >= 0 {
					short = short[i+1:]
				}
				if len(short) > 2 && short != "init" && !strings.HasPrefix(short, "init@") && !strings.HasPrefix(short, "Test") {
					names[short] = true
				}
			}
			for _, nb := range g.Neighbors(m, false) {
				if nb.Type == "imports" {
					imps[nb.Node] = true
				}
			}
		}
	}
	return names, imps
}

func overlap[K comparable](a, b map[K]bool) int {
	n := 0
	for k := range a {
		if b[k] {
			n++
		}
	}
	return n
}

func relation(g *graph.Graph, n int, rel, origin string, w float64) schema.Relation {
	p, ref := refPath(g.Nodes[n])
	return schema.Relation{Node: g.Nodes[n].ID, Path: p, Ref: ref, Relation: rel, Origin: origin, Weight: w}
}

func sortRelations(rs []schema.Relation) {
	sort.Slice(rs, func(i, j int) bool {
		if rs[i].Weight != rs[j].Weight {
			return rs[i].Weight > rs[j].Weight
		}
		return rs[i].Node < rs[j].Node
	})
}

// provenance reads the git history of the paths; nil outside git.
func provenance(ctx context.Context, root string, paths []string) *schema.Provenance {
	if len(paths) == 0 {
		return nil
	}
	args := append([]string{"-C", root, "log", "--no-merges", "--format=%H%x09%aI%x09%an", "--"}, paths...)
	out, err := exec.CommandContext(ctx, "git", args...).Output()
	if err != nil {
		return nil
	}
	p := &schema.Provenance{Origin: "git", Authors: []string{}}
	commits := map[string]int{}
	var first, last time.Time
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			continue
		}
		t, err := time.Parse(time.RFC3339, f[1])
		if err != nil {
			continue
		}
		if p.ChangeCount == 0 {
			p.LastCommit, p.LastChange, last = f[0], t.UTC().Format("2006-01-02"), t
		}
		first = t
		p.ChangeCount++
		commits[f[2]]++
	}
	if p.ChangeCount == 0 {
		return nil
	}
	p.FirstChange = first.UTC().Format("2006-01-02")
	p.AgeDays = int(last.Sub(first).Hours() / 24)
	for a := range commits {
		p.Authors = append(p.Authors, a)
	}
	sort.Slice(p.Authors, func(i, j int) bool {
		if commits[p.Authors[i]] != commits[p.Authors[j]] {
			return commits[p.Authors[i]] > commits[p.Authors[j]]
		}
		return p.Authors[i] < p.Authors[j]
	})
	return p
}

// closure says what the consumer still has to check before deciding: the
// graph sees static references inside this tree only.
func closure(d schema.Disposition, r schema.Relations) string {
	if len(r.Resolved) == 0 {
		return fmt.Sprintf("%q names no package, module or file of the code graph: find the artifact by hand (another name, another repository) before weighing %s", d.Artifact, d.Decision)
	}
	users := fmt.Sprintf("%d static user(s) in this tree", len(r.Serves))
	base := "uses the graph cannot see: other repositories and deployed clients, reflection, plugins and names in configuration or scripts"
	switch d.Decision {
	case "delete", "sunset", "deprecate":
		return fmt.Sprintf("before you %s %s: each of the %s needs a replacement or its own removal, and the %s must be ruled out", d.Decision, d.Artifact, users, base)
	case "merge":
		t := "the comparison targets"
		if d.Target != "" {
			t = d.Target
		}
		return fmt.Sprintf("before merging %s into %s: confirm that the shared names mean the same thing on both sides and that the %s accept the merged API; the %s remain unchecked", d.Artifact, t, users, base)
	}
	return fmt.Sprintf("before deciding to %s %s: weigh the %s and its history against the comparison targets; the %s remain unchecked", d.Decision, d.Artifact, users, base)
}
