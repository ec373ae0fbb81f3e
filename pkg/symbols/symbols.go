// Package symbols finds code symbol definitions (functions, methods, types,
// classes, constants, macros) in source files, line by line, for the shape
// scout. Each language has its own extractor tuned to how the language is
// written in practice; none of them builds a syntax tree, so a whole
// repository is covered in a fraction of the time a parser would take.
//
// Go is read by a layout-aware line scanner that relies on gofmt's layout
// (top-level declarations start in column 0, grouped specs are indented by
// one tab); it agrees with go/parser on declared names across GOROOT (see
// TestGoAgainstParser) at a fraction of its cost, measured in
// docs/decisions/discovery.md. Python, JavaScript/TypeScript, Rust, Java,
// C/C++ and Ruby use per-line patterns behind cheap keyword prefilters.
package symbols

import (
	"bytes"
	"path"
	"strings"
)

// Symbol is one definition.
type Symbol struct {
	// Name is the defined identifier (for methods the bare method name).
	Name string
	// Kind: func, method, type, class, interface, struct, enum, trait, module,
	// const, var, macro, impl, typedef.
	Kind string
	// Line is 1-based.
	Line int
	// Lang is the language: go, python, javascript, typescript, rust, java, c,
	// cpp, ruby.
	Lang string
	// Container is the receiver type or enclosing class when known.
	Container string
}

// Lang returns the language of a file by its name, or "" when no extractor
// handles it.
func Lang(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".go":
		return "go"
	case ".py", ".pyi":
		return "python"
	case ".js", ".jsx", ".mjs", ".cjs":
		return "javascript"
	case ".ts", ".tsx", ".mts", ".cts":
		return "typescript"
	case ".rs":
		return "rust"
	case ".java":
		return "java"
	case ".c", ".h":
		return "c"
	case ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx", ".c++", ".h++":
		return "cpp"
	case ".rb", ".rake":
		return "ruby"
	}
	switch path.Base(name) {
	case "Rakefile", "Gemfile":
		return "ruby"
	}
	return ""
}

// Extract returns the definitions in src, a file named name, in line order.
// It returns nil for a language it does not know.
func Extract(name string, src []byte) []Symbol {
	return AppendExtract(nil, name, src)
}

// AppendExtract appends the definitions in src to dst and returns the
// extended slice, so a caller that reads many files can reuse one.
func AppendExtract(dst []Symbol, name string, src []byte) []Symbol {
	lang := Lang(name)
	n := len(dst)
	switch lang {
	case "go":
		dst = goSymbols(dst, src)
	case "python":
		dst = pythonSymbols(dst, src)
	case "javascript", "typescript":
		dst = jsSymbols(dst, src)
	case "rust":
		dst = rustSymbols(dst, src)
	case "java":
		dst = javaSymbols(dst, src)
	case "c", "cpp":
		dst = cSymbols(dst, src)
	case "ruby":
		dst = rubySymbols(dst, src)
	default:
		return dst
	}
	for i := n; i < len(dst); i++ {
		dst[i].Lang = lang
	}
	return dst
}

// forLines calls fn for every line of src (without its terminator) with its
// 1-based number. "\n", "\r\n" and a lone "\r" end lines, as in walk.Lines.
func forLines(src []byte, fn func(no int, line []byte)) {
	lone := bytes.IndexByte(src, '\r') >= 0
	no := 0
	for len(src) > 0 {
		no++
		i := bytes.IndexByte(src, '\n')
		var line []byte
		if i < 0 {
			line, src = src, nil
		} else {
			line, src = src[:i], src[i+1:]
		}
		if lone {
			line = bytes.TrimSuffix(line, []byte{'\r'})
			// A lone CR inside the segment splits it into several lines.
			for {
				j := bytes.IndexByte(line, '\r')
				if j < 0 {
					break
				}
				fn(no, line[:j])
				no++
				line = line[j+1:]
			}
		}
		fn(no, line)
	}
}

func isIdentStart(b byte) bool {
	return b == '_' || ('a' <= b && b <= 'z') || ('A' <= b && b <= 'Z') || b >= 0x80
}

func isIdent(b byte) bool { return isIdentStart(b) || ('0' <= b && b <= '9') }

// ident returns the identifier at the start of b ("" when none).
func ident(b []byte) string {
	if len(b) == 0 || !isIdentStart(b[0]) {
		return ""
	}
	i := 1
	for i < len(b) && isIdent(b[i]) {
		i++
	}
	return string(b[:i])
}

// skipSpace drops leading spaces and tabs.
func skipSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	return b
}

// cutWord returns the rest of b after the keyword kw followed by a space or
// tab (and the spaces after it), and whether b starts with it.
func cutWord(b []byte, kw string) ([]byte, bool) {
	if len(b) <= len(kw) || string(b[:len(kw)]) != kw || (b[len(kw)] != ' ' && b[len(kw)] != '\t') {
		return b, false
	}
	return skipSpace(b[len(kw):]), true
}
