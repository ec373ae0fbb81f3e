package refs

import "testing"

const createGo = `package create

import (
	"net/http"

	"github.com/cli/cli/v2/api"
	ghAPI "github.com/cli/go-gh/v2/pkg/api"
	_ "embed"
)

func createRun(opts *Options) error {
	rel, err := createRelease(opts.HttpClient, opts.Repo)
	if err != nil {
		return err
	}
	_ = api.NewClientFromHTTP(http.DefaultClient)
	_ = ghAPI.DefaultRESTClient
	return publishRelease(rel)
}
`

func TestGoSamePackage(t *testing.T) {
	r := Read("pkg/cmd/release/create/create.go", []byte(createGo))
	defs := []string{"createRelease", "publishRelease", "getTags", "tag"}
	if got := r.Uses("pkg/cmd/release/create/http.go", defs); got != 2 {
		t.Fatalf("same package: got %d names, want 2 (createRelease, publishRelease)", got)
	}
	// Another directory that is not imported is no neighbour, whatever it defines.
	if got := r.Uses("pkg/cmd/release/upload/http.go", defs); got != 0 {
		t.Fatalf("unimported package: got %d, want 0", got)
	}
	if got := r.Uses("pkg/cmd/release/create/create.go", defs); got != 0 {
		t.Fatalf("a file is not its own neighbour: got %d", got)
	}
}

func TestGoImportedPackage(t *testing.T) {
	r := Read("pkg/cmd/release/create/create.go", []byte(createGo))
	// api.NewClientFromHTTP is used qualified; a bare createRelease in api/ is not api.createRelease.
	if got := r.Uses("api/client.go", []string{"NewClientFromHTTP", "createRelease", "Other"}); got != 1 {
		t.Fatalf("imported package: got %d, want 1", got)
	}
	// An alias is the qualifier.
	if got := r.Uses("pkg/api/rest.go", []string{"DefaultRESTClient"}); got != 1 {
		t.Fatalf("aliased import: got %d, want 1", got)
	}
	// Other languages are not linked.
	if got := r.Uses("pkg/cmd/release/create/script.py", []string{"createRelease"}); got != 0 {
		t.Fatalf("cross-language link: got %d", got)
	}
}

const reportsPy = `from __future__ import annotations
import os.path
from _pytest._code.code import (
    ExceptionChainRepr,
    ReprEntry,  # entries
)
from .nodes import Node
from . import timing

def serialize(rep):
    chain = ExceptionChainRepr([])
    return ReprEntry(chain), Node, timing.time()
`

func TestPython(t *testing.T) {
	r := Read("src/_pytest/reports.py", []byte(reportsPy))
	cases := []struct {
		target string
		defs   []string
		want   int
	}{
		{"src/_pytest/_code/code.py", []string{"ExceptionChainRepr", "ReprEntry", "Unused"}, 2}, // absolute, under src/
		{"src/_pytest/nodes.py", []string{"Node", "Item"}, 1},                                   // relative module
		{"src/_pytest/timing.py", []string{"time", "sleep"}, 1},                                 // from . import module
		{"src/_pytest/python.py", []string{"Node", "serialize"}, 0},                             // not imported
		{"src/os/path.py", []string{"join"}, 0},                                                 // imported, no name used
	}
	for _, c := range cases {
		if got := r.Uses(c.target, c.defs); got != c.want {
			t.Errorf("Uses(%s) = %d, want %d", c.target, got, c.want)
		}
	}
}

func TestUnlinkedLanguage(t *testing.T) {
	if Read("main.rs", []byte("fn main() {}")) != nil {
		t.Fatal("rust is not linked")
	}
	var r *Refs
	if r.Uses("a.go", []string{"x"}) != 0 {
		t.Fatal("nil refs use nothing")
	}
}
