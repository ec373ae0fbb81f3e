package codegraph

import (
	"path"
	"sort"
	"strings"
)

// pyMod is one Python module (one file).
type pyMod struct {
	id, name string
	file     *Facts
	pkg      bool // an __init__.py
	defs     map[string]Def
	// binds maps a name bound by an import to what it names: a module
	// ("m:dotted") or a name in a module ("n:dotted:name").
	binds map[string]string
	// bases are each class's base-class expressions (qual, name).
	bases map[string][][2]string
	node  int32
	syms  map[string]int32
}

type pyResolver struct {
	mods   []*pyMod
	byName map[string]*pyMod
}

// pyModuleName is a file's dotted module name, counted from the nearest
// ancestor directory that is not a package (holds no __init__.py), as
// Python finds it on sys.path.
func pyModuleName(p string, inits map[string]bool) string {
	dir, base := path.Split(p)
	dir = strings.TrimSuffix(dir, "/")
	base = strings.TrimSuffix(strings.TrimSuffix(base, ".pyi"), ".py")
	parts := []string{}
	if base != "__init__" {
		parts = append(parts, base)
	}
	for dir != "" && dir != "." && inits[dir] {
		parts = append(parts, path.Base(dir))
		dir = path.Dir(dir)
		if dir == "." {
			dir = ""
		}
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, ".")
}

func newPyResolver(files []*Facts) *pyResolver {
	r := &pyResolver{byName: map[string]*pyMod{}}
	inits := map[string]bool{}
	for _, f := range files {
		if b := path.Base(f.Path); b == "__init__.py" || b == "__init__.pyi" {
			inits[dirOf(f.Path)] = true
		}
	}
	count := map[string]int{}
	for _, f := range files {
		name := pyModuleName(f.Path, inits)
		if name == "" {
			continue
		}
		b := path.Base(f.Path)
		m := &pyMod{id: "py:" + name, name: name, file: f, pkg: strings.HasPrefix(b, "__init__."), defs: map[string]Def{},
			binds: map[string]string{}, bases: map[string][][2]string{}}
		for _, d := range f.Defs {
			if _, dup := m.defs[d.Key()]; !dup {
				m.defs[d.Key()] = d
			}
		}
		for _, u := range f.Uses {
			if u.Kind == UseInherit {
				m.bases[u.From] = append(m.bases[u.From], [2]string{u.Qual, u.Name})
			}
		}
		count[name]++
		r.mods = append(r.mods, m)
	}
	kept := r.mods[:0]
	for _, m := range r.mods {
		if count[m.name] > 1 {
			// Two files claim one module name (scripts of the same name in
			// different directories, a .py beside its .pyi): each keeps a
			// file-qualified id, and imports of the name stay unresolved.
			m.id = "py:" + m.file.Path
		} else {
			r.byName[m.name] = m
		}
		kept = append(kept, m)
	}
	r.mods = kept
	sort.Slice(r.mods, func(i, j int) bool { return r.mods[i].id < r.mods[j].id })
	return r
}

func (m *pyMod) symID(key string) string { return m.id + "#" + key }

func (m *pyMod) sym(key string) int32 {
	if i, ok := m.syms[key]; ok {
		return i
	}
	return -1
}

func (r *pyResolver) resolve(o *out) {
	for _, m := range r.mods {
		f := m.file
		m.node = o.node(m.id, "module", m.name, lineRef(f.Path, 1, max(f.Lines, 1)), "high", "Python module "+m.name)
		file := o.lookup(FileID(f.Path))
		o.edge(m.node, file, EdgeContains)
		m.syms = map[string]int32{}
		for _, d := range f.Defs {
			m.syms[d.Key()] = o.node(m.symID(d.Key()), nodeType(d.Kind), m.name+"."+d.Key(), lineRef(f.Path, d.Start, d.End), "medium", d.Signature)
		}
		for _, d := range f.Defs {
			o.edge(file, m.sym(d.Key()), EdgeDefines)
			if d.Container != "" {
				o.edge(m.sym(d.Container), m.sym(d.Key()), EdgeContains)
			}
		}
	}
	for _, m := range r.mods {
		r.imports(o, m)
	}
	for _, m := range r.mods {
		r.uses(o, m)
	}
}

// absolute turns an import spec into an absolute dotted name.
func (r *pyResolver) absolute(m *pyMod, spec string) string {
	level := len(spec) - len(strings.TrimLeft(spec, "."))
	if level == 0 {
		return spec
	}
	base := m.name
	if !m.pkg {
		base, _ = splitLast(base)
	}
	for i := 1; i < level; i++ {
		base, _ = splitLast(base)
	}
	rest := spec[level:]
	switch {
	case base == "":
		return rest
	case rest == "":
		return base
	}
	return base + "." + rest
}

// imports binds the names a module's imports introduce and adds its import
// edges: to the in-tree module, or to an external node for a top-level
// package the tree does not hold. An import of a missing module under an
// in-tree package is unresolved.
func (r *pyResolver) imports(o *out, m *pyMod) {
	for _, im := range m.file.Imports {
		abs := r.absolute(m, im.Spec)
		if im.Names == nil {
			r.importEdge(o, m, abs, im.Line)
			bound := im.Alias
			target := "m:" + abs
			if bound == "" {
				// "import a.b" binds a.
				bound, _, _ = strings.Cut(abs, ".")
				target = "m:" + bound
			}
			m.binds[bound] = target
			continue
		}
		r.importEdge(o, m, abs, im.Line)
		for _, n := range im.Names {
			name, alias, ok := strings.Cut(n, " as ")
			if !ok {
				alias = name
			}
			if name == "*" {
				continue
			}
			if sub, ok := r.byName[abs+"."+name]; ok {
				o.edge(m.node, sub.node, EdgeImports)
				m.binds[alias] = "m:" + sub.name
			} else {
				m.binds[alias] = "n:" + abs + ":" + name
			}
		}
	}
}

