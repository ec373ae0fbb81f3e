// Package refs reads what a source file refers to (the identifiers it
// spells, the qualified names it uses, the modules it imports) and counts how
// many of another file's definitions it uses. The ranking uses the count to
// lift a structural neighbour of a strong file: the helper in the same Go
// package whose functions it calls (pkg/cmd/release/create/http.go beside
// create.go), or the Python module it imports names from.
//
// Like pkg/symbols it reads lines, not syntax trees: identifiers are byte
// runs, Go imports come from the import block, Python imports from
// `import`/`from … import` lines, so reading a few files costs well under a
// millisecond each. Go and Python are linked; other languages have no links.
package refs

import (
	"bytes"
	"path"
	"strings"

	"github.com/rtch/rtch/pkg/symbols"
)

// Refs is what one source file refers to.
type Refs struct {
	path string
	lang string
	// idents are the distinct identifiers of the file.
	idents map[string]struct{}
	// qualified are Go "qualifier.Name" pairs, keyed "qualifier.Name".
	qualified map[string]struct{}
	// goImports maps a Go import path to the qualifier the file uses for it
	// ("." for a dot import).
	goImports map[string]string
	// pyImports are the Python modules the file imports from, as slash paths
	// (absolute "a/b/c" or, for relative imports, resolved against the
	// file's directory with a leading "./"), each with the names imported.
	pyImports []pyImport
}

type pyImport struct {
	module string   // "sphinx/util/docfields" or "./sphinx/domains/x"
	names  []string // names after "import" in a from-import
}

// Lang is the language refs links: "go", "python" or "".
func Lang(p string) string {
	if l := symbols.Lang(p); l == "go" || l == "python" {
		return l
	}
	return ""
}

// Read collects the references of the file p with content data. It returns
// nil for a language refs does not link.
func Read(p string, data []byte) *Refs {
	lang := Lang(p)
	if lang == "" {
		return nil
	}
	r := &Refs{path: p, lang: lang, idents: map[string]struct{}{}}
	if lang == "go" {
		r.qualified = map[string]struct{}{}
		r.goImports = goImports(data)
	} else {
		r.pyImports = pyImports(p, data)
	}
	prev, prevEnd := "", -1
	for i := 0; i < len(data); {
		b := data[i]
		if !isIdentStart(b) {
			i++
			continue
		}
		j := i + 1
		for j < len(data) && isIdent(data[j]) {
			j++
		}
		id := string(data[i:j])
		r.idents[id] = struct{}{}
		if r.qualified != nil && prevEnd >= 0 && i == prevEnd+1 && data[prevEnd] == '.' {
			r.qualified[prev+"."+id] = struct{}{}
		}
		prev, prevEnd = id, j
		i = j
	}
	return r
}

// Uses counts the distinct names among defs (the definitions of the file
// target) that the file r was read from uses: for Go, unqualified names of a
// file in the same directory (the same package) and qualified names of a
// package r imports; for Python, names of a module r imports. 0 when the two
// files are not linked.
func (r *Refs) Uses(target string, defs []string) int {
	if r == nil || target == r.path || Lang(target) != r.lang || len(defs) == 0 {
		return 0
	}
	seen := map[string]bool{}
	count := func(ok func(name string) bool) int {
		n := 0
		for _, d := range defs {
			if !seen[d] && ok(d) {
				seen[d] = true
				n++
			}
		}
		return n
	}
	unqualified := func(d string) bool { _, ok := r.idents[d]; return ok }
	dir := path.Dir(target)
	if r.lang == "go" {
		if dir == path.Dir(r.path) {
			return count(unqualified)
		}
		n := 0
		for ip, q := range r.goImports {
			if dir == "." || (ip != dir && !strings.HasSuffix(ip, "/"+dir)) {
				continue
			}
			if q == "." {
				n += count(unqualified)
				continue
			}
			n += count(func(d string) bool { _, ok := r.qualified[q+"."+d]; return ok })
		}
		return n
	}
	for _, im := range r.pyImports {
		if pyResolves(im, target) {
			return count(unqualified)
		}
	}
	return 0
}

