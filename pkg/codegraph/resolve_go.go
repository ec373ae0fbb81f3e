package codegraph

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/rtch/rtch/pkg/internal/parallel"
)

// goPkg is one Go package of the tree: the files of one directory that
// share a package clause.
type goPkg struct {
	id, ip, name string
	files        []*Facts
	defs         map[string]Def
	fields       map[string]map[string]bool
	node         int32            // the package's node
	syms         map[string]int32 // definition key → node
	deps         map[*goPkg]bool  // the packages of the tree it imports
}

type goResolver struct {
	// openEmbeds are the nodes with an embedded type the builder could
	// not resolve: their method sets are not known whole.
	openEmbeds map[int32]bool
	meta       Meta
	pkgs       []*goPkg
	byIP       map[string]*goPkg
	fileP      map[string]*goPkg
}

func newGoResolver(meta Meta, files []*Facts) *goResolver {
	r := &goResolver{meta: meta, byIP: map[string]*goPkg{}, fileP: map[string]*goPkg{}, openEmbeds: map[int32]bool{}}
	byDir := map[string]map[string][]*Facts{}
	for _, f := range files {
		if f.Problem != "" {
			continue
		}
		d := dirOf(f.Path)
		if byDir[d] == nil {
			byDir[d] = map[string][]*Facts{}
		}
		byDir[d][f.Package] = append(byDir[d][f.Package], f)
	}
	dirs := make([]string, 0, len(byDir))
	for d := range byDir {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		r.addDir(d, byDir[d])
	}
	return r
}

// addDir makes the packages of one directory. The package clause with the
// most files (not an external _test package) owns the import path; an
// external test package gets the path plus "_test", any other clause the
// path plus "@clause".
func (r *goResolver) addDir(dir string, clauses map[string][]*Facts) {
	ip := r.importPath(dir)
	names := make([]string, 0, len(clauses))
	for n := range clauses {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := names[i], names[j]
		if ta, tb := strings.HasSuffix(a, "_test"), strings.HasSuffix(b, "_test"); ta != tb {
			return tb
		}
		if len(clauses[a]) != len(clauses[b]) {
			return len(clauses[a]) > len(clauses[b])
		}
		return a < b
	})
	for i, n := range names {
		p := &goPkg{ip: ip, name: n, files: clauses[n], defs: map[string]Def{}, fields: map[string]map[string]bool{}, deps: map[*goPkg]bool{}}
		switch {
		case i == 0:
		case strings.HasSuffix(n, "_test") && n == names[0]+"_test":
			p.ip = ip + "_test"
		default:
			p.ip = ip + "@" + n
		}
		p.id = "go:" + p.ip
		if i == 0 || p.ip == ip+"_test" {
			r.byIP[p.ip] = p
		}
		r.pkgs = append(r.pkgs, p)
		for _, f := range p.files {
			r.fileP[f.Path] = p
			for _, d := range f.Defs {
				if _, dup := p.defs[d.Key()]; !dup {
					p.defs[d.Key()] = d
				}
				if d.Kind == "struct" {
					if p.fields[d.Name] == nil {
						p.fields[d.Name] = map[string]bool{}
					}
					for _, fl := range d.Fields {
						p.fields[d.Name][fl] = true
					}
				}
			}
		}
	}
}

// importPath is the import path of a directory: the module path of the
// nearest go.mod plus the directory below it ("std" and "cmd", GOROOT's
// modules, contribute no prefix of their own beyond "cmd"), or the part
// after the last vendor/ element; with no go.mod, the directory itself.
func (r *goResolver) importPath(dir string) string {
	if i := strings.LastIndex("/"+dir, "/vendor/"); i >= 0 {
		return ("/" + dir)[i+len("/vendor/"):]
	}
	best, mod := "", ""
	found := false
	for d, m := range r.meta.GoModules {
		if d == "." || dir == d || strings.HasPrefix(dir, d+"/") {
			if !found || len(d) > len(best) || (best == "." && d != ".") {
				best, mod, found = d, m, true
			}
		}
	}
	if !found {
		return dir
	}
	rel := strings.TrimPrefix(strings.TrimPrefix(dir, best), "/")
	if best == "." {
		rel = dir
		if dir == "." {
			rel = ""
		}
	}
	if mod == "std" {
		if rel == "" {
			return "std"
		}
		return rel
	}
	if rel == "" {
		return mod
	}
	return mod + "/" + rel
}

