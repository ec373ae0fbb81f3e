package codegraph

import (
	"path"
	"sort"
	"strings"
)

// resolvePatterned adds the symbols and import edges of the languages read
// by patterns: JavaScript/TypeScript, Rust, Java, C/C++ and Ruby. Their
// imports resolve to files of the tree by the language's own lookup
// (relative specifiers, a Java type's path, an include beside the file or
// under an include/ directory); anything else becomes an external node.
func resolvePatterned(o *out, byLang map[string][]*Facts, all map[string]Facts) {
	langs := []string{"c", "java", "javascript", "ruby", "rust"}
	idx := newPathIndex(all)
	for _, l := range langs {
		for _, f := range byLang[l] {
			file := o.lookup(FileID(f.Path))
			for _, d := range f.Defs {
				sym := o.node("sym:"+f.Path+"#"+d.Key(), nodeType(d.Kind), d.Key(), lineRef(f.Path, d.Start, d.End), "medium", d.Signature)
				o.edge(file, sym, EdgeDefines)
			}
			for _, im := range f.Imports {
				if t, ok := idx.resolve(l, f.Path, im); ok && o.lookup(FileID(t)) >= 0 {
					o.edge(file, o.lookup(FileID(t)), EdgeImports)
					continue
				}
				if im.Local {
					o.unresolved(file, im.Spec, f.Path, im.Line)
					continue
				}
				name := externalName(l, im.Spec)
				o.edge(file, o.node("ext:"+l+":"+name, "external", name, "", "high", "imported from outside the tree"), EdgeImports)
			}
		}
	}
}

// externalName is the package an external import names.
func externalName(lang, spec string) string {
	switch lang {
	case "rust":
		top, _, _ := strings.Cut(spec, "::")
		return top
	case "javascript":
		parts := strings.Split(spec, "/")
		if strings.HasPrefix(spec, "@") && len(parts) > 1 {
			return parts[0] + "/" + parts[1]
		}
		return parts[0]
	}
	return spec
}

type pathIndex struct {
	files       map[string]bool
	byBase      map[string][]string
	includeDirs []string
}

func newPathIndex(all map[string]Facts) *pathIndex {
	x := &pathIndex{files: map[string]bool{}, byBase: map[string][]string{}}
	dirs := map[string]bool{}
	for p := range all {
		x.files[p] = true
		if strings.HasSuffix(p, ".java") {
			x.byBase[path.Base(p)] = append(x.byBase[path.Base(p)], p)
		}
		for d := dirOf(p); d != "." && d != "/"; d = dirOf(d) {
			if path.Base(d) == "include" {
				dirs[d] = true
			}
		}
	}
	for d := range dirs {
		x.includeDirs = append(x.includeDirs, d)
	}
	sort.Strings(x.includeDirs)
	return x
}

func (x *pathIndex) first(cands ...string) (string, bool) {
	for _, c := range cands {
		c = path.Clean(c)
		if x.files[c] {
			return c, true
		}
	}
	return "", false
}

func (x *pathIndex) resolve(lang, from string, im Import) (string, bool) {
	dir := dirOf(from)
	switch lang {
	case "javascript":
		if !strings.HasPrefix(im.Spec, ".") {
			return "", false
		}
		base := path.Join(dir, im.Spec)
		var cands []string
		for _, ext := range []string{"", ".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", "/index.ts", "/index.tsx", "/index.js", "/index.jsx"} {
			cands = append(cands, base+ext)
		}
		// TypeScript sources import their compiled name: "./x.js" is x.ts.
		if e := path.Ext(base); e == ".js" || e == ".jsx" {
			cands = append(cands, strings.TrimSuffix(base, e)+".ts", strings.TrimSuffix(base, e)+".tsx")
		}
		return x.first(cands...)
	case "c":
		cands := []string{path.Join(dir, im.Spec), im.Spec}
		for _, d := range x.includeDirs {
			cands = append(cands, path.Join(d, im.Spec))
		}
		return x.first(cands...)
	case "ruby":
		spec := im.Spec
		if !strings.HasSuffix(spec, ".rb") {
			spec += ".rb"
		}
		if im.Local {
			return x.first(path.Join(dir, spec))
		}
		return x.first(path.Join("lib", spec), spec)
	case "java":
		if strings.HasSuffix(im.Spec, ".*") {
			return "", false
		}
		rel := strings.ReplaceAll(im.Spec, ".", "/") + ".java"
		return x.javaFile(rel)
	case "rust":
		if im.Local {
			stem := strings.TrimSuffix(path.Base(from), ".rs")
			base := dir
			if stem != "mod" && stem != "lib" && stem != "main" {
				base = path.Join(dir, stem)
			}
			return x.first(path.Join(base, im.Spec+".rs"), path.Join(base, im.Spec, "mod.rs"))
		}
		return x.rustUse(from, im.Spec)
	}
	return "", false
}

// javaFile finds the file of a fully qualified type under any source root.
func (x *pathIndex) javaFile(rel string) (string, bool) {
	var found []string
	for _, p := range x.byBase[path.Base(rel)] {
		if p == rel || strings.HasSuffix(p, "/"+rel) {
			found = append(found, p)
		}
	}
	if len(found) != 1 {
		// None, or several source roots declaring the same type: not ours
		// to choose.
		return "", false
	}
	return found[0], true
}

// rustUse resolves "crate::a::b::C" to src/a/b.rs, src/a/b/mod.rs, src/a.rs
// or src/a/mod.rs of the crate holding from (the nearest ancestor with a
// src/ directory beside a Cargo.toml).
func (x *pathIndex) rustUse(from, spec string) (string, bool) {
	parts := strings.Split(spec, "::")
	if len(parts) < 2 || parts[0] != "crate" {
		return "", false
	}
	root := ""
	for d := dirOf(from); ; d = dirOf(d) {
		if x.files[path.Join(d, "Cargo.toml")] {
			root = path.Join(d, "src")
			break
		}
		if d == "." || d == "/" {
			return "", false
		}
	}
	mods := parts[1:]
	for n := len(mods); n >= 1; n-- {
		p := path.Join(append([]string{root}, mods[:n]...)...)
		if t, ok := x.first(p+".rs", path.Join(p, "mod.rs")); ok {
			return t, true
		}
	}
	return "", false
}