// goImports reads the import declarations of a Go file: the path and the
// qualifier (the alias, or the path's last element).
func goImports(data []byte) map[string]string {
	out := map[string]string{}
	spec := func(line []byte) {
		line = bytes.TrimSpace(line)
		alias := ""
		if q := bytes.IndexByte(line, '"'); q > 0 {
			alias = string(bytes.TrimSpace(line[:q]))
			line = line[q:]
		}
		if len(line) < 2 || line[0] != '"' {
			return
		}
		end := bytes.IndexByte(line[1:], '"')
		if end < 0 {
			return
		}
		ip := string(line[1 : 1+end])
		switch alias {
		case "_":
			return
		case "":
			alias = path.Base(ip)
		}
		out[ip] = alias
	}
	inBlock := false
	for len(data) > 0 {
		var line []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, nil
		}
		switch {
		case inBlock:
			if t := bytes.TrimSpace(line); len(t) > 0 && t[0] == ')' {
				inBlock = false
			} else {
				spec(line)
			}
		case bytes.HasPrefix(line, []byte("import")):
			rest := bytes.TrimSpace(line[len("import"):])
			if len(rest) > 0 && rest[0] == '(' {
				inBlock = true
			} else {
				spec(rest)
			}
		case bytes.HasPrefix(line, []byte("func ")), bytes.HasPrefix(line, []byte("type ")),
			bytes.HasPrefix(line, []byte("var ")), bytes.HasPrefix(line, []byte("const ")):
			// Imports precede every declaration.
			return out
		}
	}
	return out
}

// pyImports reads `import a.b, c` and `from .a.b import x, y` lines
// (parenthesised name lists may continue over several lines).
func pyImports(p string, data []byte) []pyImport {
	var out []pyImport
	lines := bytes.Split(data, []byte("\n"))
	for i := 0; i < len(lines); i++ {
		line := bytes.TrimSpace(lines[i])
		switch {
		case bytes.HasPrefix(line, []byte("import ")):
			for _, m := range strings.Split(string(line[len("import "):]), ",") {
				m = strings.TrimSpace(m)
				if k := strings.Index(m, " as "); k >= 0 {
					m = m[:k]
				}
				if m != "" {
					out = append(out, pyImport{module: strings.ReplaceAll(m, ".", "/")})
				}
			}
		case bytes.HasPrefix(line, []byte("from ")):
			rest := string(line[len("from "):])
			k := strings.Index(rest, " import ")
			if k < 0 {
				continue
			}
			mod, names := strings.TrimSpace(rest[:k]), rest[k+len(" import "):]
			if strings.Contains(names, "(") && !strings.Contains(names, ")") {
				for i+1 < len(lines) {
					i++
					names += " " + string(lines[i])
					if bytes.Contains(lines[i], []byte(")")) {
						break
					}
				}
			}
			names = strings.NewReplacer("(", " ", ")", " ", "\\", " ").Replace(names)
			if k := strings.IndexByte(names, '#'); k >= 0 {
				names = names[:k]
			}
			im := pyImport{}
			for _, n := range strings.Split(names, ",") {
				n = strings.TrimSpace(n)
				if k := strings.Index(n, " as "); k >= 0 {
					n = n[:k]
				}
				if n != "" && n != "*" {
					im.names = append(im.names, n)
				}
			}
			dots := len(mod) - len(strings.TrimLeft(mod, "."))
			if dots == 0 {
				im.module = strings.ReplaceAll(mod, ".", "/")
			} else {
				base := path.Dir(p)
				for d := 1; d < dots; d++ {
					base = path.Dir(base)
				}
				if m := strings.TrimLeft(mod, "."); m != "" {
					base = path.Join(base, strings.ReplaceAll(m, ".", "/"))
				}
				im.module = "./" + base
			}
			out = append(out, im)
		}
	}
	return out
}

// pyResolves says whether the import names the module file target: the
// module itself (a/b.py or a/b/__init__.py), or a submodule imported by
// name from a package (from a import b → a/b.py). An absolute module
// matches a file path ending with it, so src/ layouts resolve too.
func pyResolves(im pyImport, target string) bool {
	stem := strings.TrimSuffix(strings.TrimSuffix(target, ".pyi"), ".py")
	stem = strings.TrimSuffix(stem, "/__init__")
	match := func(mod string) bool {
		if rel, ok := strings.CutPrefix(mod, "./"); ok {
			return stem == path.Clean(rel)
		}
		return stem == mod || strings.HasSuffix(stem, "/"+mod)
	}
	if im.module != "" && match(im.module) {
		return true
	}
	for _, n := range im.names {
		if match(strings.TrimSuffix(im.module, "/") + "/" + n) {
			return true
		}
	}
	return false
}

func isIdentStart(b byte) bool {
	return b == '_' || ('a' <= b && b <= 'z') || ('A' <= b && b <= 'Z')
}

func isIdent(b byte) bool { return isIdentStart(b) || ('0' <= b && b <= '9') }
