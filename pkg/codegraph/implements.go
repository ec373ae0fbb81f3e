package codegraph

import (
	"slices"
	"sort"
	"strings"
)

// A Go type implements an interface when its method set holds every
// method of the interface's with the same parameter and result types.
// Without type checking the builder compares the types as written, each
// named type qualified with its package's import path; a signature with a
// part it cannot write exactly (an unnamed struct, a type parameter) is
// never matched. Only types of the interface's own package or of a
// package that imports it are candidates: the relation a reader looks for
// is the one a selector shows.

// goTypeInfo is a type or an interface of the tree with its method set.
type goTypeInfo struct {
	p      *goPkg
	node   int32
	iface  bool
	own    map[string]string // method name → canonical signature
	open   bool              // an embedded type is not resolved
	set    map[string]string // with the embedded types' methods
	done   bool
	embeds []int32
}

func (r *goResolver) implements(o *out) {
	infos := r.typeInfos(o)
	embedsOf(o, infos)
	var concrete, ifaces []*goTypeInfo
	byMethod := map[string][]*goTypeInfo{}
	for _, n := range sortedNodes(infos) {
		t := infos[n]
		methodSet(t, infos, 0)
		if t.iface {
			ifaces = append(ifaces, t)
			continue
		}
		concrete = append(concrete, t)
		for m := range t.set {
			byMethod[m] = append(byMethod[m], t)
		}
	}
	for _, i := range ifaces {
		if i.open || len(i.set) == 0 {
			continue
		}
		for _, t := range candidates(i, byMethod) {
			if (t.p == i.p || t.p.deps[i.p]) && satisfies(t, i) {
				o.edge(t.node, i.node, EdgeImplements)
			}
		}
	}
}

// typeInfos collects every type and interface with its own methods.
func (r *goResolver) typeInfos(o *out) map[int32]*goTypeInfo {
	infos := map[int32]*goTypeInfo{}
	get := func(p *goPkg, key string) *goTypeInfo {
		n := p.sym(key)
		if n < 0 {
			return nil
		}
		if infos[n] == nil {
			infos[n] = &goTypeInfo{p: p, node: n, own: map[string]string{}, open: r.openEmbeds[n]}
		}
		return infos[n]
	}
	for _, p := range r.pkgs {
		for _, f := range p.files {
			names, _ := r.names(f)
			for _, d := range f.Defs {
				switch {
				case d.Kind == "method":
					if t := get(p, d.Container); t != nil && p.defs[d.Container].Kind != "interface" {
						setOnce(t.own, d.Name, canonSig(d.Sig, p, names))
					}
				case d.Kind == "interface":
					t := get(p, d.Name)
					t.iface = true
					t.open = t.open || d.TypeSet
					for _, m := range d.Methods {
						setOnce(t.own, m.Name, canonSig(m.Sig, p, names))
					}
				case isGoType(d.Kind):
					get(p, d.Name)
				}
			}
		}
	}
	return infos
}

func setOnce(m map[string]string, k, v string) {
	if _, ok := m[k]; !ok {
		m[k] = v
	}
}

// embedsOf gives each type the types it embeds, from the embeds edges.
func embedsOf(o *out, infos map[int32]*goTypeInfo) {
	code := edgeCode[EdgeEmbeds]
	for _, p := range o.allParts() {
		for k := range p.edges {
			if k.typ == code && infos[k.src] != nil {
				infos[k.src].embeds = append(infos[k.src].embeds, k.dst)
			}
		}
	}
	for _, t := range infos {
		// Two parts may hold one edge.
		slices.Sort(t.embeds)
		t.embeds = slices.Compact(t.embeds)
	}
}

func sortedNodes(infos map[int32]*goTypeInfo) []int32 {
	ns := make([]int32, 0, len(infos))
	for n := range infos {
		ns = append(ns, n)
	}
	sort.Slice(ns, func(i, j int) bool { return ns[i] < ns[j] })
	return ns
}

// methodSet fills t.set: its own methods, then those it gets from the
// types it embeds (an own method hides a promoted one). An interface that
// embeds something other than a known interface is open.
func methodSet(t *goTypeInfo, infos map[int32]*goTypeInfo, depth int) {
	if t.done {
		return
	}
	t.done = true
	t.set = map[string]string{}
	for m, s := range t.own {
		t.set[m] = s
	}
	for _, e := range t.embeds {
		et := infos[e]
		if et == nil || depth > 8 {
			t.open = true
			continue
		}
		methodSet(et, infos, depth+1)
		if t.iface && (!et.iface || et.open) {
			t.open = true
		}
		for m, s := range et.set {
			setOnce(t.set, m, s)
		}
	}
}

// candidates are the concrete types that have one of the interface's
// methods, the rarest one; any such list holds every type that satisfies
// the interface, so which of two equal lists is taken does not matter.
func candidates(i *goTypeInfo, byMethod map[string][]*goTypeInfo) []*goTypeInfo {
	var best []*goTypeInfo
	first := true
	for m := range i.set {
		if c := byMethod[m]; first || len(c) < len(best) {
			best, first = c, false
		}
	}
	return best
}

func satisfies(t, i *goTypeInfo) bool {
	for m, s := range i.set {
		if strings.Contains(s, "?") || t.set[m] != s {
			return false
		}
	}
	return true
}

// canonSig qualifies the named types of a signature written by goSig:
// "@.T" with the package's import path, "@q.T" with the path q is bound
// to in the file; an unknown q makes the signature unmatched ("?").
func canonSig(sig string, p *goPkg, names map[string]string) string {
	if !strings.Contains(sig, "@") {
		return sig
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(sig, '@')
		if i < 0 {
			b.WriteString(sig)
			return b.String()
		}
		b.WriteString(sig[:i])
		sig = sig[i+1:]
		dot := strings.IndexByte(sig, '.')
		q := sig[:dot]
		sig = sig[dot:]
		switch ip, ok := names[q]; {
		case q == "":
			b.WriteString(p.ip)
		case ok:
			b.WriteString(ip)
		default:
			b.WriteString("?" + q)
		}
	}
}
