package symbols

import (
	"fmt"
	"strings"
	"testing"
)

// defsString renders defs as "name:kind:lead-line-end" for comparison.
func defsString(defs []Def) string {
	var parts []string
	for _, d := range defs {
		parts = append(parts, fmt.Sprintf("%s:%s:%d-%d-%d", d.Name, d.Kind, d.Lead, d.Line, d.End))
	}
	return strings.Join(parts, " ")
}

func TestDefs(t *testing.T) {
	for _, c := range []struct {
		name, file, src, want string
	}{
		{"go through go/parser", "a.go", "package a\n\n// T is a type.\ntype T struct {\n\tx int\n}\n\ntype (\n\tU int\n\t// V too.\n\tV interface {\n\t\tM()\n\t}\n)\n\nvar x = 1\n\n// M does.\n// More.\nfunc (t *T) M() {\n\tx++\n}\n\nfunc f[K any](k K) {}\n",
			"T:type:3-4-6 U:type:9-9-9 V:type:10-11-13 M:method:18-20-22 f:func:24-24-24"},
		{"go that does not parse falls back to the line scanner; an unclosed body spans its head", "b.go", "package b\n\nfunc f() {\n\tif {\n}\n\nfunc g() {\n}\n",
			"f:func:3-3-3 g:func:7-7-8"},
		{"python classes, methods, decorators and nested functions", "m.py", "import os\n\n@dec\nclass C:\n    x = 1\n\n    # note\n    @property\n    def f(self):\n        def inner():\n            return 1\n        return inner()\n\ndef g():\n    pass\n",
			"C:class:3-4-12 f:method:7-9-12 inner:method:10-10-11 g:func:14-14-15"},
		{"rust", "l.rs", "/// doc\n#[derive(Debug)]\npub struct S {\n    a: u8,\n}\n\nimpl S {\n    pub fn new() -> S {\n        S { a: 0 }\n    }\n}\nconst C: u8 = 1;\n",
			"S:struct:1-3-5 S:impl:7-7-11 new:func:8-8-10"},
		{"typescript", "x.ts", "export class A {\n  run(x: number): void {\n    go(x);\n  }\n}\nexport const f = (a) => {\n  return a;\n};\nconst n = 3;\n",
			"A:class:1-1-5 run:method:2-2-4 f:func:6-6-8"},
		{"ruby", "r.rb", "module M\n  # says hi\n  def hi\n    puts 1\n  end\nend\n",
			"M:module:1-1-6 hi:method:2-3-5"},
		{"c prototypes are no definitions, preprocessor lines no lead", "c.c", "#include <x.h>\nint f(int a);\n#ifdef X\nint g(void) {\n  return 0;\n}\n#endif\n",
			"g:func:4-4-6"},
		{"unknown language", "x.txt", "def f():\n", ""},
	} {
		if got := defsString(Defs(c.file, []byte(c.src))); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

func TestInnermost(t *testing.T) {
	src := "import os\n\n@dec\nclass C:\n    x = 1\n\n    def f(self):\n        return 1\n\ny = 2\n"
	defs := Defs("m.py", []byte(src))
	for line, want := range map[int]string{1: "", 3: "C", 5: "C", 6: "C", 7: "f", 8: "f", 9: "", 10: ""} {
		got := ""
		if i := Innermost(defs, line); i >= 0 {
			got = defs[i].Name
		}
		if got != want {
			t.Errorf("line %d: innermost %q, want %q", line, got, want)
		}
	}
}

// TestDefsLongBody: a body longer than End's limit still gets its end.
func TestDefsLongBody(t *testing.T) {
	src := "def f():\n" + strings.Repeat("    x = 1\n", 1000) + "\ndef g():\n    pass\n"
	defs := Defs("m.py", []byte(src))
	if len(defs) != 2 || defs[0].End != 1001 || defs[1].Line != 1003 {
		t.Errorf("defs %s", defsString(defs))
	}
}

// TestDefsLeadCapped: a run of comment lines above a head longer than
// maxLead is not its doc.
func TestDefsLeadCapped(t *testing.T) {
	src := strings.Repeat("// filler\n", 100) + "def f():\n    pass\n"
	if d := Defs("m.py", []byte(src)); len(d) != 1 || d[0].Lead != 101-maxLead {
		t.Errorf("defs %s", defsString(d))
	}
}