func (p *goPkg) symID(key string) string { return p.id + "#" + key }

// sym is the node of a definition key, -1 when the package has none.
func (p *goPkg) sym(key string) int32 {
	if i, ok := p.syms[key]; ok {
		return i
	}
	return -1
}

// resolve adds the Go packages' nodes and edges to o. The nodes and the
// import edges come first, in package order; then the packages' uses are
// resolved on up to workers goroutines (0: GOMAXPROCS), each package into
// a part of its own, which o keeps in package order.
func (r *goResolver) resolve(o *out, workers int) {
	for _, p := range r.pkgs {
		r.nodes(o, p)
	}
	for _, p := range r.pkgs {
		for _, f := range p.files {
			r.imports(o, p, f)
		}
	}
	forks := make([]*out, len(r.pkgs))
	opens := make([][]int32, len(r.pkgs))
	parallel.ForUpTo(workers, len(r.pkgs), func(i int) {
		p := r.pkgs[i]
		n := 0
		for _, f := range p.files {
			n += len(f.Uses)
		}
		forks[i] = o.fork(n)
		for _, f := range p.files {
			opens[i] = r.uses(forks[i], p, f, opens[i])
		}
	})
	for i := range r.pkgs {
		o.parts = append(o.parts, forks[i].part)
		for _, n := range opens[i] {
			r.openEmbeds[n] = true
		}
	}
	r.implements(o)
}

// nodes adds the package, its symbols and the contains/defines edges.
func (r *goResolver) nodes(o *out, p *goPkg) {
	doc := p.files[0]
	for _, f := range p.files {
		if b := path.Base(f.Path); b == "doc.go" || b == path.Base(p.ip)+".go" {
			doc = f
			break
		}
	}
	p.node = o.node(p.id, "package", p.ip, lineRef(doc.Path, 1, max(doc.Lines, 1)), "high",
		fmt.Sprintf("Go package %s, %d file(s)", p.name, len(p.files)))
	p.syms = map[string]int32{}
	for _, f := range p.files {
		for _, d := range f.Defs {
			p.syms[d.Key()] = o.node(p.symID(d.Key()), nodeType(d.Kind), p.name+"."+d.Key(), lineRef(f.Path, d.Start, d.End), "high", d.Signature)
		}
	}
	for _, f := range p.files {
		file := o.lookup(FileID(f.Path))
		o.edge(p.node, file, EdgeContains)
		for _, d := range f.Defs {
			o.edge(file, p.sym(d.Key()), EdgeDefines)
			if d.Container != "" {
				o.edge(p.sym(d.Container), p.sym(d.Key()), EdgeContains)
			}
		}
	}
}

// imports adds the package's import edges of a file, and the nodes of
// the packages outside the tree it imports.
func (r *goResolver) imports(o *out, p *goPkg, f *Facts) {
	for _, im := range f.Imports {
		t := r.byIP[im.Spec]
		if t != nil {
			o.edge(p.node, t.node, EdgeImports)
			p.deps[t] = true
		} else {
			ext := o.node("ext:go:"+im.Spec, "external", im.Spec, "", "high", "Go package outside the tree")
			o.edge(p.node, ext, EdgeImports)
		}
	}
}

// names binds a file's local package names to import paths, and lists
// its dot-imported packages of the tree.
func (r *goResolver) names(f *Facts) (names map[string]string, dots []*goPkg) {
	names = map[string]string{}
	for _, im := range f.Imports {
		t := r.byIP[im.Spec]
		switch {
		case im.Alias == ".":
			if t != nil {
				dots = append(dots, t)
			}
		case im.Alias == "_":
		case im.Alias != "":
			names[im.Alias] = im.Spec
		case t != nil:
			names[t.name] = im.Spec
		default:
			names[guessPkgName(im.Spec)] = im.Spec
		}
	}
	return names, dots
}

