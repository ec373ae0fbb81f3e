package codegraph

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/graph"
)

// writeTree writes files (path → content) under a new directory.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func edgeSet(t *testing.T, root string) (map[string]bool, *Result) {
	t.Helper()
	_, _, res := buildTree(t, root)
	out := map[string]bool{}
	for _, e := range res.Graph.File.Edges {
		out[e.Source+" -"+e.Type+"-> "+e.Target] = true
	}
	return out, res
}

func want(t *testing.T, es map[string]bool, list ...string) {
	t.Helper()
	for _, e := range list {
		if !es[e] {
			t.Errorf("missing edge %s", e)
		}
	}
}

func unresolvedNames(res *Result) map[string]bool {
	out := map[string]bool{}
	for _, u := range res.Unresolved {
		out[u.From+" "+u.Name] = true
	}
	return out
}

func TestPython(t *testing.T) {
	root := writeTree(t, map[string]string{
		"pkg/__init__.py": "from .core import Basic as B\nfrom pkg.util import helper\n",
		"pkg/core.py": `import numpy as np
from . import util
from .util import helper, missing_name


class Basic(object):
    """A docstring that mentions fake(call)."""

    def subs(self, x):
        return self._eval(x)

    def _eval(self, x):
        return helper(x) + util.twice(x)


class Add(Basic):
    def run(self):
        self.subs(1)  # inherited
        np.array([1])
        unknown_thing()
        return len([])
`,
		"pkg/util.py":        "def helper(x):\n    return twice(x)\n\n\ndef twice(x):\n    return 2 * x\n",
		"tests/test_core.py": "from pkg import B\nfrom ..nowhere import x\n\ndef test_b():\n    B().subs(2)\n",
	})
	es, res := edgeSet(t, root)
	want(t, es,
		"py:pkg.core -imports-> py:pkg.util",
		"py:pkg.core -imports-> ext:py:numpy",
		"py:pkg -imports-> py:pkg.core",
		"py:pkg.core#Basic.subs -calls-> py:pkg.core#Basic._eval",
		"py:pkg.core#Basic._eval -calls-> py:pkg.util#helper",
		"py:pkg.core#Basic._eval -calls-> py:pkg.util#twice",
		"py:pkg.util#helper -calls-> py:pkg.util#twice",
		"py:pkg.core#Add -inherits-> py:pkg.core#Basic",
		"py:pkg.core#Add.run -calls-> py:pkg.core#Basic.subs",
		"py:pkg.core -contains-> file:pkg/core.py",
		"file:pkg/core.py -defines-> py:pkg.core#Basic.subs",
		// A name re-exported by pkg/__init__.py is followed to its definition.
		"py:test_core#test_b -calls-> py:pkg.core#Basic",
	)
	for e := range es {
		if strings.Contains(e, "fake") || strings.Contains(e, "#len") {
			t.Errorf("edge from a string or to a builtin: %s", e)
		}
	}
	un := unresolvedNames(res)
	for _, u := range []string{"py:pkg.core#Add.run unknown_thing", "py:pkg.core#Add.run np.array"} {
		if !un[u] {
			t.Errorf("unresolved use %q not kept: %v", u, un)
		}
	}
	var sub graph.Node
	for _, n := range res.Graph.File.Nodes {
		if n.ID == "py:pkg.core#Basic.subs" {
			sub = n
		}
	}
	if sub.Type != "method" || len(sub.SourceRefs) != 1 || sub.SourceRefs[0] != "pkg/core.py#L9-L10" {
		t.Errorf("Basic.subs node: %+v", sub)
	}
}

func TestPatternedLanguages(t *testing.T) {
	root := writeTree(t, map[string]string{
		"web/src/app.ts":                                "import { api } from './api';\nimport React from 'react';\nexport function App() {}\n",
		"web/src/api/index.ts":                          "export const api = 1;\nexport class Client {}\n",
		"rs/Cargo.toml":                                 "[package]\nname = \"x\"\n",
		"rs/src/lib.rs":                                 "mod net;\nuse crate::net::Conn;\nuse serde::Serialize;\npub fn run() {}\n",
		"rs/src/net.rs":                                 "pub struct Conn;\n",
		"java/src/main/java/com/acme/App.java":          "package com.acme;\nimport com.acme.util.Strings;\nimport java.util.List;\npublic class App {}\n",
		"java/src/main/java/com/acme/util/Strings.java": "package com.acme.util;\npublic class Strings {}\n",
		"c/include/lib.h":                               "#ifndef LIB_H\n#define LIB_H\nint lib_add(int a, int b);\n#endif\n",
		"c/src/lib.c":                                   "#include \"lib.h\"\n#include <stdio.h>\n#include \"gone.h\"\nint lib_add(int a, int b) { return a + b; }\n",
	})
	es, res := edgeSet(t, root)
	want(t, es,
		"file:web/src/app.ts -imports-> file:web/src/api/index.ts",
		"file:web/src/app.ts -imports-> ext:javascript:react",
		"file:web/src/app.ts -defines-> sym:web/src/app.ts#App",
		"file:rs/src/lib.rs -imports-> file:rs/src/net.rs",
		"file:rs/src/lib.rs -imports-> ext:rust:serde",
		"file:java/src/main/java/com/acme/App.java -imports-> file:java/src/main/java/com/acme/util/Strings.java",
		"file:java/src/main/java/com/acme/App.java -imports-> ext:java:java.util.List",
		"file:c/src/lib.c -imports-> file:c/include/lib.h",
		"file:c/src/lib.c -imports-> ext:c:stdio.h",
	)
	if un := unresolvedNames(res); !un["file:c/src/lib.c gone.h"] {
		t.Errorf("a local include that names no file is not kept as unresolved: %v", un)
	}
}

