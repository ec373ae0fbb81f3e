package symbols

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"testing"
)

func splitLines(src string) [][]byte {
	return bytes.Split(bytes.TrimSuffix([]byte(src), []byte("\n")), []byte("\n"))
}

func TestEnd(t *testing.T) {
	for _, c := range []struct {
		name, lang, src string
		head, want      int
	}{
		{"go one line", "go", "func f() int { return 1 }\nfunc g() {}\n", 1, 1},
		{"go empty interface in the signature", "go", "func f(x interface{}) struct{} {\n\treturn struct{}{}\n}\n", 1, 3},
		{"go braces in strings and runes", "go", "func f() {\n\ts := \"}\"\n\tr := '}'\n\t// }\n\t_ = `\n}`\n}\nvar x = 1\n", 1, 7},
		{"go closure argument", "go", "func f() {\n\tg(func() {\n\t\th()\n\t})\n}\n", 1, 5},
		{"go method without body", "go", "func f() int\nfunc g() {}\n", 1, 1},
		{"c prototype", "c", "int f(int a);\nint g(void) {\n  return 0;\n}\n", 2, 4},
		{"c block comment", "c", "int f(void) {\n  /* } */\n  return 0;\n}\n", 1, 4},
		{"js destructuring", "javascript", "function f({a, b}) {\n  return a;\n}\n", 1, 3},
		{"rust lifetime", "rust", "fn f<'a>(x: &'a str) -> char {\n    '}'\n}\n", 1, 3},
		{"python body", "python", "def f(a,\n      b):\n    x = 1\n\n    return x\n\ndef g():\n    pass\n", 1, 5},
		{"python docstring at column 0", "python", "class C:\n    def f(self):\n        s = \"\"\"\nat column 0\n\"\"\"\n        return s\n    def g(self):\n        pass\n", 2, 6},
		{"python one line", "python", "def f(): return 1\nx = 2\n", 1, 1},
		{"python last in file", "python", "def f():\n    return 1\n", 1, 2},
		{"ruby", "ruby", "def f\n  if x\n    y\n  end\nend\ndef g; end\n", 1, 5},
		{"unknown language", "", "f {\n}\n", 1, 0},
		{"unclosed", "go", "func f() {\n", 1, 0},
	} {
		if got := End(c.lang, splitLines(c.src), c.head); got != c.want {
			t.Errorf("%s: End = %d, want %d", c.name, got, c.want)
		}
	}
}

// TestEndAgainstParser: on every function of GOROOT/src whose body go/parser
// ends within MaxBody lines, End finds the line of its closing brace.
func TestEndAgainstParser(t *testing.T) {
	files := goRootFiles(t)
	if testing.Short() {
		files = files[:min(len(files), 400)]
	}
	funcs, wrong := 0, 0
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		lines := splitLines(string(src))
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			// Unadjusted positions: //line directives move the reported ones.
			head, end := fset.PositionFor(fd.Type.Func, false).Line, fset.PositionFor(fd.End(), false).Line
			if end-head > MaxBody {
				continue
			}
			funcs++
			if got := End("go", lines, head); got != end {
				if wrong++; wrong <= 5 {
					t.Logf("%s:%d: End = %d, want %d", p, head, got, end)
				}
			}
		}
	}
	// A handful of test-data files are not gofmt-formatted Go (a body on
	// the head's line after a comment, a body-less function followed by a
	// brace on the next line); one in a thousand is allowed.
	if wrong*1000 > funcs {
		t.Errorf("%d of %d functions wrong", wrong, funcs)
	}
	t.Logf("%d functions", funcs)
}