func (r *pyResolver) importEdge(o *out, m *pyMod, abs string, line int) {
	if t, ok := r.byName[abs]; ok {
		o.edge(m.node, t.node, EdgeImports)
		return
	}
	top, _, _ := strings.Cut(abs, ".")
	if _, inTree := r.byName[top]; inTree || top == "" {
		o.unresolved(m.node, "import "+abs, m.file.Path, line)
		return
	}
	ext := o.node("ext:py:"+top, "external", top, "", "high", "Python package outside the tree")
	o.edge(m.node, ext, EdgeImports)
}

// entity is what a name resolves to: a module, or a definition in one.
type entity struct {
	mod *pyMod
	key string // "" for the module itself
}

// lookup resolves name inside module m: a definition, a submodule, or a
// binding followed through at most depth imports.
func (r *pyResolver) lookup(m *pyMod, name string, depth int) (entity, bool) {
	if _, ok := m.defs[name]; ok {
		return entity{m, name}, true
	}
	if sub, ok := r.byName[m.name+"."+name]; ok {
		return entity{sub, ""}, true
	}
	if b, ok := m.binds[name]; ok && depth > 0 {
		return r.bound(b, depth-1)
	}
	return entity{}, false
}

func (r *pyResolver) bound(b string, depth int) (entity, bool) {
	if strings.HasPrefix(b, "m:") {
		t, ok := r.byName[b[2:]]
		return entity{t, ""}, ok
	}
	modName, name, _ := strings.Cut(b[2:], ":")
	t, ok := r.byName[modName]
	if !ok {
		return entity{}, false
	}
	return r.lookup(t, name, depth)
}

// member resolves attribute name of e: a module's name, a class's method
// (through its in-tree bases, at most depth classes deep).
func (r *pyResolver) member(e entity, name string, depth int) (entity, bool) {
	if e.key == "" {
		return r.lookup(e.mod, name, 5)
	}
	d := e.mod.defs[e.key]
	if d.Kind != "class" || depth <= 0 {
		return entity{}, false
	}
	if _, ok := e.mod.defs[e.key+"."+name]; ok {
		return entity{e.mod, e.key + "." + name}, true
	}
	for _, b := range e.mod.bases[e.key] {
		if base, ok := r.qualified(e.mod, "", b[0], b[1]); ok {
			if got, ok := r.member(base, name, depth-1); ok {
				return got, true
			}
		}
	}
	return entity{}, false
}

// qualified resolves qual.name as written in module m, inside the
// definition from.
func (r *pyResolver) qualified(m *pyMod, from, qual, name string) (entity, bool) {
	if qual == "" {
		return r.lookup(m, name, 5)
	}
	parts := strings.Split(qual, ".")
	var e entity
	switch parts[0] {
	case "self", "cls":
		cls, _ := splitLast(from)
		if _, ok := m.defs[cls]; !ok || cls == "" {
			return entity{}, false
		}
		e = entity{m, cls}
	default:
		var ok bool
		if e, ok = r.lookup(m, parts[0], 5); !ok {
			return entity{}, false
		}
	}
	for _, p := range parts[1:] {
		var ok bool
		if e, ok = r.member(e, p, 5); !ok {
			return entity{}, false
		}
	}
	return r.member(e, name, 5)
}

func (r *pyResolver) uses(o *out, m *pyMod) {
	file := o.lookup(FileID(m.file.Path))
	for _, u := range m.file.Uses {
		from := file
		if u.From != "" {
			from = m.sym(u.From)
		}
		e, ok := r.qualified(m, u.From, u.Qual, u.Name)
		if !ok {
			if u.Qual == "" && pyBuiltins[u.Name] {
				continue
			}
			o.unresolved(from, unresolvedName(u), m.file.Path, u.Line)
			continue
		}
		if e.key == "" {
			o.edge(from, e.mod.node, EdgeReferences)
			continue
		}
		o.edge(from, e.mod.sym(e.key), edgeFor(u.Kind, e.mod.defs[e.key].Kind))
	}
}

// pyBuiltins are the names of Python's builtins module: a call to one
// names nothing of the tree.
var pyBuiltins = map[string]bool{}

func init() {
	for _, s := range strings.Fields(`abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable
		chr classmethod compile complex delattr dict dir divmod enumerate eval exec filter float format
		frozenset getattr globals hasattr hash help hex id input int isinstance issubclass iter len list
		locals map max memoryview min next object oct open ord pow print property range repr reversed
		round set setattr slice sorted staticmethod str sum super tuple type vars zip __import__
		BaseException Exception ArithmeticError AssertionError AttributeError EOFError ImportError
		IndexError KeyError KeyboardInterrupt LookupError MemoryError NameError NotImplementedError
		OSError OverflowError RecursionError RuntimeError StopIteration SyntaxError SystemExit TypeError
		ValueError ZeroDivisionError UnicodeDecodeError UnicodeEncodeError Warning UserWarning
		DeprecationWarning FileNotFoundError IOError PermissionError TimeoutError NotImplemented`) {
		pyBuiltins[s] = true
	}
}
