// Package codegraph builds a guild.knowledge_graph.v1 (SPEC §10) of a source
// tree: files, packages or modules and the symbols they define, joined by
// contains, defines, imports, calls, references, embeds, implements and
// inherits edges.
//
// The work has two steps so that the first can be cached per content hash
// (FactsCache): Extract reads one file alone and returns its
// Facts (definitions, imports and the names it uses, nothing resolved);
// a Builder takes the Facts of every file, resolves names across files and
// packages, and writes the graph. Go is read through go/parser and go/ast;
// Python through its import statements, defs, classes and call names;
// JavaScript/TypeScript, Rust, Java, C/C++ and Ruby through their import
// forms and the definitions pkg/symbols finds. A name the builder cannot
// resolve is kept in the graph's "unresolved" layer, never guessed into an
// edge. The output is sorted and byte-identical for the same tree.
package codegraph

import "github.com/rtch/rtch/pkg/secret"

// Facts is what one file says about itself, before any resolution.
type Facts struct {
	// Path is the file's path relative to the root, '/'-separated.
	Path string
	// Lang is the language (go, python, javascript, typescript, rust, java,
	// c, cpp, ruby).
	Lang string
	// Lines is the file's line count.
	Lines int
	// Package is the Go package clause ("" for other languages).
	Package string
	// Defs are the file's definitions in source order.
	Defs []Def
	// Imports are the file's import statements in source order.
	Imports []Import
	// Uses are the names the file's code refers to, in source order.
	Uses []Use
	// Problem, when set, is a syntax error ("path:line:col: message"): the
	// file is in the graph but its definitions and uses are not.
	Problem string
}

// Def is one definition.
type Def struct {
	// Name is the bare identifier.
	Name string
	// Container is the receiver type (Go) or enclosing class.
	Container string
	// Kind is func, method, type, interface, struct, class, const, var, …
	Kind string
	// Start and End are the 1-based lines the definition spans.
	Start, End int
	// Signature is the definition's first line, trimmed and capped.
	Signature string
	// Fields are a Go struct's field names (selectors on a receiver that
	// name a field resolve to no symbol and are not unresolved).
	Fields []string
	// Sig is a Go method's parameter and result types as written, named
	// types marked for the builder to qualify (see goSig): "(@.T,[]byte)(int,error)".
	Sig string
	// Methods are a Go interface's own methods (embedded interfaces are
	// embed uses).
	Methods []Method
	// TypeSet is true for a Go interface with a type element (~int |
	// string): a constraint, which no type implements by its methods.
	TypeSet bool
}

// Method is one method an interface declares.
type Method struct {
	Name, Sig string
}

// Key is the definition's name inside its package or module.
func (d Def) Key() string {
	if d.Container != "" {
		return d.Container + "." + d.Name
	}
	return d.Name
}

// Import is one imported package, module, file or header.
type Import struct {
	// Spec is the import as written: a Go import path, a Python module
	// (leading dots for a relative import), a JS/TS specifier, a Rust module
	// path, a Java type or package, a header name, a Ruby require.
	Spec string
	// Alias is the local name it binds (Go: "" for the package's own name,
	// "_" or "."; Python: the bound name of "import a.b as c").
	Alias string
	// Names are the names a Python "from M import a, b as c" binds, each
	// "a" or "b as c"; nil for a whole-module import.
	Names []string
	// Line is 1-based.
	Line int
	// Local is true for a form that names a file relative to the importer
	// (#include "x.h", require_relative, Rust mod x;).
	Local bool
}

// Use is one reference from the file's code to a name.
type Use struct {
	// From is the Key of the enclosing definition ("" at file level).
	From string
	// Qual qualifies Name: "" for a bare name; for Go a local identifier
	// (an import name, or a package-level variable) or "#T" for a method's
	// receiver of type T; for Python the dotted prefix as written ("self",
	// "np", "Add").
	Qual string
	// Name is the referenced identifier.
	Name string
	// Kind is call, ref, embed or inherit.
	Kind string
	// Line is 1-based: the first use's line.
	Line int
	// Count is how many times From uses it (0 is read as once).
	Count int
}

// times is how many uses u stands for.
func (u Use) times() int { return max(u.Count, 1) }

// Use kinds.
const (
	UseCall    = "call"
	UseRef     = "ref"
	UseEmbed   = "embed"
	UseInherit = "inherit"
)

// signatureCap bounds Def.Signature in bytes.
const signatureCap = 160

// signature is a definition's first line as the graph shows it: trimmed,
// with what the redactor recognises as a secret replaced by its mark (before
// the cap, which could cut a secret past recognition), then capped. The
// graph file, its facts cache and every chunk recalled from them so never
// hold such a value.
func signature(line string) string {
	for len(line) > 0 && (line[0] == ' ' || line[0] == '\t') {
		line = line[1:]
	}
	for len(line) > 0 && (line[len(line)-1] == ' ' || line[len(line)-1] == '\t' || line[len(line)-1] == '\r' || line[len(line)-1] == '{') {
		line = line[:len(line)-1]
	}
	line = secret.String(line)
	if len(line) > signatureCap {
		cut := signatureCap
		for cut > 0 && line[cut]&0xC0 == 0x80 {
			cut--
		}
		line = line[:cut] + "…"
	}
	return line
}
