package codegraph

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rtch/rtch/pkg/walk"
)

var cacheTree = map[string]string{
	"go.mod":         "module example.com/m\n",
	"a/a.go":         "package a\n\n// Parse reads.\nfunc Parse(s string) int { return len(s) }\n",
	"b/b.go":         "package b\n\nimport \"example.com/m/a\"\n\nfunc Use() int { return a.Parse(\"x\") }\n",
	"py/mod.py":      "import os\n\n\ndef helper():\n    return os.getcwd()\n",
	"py/__init__.py": "",
}

// graphBytes builds root's graph with cache (nil: none) and returns the
// written graph.
func graphBytes(t *testing.T, root string, cache *FactsCache) []byte {
	t.Helper()
	res, err := BuildTree(context.Background(), TreeOptions{Walk: walk.Options{Root: root}, Cache: cache})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := res.Graph.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func openCache(t *testing.T, file string) *FactsCache {
	t.Helper()
	c, warning, err := OpenFactsCache(filepath.Dir(filepath.Dir(file)), file)
	if err != nil || warning != "" {
		t.Fatalf("OpenFactsCache: %q, %v", warning, err)
	}
	return c
}

// buildCached builds root through the cache in file, saves it, and checks
// the graph against a build without the cache and the hits and misses.
func buildCached(t *testing.T, root, file string, hits, misses int) {
	t.Helper()
	c := openCache(t, file)
	got := graphBytes(t, root, c)
	if want := graphBytes(t, root, nil); !bytes.Equal(got, want) {
		t.Fatalf("the graph through the cache differs from the one without it:\n%s\n--- want ---\n%s", got, want)
	}
	if c.Hits() != hits || c.Misses() != misses {
		t.Fatalf("hits %d misses %d, want %d and %d", c.Hits(), c.Misses(), hits, misses)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
}

func TestFactsCacheFollowsEditsAddsRemovesRenames(t *testing.T) {
	root := writeTree(t, cacheTree)
	file := filepath.Join(t.TempDir(), "ix", "graph-facts")
	buildCached(t, root, file, 0, 5)
	buildCached(t, root, file, 5, 0)

	write := func(p, s string) {
		if err := os.WriteFile(filepath.Join(root, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a/a.go", "package a\n\nfunc Parse(s string) int { return Count(s) }\n\nfunc Count(s string) int { return len(s) }\n")
	write("a/new.go", "package a\n\nfunc Fresh() {}\n")
	if err := os.Remove(filepath.Join(root, "py/mod.py")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(root, "b/b.go"), filepath.Join(root, "b/renamed.go")); err != nil {
		t.Fatal(err)
	}
	// a.go edited, new.go added, renamed.go under a new path: 3 misses;
	// go.mod and __init__.py unchanged.
	buildCached(t, root, file, 2, 3)
	c := openCache(t, file)
	if len(c.old) != 5 || c.old["py/mod.py"].Facts.Path != "" || c.old["b/b.go"].Facts.Path != "" {
		t.Fatalf("the saved cache should hold the 5 files now in the tree, not removed or renamed-away ones: %d entries", len(c.old))
	}
}

func TestFactsCacheDamagedIsRebuilt(t *testing.T) {
	root := writeTree(t, cacheTree)
	file := filepath.Join(t.TempDir(), "graph-facts")
	buildCached(t, root, file, 0, 5)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string][]byte{
		"flipped byte": append(append(append([]byte{}, data[:len(data)/2]...), data[len(data)/2]^0x40), data[len(data)/2+1:]...),
		"torn":         data[:len(data)/2],
		"not a cache":  []byte("hello"),
	} {
		if err := os.WriteFile(file, bad, 0o600); err != nil {
			t.Fatal(err)
		}
		c, warning, err := OpenFactsCache(filepath.Dir(filepath.Dir(file)), file)
		if err != nil || !strings.Contains(warning, "damaged") {
			t.Fatalf("%s: warning %q, error %v; want a warning that it is damaged", name, warning, err)
		}
		if got, want := graphBytes(t, root, c), graphBytes(t, root, nil); !bytes.Equal(got, want) || c.Misses() != 5 {
			t.Fatalf("%s: the build over a damaged cache must extract every file (%d misses) and give the same graph", name, c.Misses())
		}
		if err := c.Save(); err != nil {
			t.Fatal(err)
		}
		buildCached(t, root, file, 5, 0)
	}
}

func TestFactsCacheOfAnotherExecutableStartsAfresh(t *testing.T) {
	root := writeTree(t, cacheTree)
	file := filepath.Join(t.TempDir(), "graph-facts")
	c := openCache(t, file)
	c.stamp[0] ^= 0xff // as if another build of the extractor wrote it
	graphBytes(t, root, c)
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	buildCached(t, root, file, 0, 5)
}

func TestGraphAndCacheHoldNoSecret(t *testing.T) {
	const token = "ghp_R2d4k9Lm0pQ7sT1vX3yZ5bN8cF6hJ2wE4rA9"
	root := writeTree(t, map[string]string{
		"go.mod":    "module example.com/s\n",
		"s.go":      "package s\n\nvar githubToken = \"" + token + "\"\n",
		"conf.py":   "API_TOKEN = \"" + token + "\"\n",
		"other.rb":  "TOKEN = \"" + token + "\"\n",
		"README.md": "# s\n",
	})
	file := filepath.Join(t.TempDir(), "graph-facts")
	c := openCache(t, file)
	g := graphBytes(t, root, c)
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	cached, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"graph": g, "facts cache": cached} {
		if bytes.Contains(b, []byte(token[4:20])) {
			t.Errorf("the %s holds the token", name)
		}
	}
	if !bytes.Contains(g, []byte("[REDACTED:github-pat]")) {
		t.Errorf("the graph should show the redaction mark where the token was:\n%s", g)
	}
}

// TestFactsCacheReadsOnlyWhatChanged: a file whose size and identity are
// the ones stored is not read again; go.mod always is, and so is a file
// whose mtime was too young when it was read (racy).
func TestFactsCacheReadsOnlyWhatChanged(t *testing.T) {
	root := writeTree(t, cacheTree)
	old := time.Now().Add(-time.Hour)
	for p := range cacheTree {
		if err := os.Chtimes(filepath.Join(root, p), old, old); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(t.TempDir(), "graph-facts")
	build := func(reads, hits, misses int) {
		t.Helper()
		c := openCache(t, file)
		var n atomic.Int64
		o := TreeOptions{Cache: c, Walk: walk.Options{Root: root, Progress: func(int, int) { n.Add(1) }}}
		if _, err := BuildTree(context.Background(), o); err != nil {
			t.Fatal(err)
		}
		if int(n.Load()) != reads || c.Hits() != hits || c.Misses() != misses {
			t.Fatalf("%d files read, hits %d, misses %d; want %d, %d, %d", n.Load(), c.Hits(), c.Misses(), reads, hits, misses)
		}
		if err := c.Save(); err != nil {
			t.Fatal(err)
		}
	}
	build(5, 0, 5)
	build(1, 5, 0) // go.mod alone
	// An edit now: a.go is read, and its young mtime makes it racy, so the
	// next build reads it again (a hit by its bytes).
	if err := os.WriteFile(filepath.Join(root, "a/a.go"), []byte("package a\n\nfunc Parse(s string) int { return 0 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	build(2, 4, 1)
	build(2, 5, 0)
	// An old mtime again is a new identity: read once more, then trusted.
	if err := os.Chtimes(filepath.Join(root, "a/a.go"), old, old); err != nil {
		t.Fatal(err)
	}
	build(2, 5, 0)
	build(1, 5, 0)
}
