package codegraph

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"
)

// TestExtractKeepsNoByteOfItsInput: BuildTree reads every file of a
// worker into one buffer (walk.Options.ReuseBuffers), which is right only
// if Facts hold no byte of the data they were extracted from. Each
// language's Facts are the same after the input is overwritten.
func TestExtractKeepsNoByteOfItsInput(t *testing.T) {
	goSrc, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "time", "format.go"))
	if err != nil {
		t.Skip(err)
	}
	files := map[string]string{
		"time/format.go": string(goSrc),
		"pkg/mod.py":     "import os\nfrom .b import c as d\n\nclass Box(Base):\n    def run(self, x):\n        return self.size(x) + d(os.sep)\n",
		"web/app.ts":     "import { h } from './h';\nexport function render(x: number) { return h(x); }\nclass View { draw() { render(1); } }\n",
		"src/lib.rs":     "mod util;\nuse crate::util::helper;\npub fn run() -> u32 { helper(2) }\nstruct S;\nimpl S { fn go(&self) {} }\n",
		"A.java":         "package a;\nimport b.C;\npublic class A extends C {\n  void m() { n(); }\n}\n",
		"x.h":            "#include \"y.h\"\nint f(int a);\nstruct P { int q; };\n",
		"lib/r.rb":       "require_relative 'q'\nmodule M\n  class K < Base\n    def call(a)\n      helper(a)\n    end\n  end\nend\n",
	}
	for path, src := range files {
		want := Extract(path, []byte(src))
		if want.Lang == "" || len(want.Defs) == 0 {
			t.Fatalf("%s: the sample extracts nothing: %+v", path, want)
		}
		buf := []byte(src)
		got := Extract(path, buf)
		copy(buf, bytes.Repeat([]byte{'#'}, len(buf)))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Facts changed when the input buffer was overwritten", path)
		}
	}
}

// TestTwoCopiesOfOnePackageAreOneNode: two vendored copies of one import
// path are one package node; their uses are resolved apart (each package
// into a part of its own) and the graph has each edge and unresolved use
// once, with the copies' counts summed and the first copy's line.
func TestTwoCopiesOfOnePackageAreOneNode(t *testing.T) {
	src := "package x\n\nimport \"ext/y\"\n\nfunc F() { G(); y.H() }\n\nfunc G() {}\n"
	root := writeTree(t, map[string]string{
		"a/vendor/x/x.go": src,
		"b/vendor/x/x.go": "package x\n\nimport \"ext/y\"\n\n\nfunc F() { G(); y.H() }\n\nfunc G() {}\n",
	})
	_, _, res := buildTree(t, root)
	var calls []float64
	for _, e := range res.Graph.File.Edges {
		if e.Source == "go:x#F" && e.Target == "go:x#G" {
			calls = append(calls, e.Weight)
		}
	}
	if len(calls) != 1 || calls[0] != 2 {
		t.Errorf("calls go:x#F → go:x#G: want one edge of weight 2, got weights %v", calls)
	}
	var un []Unresolved
	for _, u := range res.Unresolved {
		if u.From == "go:x#F" && u.Name == "y.H" {
			un = append(un, u)
		}
	}
	if len(un) != 1 || un[0].Count != 2 || un[0].Ref != "a/vendor/x/x.go#L5-L5" {
		t.Errorf("unresolved y.H from go:x#F: want one entry, count 2, first copy's line; got %+v", un)
	}
}