func TestGoUnresolvedAndProblems(t *testing.T) {
	root := writeTree(t, map[string]string{
		"go.mod":     "module example.com/m\n",
		"a/a.go":     "package a\n\nimport \"example.com/m/b\"\n\ntype T struct{ n int }\n\nfunc (t *T) Get() int { return t.n + t.missing() }\n\nfunc F() { b.G(); b.Nope(); undefinedF(); var x T; x.Get(); _ = len(\"\") }\n",
		"b/b.go":     "package b\n\nfunc G() {}\n",
		"bad/bad.go": "package bad\n\nfunc {\n",
	})
	es, res := edgeSet(t, root)
	want(t, es,
		"go:example.com/m/a -imports-> go:example.com/m/b",
		"go:example.com/m/a#F -calls-> go:example.com/m/b#G",
		"go:example.com/m/a#F -calls-> go:example.com/m/a#T.Get",
		"go:example.com/m/a#F -references-> go:example.com/m/a#T",
		"go:example.com/m/a#T -contains-> go:example.com/m/a#T.Get",
	)
	un := unresolvedNames(res)
	for _, u := range []string{"go:example.com/m/a#F b.Nope", "go:example.com/m/a#F undefinedF", "go:example.com/m/a#T.Get T.missing"} {
		if !un[u] {
			t.Errorf("unresolved %q not kept: %v", u, un)
		}
	}
	for e := range es {
		if strings.Contains(e, "Nope") || strings.Contains(e, "undefinedF") || strings.Contains(e, "#len") {
			t.Errorf("an unresolved name became an edge: %s", e)
		}
	}
	if res.Stats.Problems != 1 {
		t.Errorf("problems %d, want 1", res.Stats.Problems)
	}
	found := false
	for _, n := range res.Graph.File.Nodes {
		found = found || n.ID == "file:bad/bad.go"
	}
	if !found {
		t.Error("a file with a syntax error is not in the graph")
	}
	if f := Extract("bad/bad.go", []byte("package bad\n\nfunc {\n")); !strings.HasPrefix(f.Problem, "bad/bad.go:3:") {
		t.Errorf("problem %q does not name the file and line", f.Problem)
	}
}

// TestPatternedDefinitionsSpanTheirBodies: a definition of a pattern-read
// language is referenced from its head to its end (symbols.End), a
// declaration without a body by its one line.
func TestPatternedDefinitionsSpanTheirBodies(t *testing.T) {
	root := writeTree(t, map[string]string{
		"web/app.ts": "export function render(x: number) {\n  if (x) {\n    return '}';\n  }\n  return 0;\n}\nexport class View {\n  draw() {}\n}\n",
		"lib/r.rb":   "module M\n  class K\n    def call(a)\n      a\n    end\n  end\nend\n",
		"rs/net.rs":  "pub struct Conn;\npub fn dial() {\n}\n",
	})
	_, _, res := buildTree(t, root)
	refs := map[string]string{}
	for _, n := range res.Graph.File.Nodes {
		refs[n.ID] = strings.Join(n.SourceRefs, " ")
	}
	for id, ref := range map[string]string{
		"sym:web/app.ts#render": "web/app.ts#L1-L6",
		"sym:web/app.ts#View":   "web/app.ts#L7-L9",
		"sym:lib/r.rb#M":        "lib/r.rb#L1-L7",
		"sym:lib/r.rb#K":        "lib/r.rb#L2-L6",
		"sym:lib/r.rb#call":     "lib/r.rb#L3-L5",
		"sym:rs/net.rs#Conn":    "rs/net.rs#L1-L1",
		"sym:rs/net.rs#dial":    "rs/net.rs#L2-L3",
	} {
		if refs[id] != ref {
			t.Errorf("%s: source ref %q, want %q (nodes: %v)", id, refs[id], ref, refs)
		}
	}
}