// guessPkgName is the conventional name of a package outside the tree:
// its last path element without a major-version suffix or a go- prefix.
// It only binds a qualifier whose uses stay unresolved anyway.
func guessPkgName(ip string) string {
	els := strings.Split(ip, "/")
	n := els[len(els)-1]
	if len(els) > 1 && len(n) > 1 && n[0] == 'v' && strings.Trim(n[1:], "0123456789") == "" {
		n = els[len(els)-2]
	}
	if i := strings.Index(n, ".v"); i > 0 {
		n = n[:i]
	}
	n = strings.TrimPrefix(n, "go-")
	return strings.ReplaceAll(n, "-", "_")
}

// uses resolves a file's uses into o, a fork: it adds no node. The nodes
// with an embedded type it cannot resolve are appended to open.
func (r *goResolver) uses(o *out, p *goPkg, f *Facts, open []int32) []int32 {
	names, dots := r.names(f)
	file := o.lookup(FileID(f.Path))
	for _, u := range f.Uses {
		from := file
		if u.From != "" {
			from = p.sym(u.From)
		}
		tp, key, skip := r.target(p, names, dots, u)
		n := u.times()
		if skip {
			continue
		}
		if tp == nil && u.Kind == UseEmbed {
			open = append(open, from)
		}
		if tp == nil {
			if u.Qual == "?" {
				o.untyped += n
				continue
			}
			o.unresolvedN(from, unresolvedName(u), f.Path, u.Line, n)
			continue
		}
		if u.Qual != "" && !strings.HasPrefix(u.Qual, "#") && u.Qual != "?" && names[u.Qual] == "" {
			// A package-level variable's field or method: the variable
			// is referenced, the selector stays unresolved.
			o.edgeN(from, p.sym(u.Qual), EdgeReferences, n)
			o.unresolvedN(from, unresolvedName(u), f.Path, u.Line, n)
			continue
		}
		o.edgeN(from, tp.sym(key), edgeFor(u.Kind, tp.defs[key].Kind), n)
	}
	return open
}

func unresolvedName(u Use) string {
	if u.Qual == "" {
		return u.Name
	}
	q := strings.TrimPrefix(u.Qual, "#")
	if strings.HasPrefix(q, "!") {
		q = q[1:] + "(…)"
	}
	return q + "." + u.Name
}

func isGoType(kind string) bool { return kind == "type" || kind == "struct" || kind == "interface" }

// target finds the package and key a use names. skip is true for a use that
// names nothing of the tree and is no loss: a predeclared identifier, a
// struct field.
func (r *goResolver) target(p *goPkg, names map[string]string, dots []*goPkg, u Use) (tp *goPkg, key string, skip bool) {
	switch {
	case u.Qual == "":
		if _, ok := p.defs[u.Name]; ok {
			return p, u.Name, false
		}
		for _, d := range dots {
			if _, ok := d.defs[u.Name]; ok {
				return d, u.Name, false
			}
		}
		return nil, "", goUniverse[u.Name]
	case u.Qual == "?":
		return nil, "", false
	case strings.HasPrefix(u.Qual, "#"):
		typ := u.Qual[1:]
		conv := strings.HasPrefix(typ, "!")
		typ = strings.TrimPrefix(typ, "!")
		tp = p
		if q, t, ok := strings.Cut(typ, "."); ok {
			tp = r.byIP[names[q]]
			typ = t
		}
		if tp == nil {
			return nil, "", false
		}
		if conv && !isGoType(tp.defs[typ].Kind) {
			// f(v).M with f a function: the result's type is unknown.
			return nil, "", false
		}
		if _, ok := tp.defs[typ+"."+u.Name]; ok {
			return tp, typ + "." + u.Name, false
		}
		return nil, "", tp.fields[typ][u.Name]
	}
	if ip, ok := names[u.Qual]; ok {
		if t := r.byIP[ip]; t != nil {
			if _, ok := t.defs[u.Name]; ok {
				return t, u.Name, false
			}
		}
		return nil, "", false
	}
	if _, ok := p.defs[u.Qual]; ok {
		return p, u.Qual, false
	}
	return nil, "", false
}

// edgeFor is the edge type of a use of a definition of kind.
func edgeFor(use, kind string) string {
	switch use {
	case UseEmbed:
		return EdgeEmbeds
	case UseInherit:
		return EdgeInherits
	case UseCall:
		switch kind {
		case "func", "method", "class":
			return EdgeCalls
		}
	}
	return EdgeReferences
}
