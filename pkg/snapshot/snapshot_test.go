package snapshot

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/rtch/rtch/pkg/internal/testtree"
	"github.com/rtch/rtch/pkg/walk"
	"github.com/rtch/rtch/pkg/watch"
)

// listed is everything a listing delivers.
type listed struct {
	Files []walk.File
	Skips []walk.Skip
	Warns []string
}

func list(t *testing.T, o walk.Options, lister walk.Lister) listed {
	t.Helper()
	var l listed
	o.Warn = func(f string, a ...any) { l.Warns = append(l.Warns, fmt.Sprintf(f, a...)) }
	files, err := lister.List(context.Background(), o, func(s walk.Skip) { l.Skips = append(l.Skips, s) })
	if err != nil {
		t.Fatal(err)
	}
	l.Files = files
	return l
}

// TestFilesIsTheWalk: after each change the kept listing is what a walk
// gives at that moment (files with their identities, skips, warnings), and
// the counts say whether it was reused, patched or walked again.
func TestFilesIsTheWalk(t *testing.T) {
	root := t.TempDir()
	testtree.Write(t, root, "a.go", "package a\n")
	testtree.Write(t, root, "sub/b.go", "package b\n")
	testtree.Write(t, root, "big.txt", "0123456789abcdef")
	os.Symlink("/nonexistent", filepath.Join(root, "dangling"))
	tr, err := New(root, watch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	o := walk.Options{Root: root, MaxFileSize: 12, Excludes: []string{"*.tmp"}}
	steps := []struct {
		name string
		act  func()
		want Stats
	}{
		{"first", func() {}, Stats{Walks: 1}},
		{"unchanged", func() {}, Stats{Walks: 1, Reused: 1}},
		{"edit in place", func() { testtree.Write(t, root, "a.go", "package a2\n") }, Stats{Walks: 1, Reused: 1, Patched: 1}},
		{"unchanged after the edit", func() {}, Stats{Walks: 1, Reused: 2, Patched: 1}},
		{"edit over the cap", func() { testtree.Write(t, root, "a.go", "package a // now far too long\n") }, Stats{Walks: 2, Reused: 2, Patched: 1}},
		{"add", func() { testtree.Write(t, root, "sub/c.go", "package c\n") }, Stats{Walks: 3, Reused: 2, Patched: 1}},
		{"add excluded", func() { testtree.Write(t, root, "x.tmp", "tmp\n") }, Stats{Walks: 4, Reused: 2, Patched: 1}},
		{"remove", func() { os.Remove(filepath.Join(root, "sub/b.go")) }, Stats{Walks: 5, Reused: 2, Patched: 1}},
		{"rename", func() { os.Rename(filepath.Join(root, "sub/c.go"), filepath.Join(root, "d.go")) }, Stats{Walks: 6, Reused: 2, Patched: 1}},
		{"ignore file", func() { testtree.Write(t, root, ".ignore", "d.go\n") }, Stats{Walks: 7, Reused: 2, Patched: 1}},
		{"new directory", func() { testtree.Write(t, root, "n/e.go", "package e\n") }, Stats{Walks: 8, Reused: 2, Patched: 1}},
		{"edit in the new directory", func() { testtree.Write(t, root, "n/e.go", "package f\n") }, Stats{Walks: 8, Reused: 2, Patched: 2}},
	}
	for _, s := range steps {
		s.act()
		got := list(t, o, tr.Files)
		want := list(t, o, nil)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: kept listing\n%+v\nwalk\n%+v", s.name, got, want)
		}
		st := tr.Stats()
		st.Batches, st.Events = 0, 0
		if st != s.want {
			t.Fatalf("%s: stats %+v, want %+v", s.name, st, s.want)
		}
	}
}

