package watch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fsnotify/fsnotify"

	"github.com/rtch/rtch/pkg/internal/testtree"
)

func start(t *testing.T, root string, o Options) *Watcher {
	t.Helper()
	w, err := New(root, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

func changes(t *testing.T, w *Watcher) Batch {
	t.Helper()
	b := w.Changes(context.Background())
	if b.Lost != "" {
		t.Fatalf("lost track: %s", b.Lost)
	}
	return b
}

// TestChangesSeesWhatWasDoneBefore: an edit, a new file, a new directory
// and a file in it, a removal and a rename made just before Changes (no
// sleep) are all in the batch; a second call reports nothing.
func TestChangesSeesWhatWasDoneBefore(t *testing.T) {
	root := t.TempDir()
	testtree.Write(t, root, "a.go", "package a\n")
	testtree.Write(t, root, "sub/b.go", "package b\n")
	testtree.Write(t, root, "sub/c.go", "package c\n")
	w := start(t, root, Options{})
	if b := changes(t, w); len(b.Paths) != 0 {
		t.Fatalf("untouched tree reports %v", b.Paths)
	}
	testtree.Write(t, root, "a.go", "package a // edited\n")
	testtree.Write(t, root, "sub/new.go", "package b\n")
	testtree.Write(t, root, "fresh/deeper/x.md", "# x\n")
	os.Remove(filepath.Join(root, "sub/c.go"))
	os.Rename(filepath.Join(root, "sub/b.go"), filepath.Join(root, "sub/moved.go"))
	got := changes(t, w).Paths
	for _, want := range []string{"a.go", "sub/new.go", "fresh", "sub/c.go", "sub/b.go", "sub/moved.go"} {
		if !slices.Contains(got, want) {
			t.Errorf("%s missing from %v", want, got)
		}
	}
	// The new directories are watched: an edit in them is seen.
	testtree.Write(t, root, "fresh/deeper/x.md", "# x edited\n")
	if got := changes(t, w).Paths; !slices.Equal(got, []string{"fresh/deeper/x.md"}) {
		t.Errorf("edit in a new directory: %v", got)
	}
	if b := changes(t, w); len(b.Paths) != 0 {
		t.Errorf("second call reports %v", b.Paths)
	}
}

// TestBurstIsOneBatch: many writes to a few files, then one call: one
// batch naming each file once, from more events than paths.
func TestBurstIsOneBatch(t *testing.T) {
	root := t.TempDir()
	for i := range 20 {
		testtree.Write(t, root, fmt.Sprintf("f%02d.txt", i), "x\n")
	}
	w := start(t, root, Options{})
	for round := range 10 {
		for i := range 20 {
			testtree.Write(t, root, fmt.Sprintf("f%02d.txt", i), strings.Repeat("y", round+1))
		}
	}
	b := changes(t, w)
	if len(b.Paths) != 20 {
		t.Fatalf("burst gives %d paths, want 20: %v", len(b.Paths), b.Paths)
	}
	if b.Events <= len(b.Paths) {
		t.Fatalf("burst of 200 writes counted %d events for %d paths", b.Events, len(b.Paths))
	}
}

// TestLostTrack: each way the watcher stops vouching for the tree is a
// Batch with Lost set, and it stays lost.
func TestLostTrack(t *testing.T) {
	cases := []struct {
		name   string
		o      func(root string) Options
		act    func(t *testing.T, w *Watcher, root string)
		reason string
	}{
		{"limit at start", func(string) Options { return Options{Limit: 2} }, nil, "watch limit"},
		{"limit on a new directory", func(string) Options { return Options{Limit: 3} },
			func(t *testing.T, w *Watcher, root string) { testtree.Write(t, root, "n1/n2/x", "x") }, "watch limit"},
		{"overflow", func(string) Options { return Options{} },
			func(t *testing.T, w *Watcher, root string) { w.fw.Errors <- fsnotify.ErrEventOverflow }, "overflowed"},
		{"watch error", func(string) Options { return Options{} },
			func(t *testing.T, w *Watcher, root string) { w.fw.Errors <- fmt.Errorf("boom") }, "boom"},
		{"directory removed", func(string) Options { return Options{} },
			func(t *testing.T, w *Watcher, root string) { os.RemoveAll(filepath.Join(root, "d1")) }, "moved or removed"},
		{"directory renamed", func(string) Options { return Options{} },
			func(t *testing.T, w *Watcher, root string) {
				os.Rename(filepath.Join(root, "d1"), filepath.Join(root, "d9"))
			}, "moved or removed"},
		{"ignore file above", func(root string) Options { return Options{Above: []string{filepath.Dir(root)}} },
			func(t *testing.T, w *Watcher, root string) {
				testtree.Write(t, filepath.Dir(root), ".gitignore", "*.x\n")
			}, ".gitignore changed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "tree")
			testtree.Write(t, root, "d1/d2/a.txt", "a")
			w := start(t, root, c.o(root))
			if c.act != nil {
				if b := w.Changes(context.Background()); b.Lost != "" {
					t.Fatalf("lost before the act: %s", b.Lost)
				}
				c.act(t, w, root)
			}
			for range 2 {
				b := w.Changes(context.Background())
				if !strings.Contains(b.Lost, c.reason) {
					t.Fatalf("Lost = %q, want it to say %q (paths %v)", b.Lost, c.reason, b.Paths)
				}
			}
		})
	}
}

// TestGitInfoIsWatched: .git is not followed, but .git/info/exclude, an
// ignore rule, is.
func TestGitInfoIsWatched(t *testing.T) {
	root := t.TempDir()
	testtree.Write(t, root, ".git/info/exclude", "")
	testtree.Write(t, root, ".git/objects/x", "")
	w := start(t, root, Options{})
	testtree.Write(t, root, ".git/objects/y", "")
	testtree.Write(t, root, ".git/info/exclude", "*.tmp\n")
	if got := changes(t, w).Paths; !slices.Equal(got, []string{".git/info/exclude"}) {
		t.Fatalf("got %v", got)
	}
}