// TestLostTrackWalks: with a watch limit the tree exceeds, the watcher
// loses track on every call and every listing is a walk, so a change in a
// directory nothing watches is still seen.
func TestLostTrackWalks(t *testing.T) {
	root := t.TempDir()
	testtree.Write(t, root, "d1/d2/d3/a.txt", "a\n")
	tr, err := New(root, watch.Options{Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	o := walk.Options{Root: root}
	for i := range 3 {
		testtree.Write(t, root, "d1/d2/d3/a.txt", fmt.Sprintf("edit %d, a longer line\n", i))
		testtree.Write(t, root, fmt.Sprintf("d1/d2/d3/new%d.txt", i), "n\n")
		if got, want := list(t, o, tr.Files), list(t, o, nil); !reflect.DeepEqual(got, want) {
			t.Fatalf("call %d: kept listing %+v, walk %+v", i, got, want)
		}
	}
	st := tr.Stats()
	if st.Walks != 3 || st.Reused != 0 || st.Lost != 2 {
		t.Fatalf("stats %+v: want 3 walks, 2 lost", st)
	}
}

// TestIgnoreFileAboveTheRoot: a root below the top of a git work tree
// sees the .gitignore files between them; a change to one drops the kept
// listing, as the walk's answer changes.
func TestIgnoreFileAboveTheRoot(t *testing.T) {
	top := t.TempDir()
	testtree.Write(t, top, ".git/HEAD", "ref: refs/heads/main\n")
	root := filepath.Join(top, "mid", "root")
	testtree.Write(t, root, "a.go", "package a\n")
	testtree.Write(t, root, "b.txt", "b\n")
	tr, err := New(root, watch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	o := walk.Options{Root: root}
	for _, step := range []func(){
		func() {},
		func() { testtree.Write(t, top, "mid/.gitignore", "*.txt\n") },
		func() { testtree.Write(t, top, ".gitignore", "*.go\n") },
	} {
		step()
		if got, want := list(t, o, tr.Files), list(t, o, nil); !reflect.DeepEqual(got, want) {
			t.Fatalf("kept listing %+v, walk %+v", got, want)
		}
	}
	if st := tr.Stats(); st.Lost != 2 || st.Walks != 3 {
		t.Fatalf("stats %+v: want 3 walks, 2 lost", st)
	}
}

// TestExcludeFileOutsideTheRoot: the .git/info/exclude that applies to a
// root lies outside it (below the top of the work tree it lies in, or in the
// git directory a worktree's .git file names); a change to it drops the
// kept listing.
func TestExcludeFileOutsideTheRoot(t *testing.T) {
	for _, layout := range []string{"below the top", "worktree"} {
		t.Run(layout, func(t *testing.T) {
			top := t.TempDir()
			testtree.Write(t, top, ".git/HEAD", "ref: refs/heads/main\n")
			testtree.Write(t, top, ".git/info/exclude", "")
			root := filepath.Join(top, "mid", "root")
			if layout == "worktree" {
				root = filepath.Join(t.TempDir(), "wt")
				testtree.Write(t, top, ".git/worktrees/wt/commondir", "../..\n")
				testtree.Write(t, root, ".git", "gitdir: "+filepath.Join(top, ".git/worktrees/wt")+"\n")
			}
			testtree.Write(t, root, "a.go", "package a\n")
			testtree.Write(t, root, "b.md", "b\n")
			tr, err := New(root, watch.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer tr.Close()
			o := walk.Options{Root: root}
			for _, step := range []func(){
				func() {},
				func() { testtree.Write(t, top, ".git/info/exclude", "*.md\n") },
			} {
				step()
				got, want := list(t, o, tr.Files), list(t, o, nil)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("kept listing %+v, walk %+v", got, want)
				}
			}
			if st := tr.Stats(); st.Lost != 1 || st.Walks != 2 {
				t.Fatalf("stats %+v: want 2 walks, 1 lost", st)
			}
		})
	}
}

// TestVersion: the version stands while nothing changes and moves on with
// an edit, a lost watch and a listing no watcher covers; without a watcher
// it vouches for nothing.
func TestVersion(t *testing.T) {
	root := t.TempDir()
	testtree.Write(t, root, "d1/a.txt", "a\n")
	tr, err := New(root, watch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	version := func(step string) uint64 {
		t.Helper()
		v, ok, err := tr.Version(context.Background())
		if err != nil || !ok {
			t.Fatalf("%s: version %d, ok %v, %v", step, v, ok, err)
		}
		return v
	}
	o := walk.Options{Root: root}
	list(t, o, tr.Files)
	v := version("first")
	list(t, o, tr.Files)
	if version("unchanged") != v {
		t.Fatal("the version moved on an unchanged tree")
	}
	testtree.Write(t, root, "d1/a.txt", "b\n")
	if w := version("edit"); w == v {
		t.Fatal("the version stood through an edit")
	} else {
		v = w
	}
	list(t, walk.Options{Root: root, GitFastPath: true}, tr.Files)
	if w := version("unwatched listing"); w == v {
		t.Fatal("the version stood through a listing no watcher covers")
	}
	lost, err := New(root, watch.Options{Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer lost.Close()
	list(t, o, lost.Files)
	a, _, _ := lost.Version(context.Background())
	b, _, _ := lost.Version(context.Background())
	if a == b {
		t.Fatal("the version stood through a lost watch")
	}
}
