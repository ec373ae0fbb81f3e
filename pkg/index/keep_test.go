package index

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rtch/rtch/pkg/match"
	"github.com/rtch/rtch/pkg/walk"
)

// keepTree writes n small text files with old mtimes (so entries are not
// racy) and returns the root and its walked files.
func keepTree(t *testing.T, n int) (string, []walk.File) {
	t.Helper()
	root := t.TempDir()
	old := time.Now().Add(-time.Hour)
	for i := range n {
		p := filepath.Join(root, string(rune('a'+i))+".txt")
		if err := os.WriteFile(p, []byte("hello parse error\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, old, old)
	}
	files, err := walk.Files(context.Background(), walk.Options{Root: root}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return root, files
}

// putAll stores every file's facts in ix and saves it.
func putAll(t *testing.T, ix *Index, files []walk.File) {
	t.Helper()
	pm := match.New([]string{"source of truth"})
	for _, f := range files {
		data, err := os.ReadFile(f.Abs)
		if err != nil {
			t.Fatal(err)
		}
		facts, ok := Extract(f.Path, data, pm)
		if !ok {
			t.Fatalf("%s: not indexable", f.Path)
		}
		ix.Put(f, time.Now(), facts)
	}
	if _, err := ix.Save(files); err != nil {
		t.Fatal(err)
	}
}

func trustedCount(ix *Index, files []walk.File) int {
	n := 0
	for _, f := range files {
		if _, ok := ix.Lookup(f); ok {
			n++
		}
	}
	return n
}

// TestKeeperFollowsSaves: a view opened after a run saved sees the new
// entries (the keeper maps the new file), a view of the old mapping stays
// readable until it is closed, and an unchanged file is not mapped again.
func TestKeeperFollowsSaves(t *testing.T) {
	root, files := keepTree(t, 3)
	w := Where{Dir: filepath.Join(t.TempDir(), "ix")}
	fp := Fingerprint("keep")
	warn := func(s string) { t.Errorf("warning: %s", s) }
	var k Keeper
	defer k.Close()

	first, err := k.OpenFor(root, w, fp, warn)
	if err != nil || first == nil {
		t.Fatalf("open: %v %v", first, err)
	}
	if n := trustedCount(first, files); n != 0 {
		t.Fatalf("empty index answers for %d files", n)
	}
	putAll(t, first, files)

	second, err := k.OpenFor(root, w, fp, warn)
	if err != nil {
		t.Fatal(err)
	}
	if n := trustedCount(second, files); n != len(files) {
		t.Fatalf("view after the save answers for %d of %d files", n, len(files))
	}
	if n := trustedCount(first, files); n != 0 {
		t.Fatalf("the old view changed under its run: %d", n)
	}
	first.Close()
	third, err := k.OpenFor(root, w, fp, warn)
	if err != nil {
		t.Fatal(err)
	}
	if third.data == nil || &third.data[0] != &second.data[0] {
		t.Fatal("an unchanged index file was mapped again")
	}
	if third.checks != second.checks {
		t.Fatal("the views of one mapping check its entries each on their own")
	}
	// A view has the saved index's dictionary, decoded once for all views.
	if third.Words(match.New([]string{"parse"})) == nil || third.words != second.words || third.names != second.names {
		t.Fatal("a view has no dictionary of its own index, or decoded it again")
	}
	if wrote, err := third.Save(files); err != nil || wrote {
		t.Fatalf("a view with nothing new wrote the index: %v %v", wrote, err)
	}
	second.Close()
	third.Close()

	other, err := k.OpenFor(root, w, Fingerprint("other"), warn)
	if err != nil {
		t.Fatal(err)
	}
	if n := trustedCount(other, files); n != 0 {
		t.Fatalf("a view of another fingerprint answers for %d files", n)
	}
	other.Close()
	if ix, err := k.OpenFor(root, Where{Off: true}, fp, warn); ix != nil || err != nil {
		t.Fatalf("off: %v %v", ix, err)
	}
}

// TestKeeperViewsShareADamagedEntry: an entry one view of a mapping found
// damaged is not trusted by the next view either (the checksum outcome is
// kept per mapping, not checked again), which warns once, reads the file
// again and rewrites the index.
func TestKeeperViewsShareADamagedEntry(t *testing.T) {
	root, files := keepTree(t, 3)
	w := Where{Dir: filepath.Join(t.TempDir(), "ix")}
	fp := Fingerprint("keep")
	ix, err := OpenFor(root, w, fp, func(s string) { t.Errorf("warning: %s", s) })
	if err != nil {
		t.Fatal(err)
	}
	putAll(t, ix, files)
	ix.Close()
	if ix, _, err = Open(w.Dir, fp); err != nil {
		t.Fatal(err)
	}
	victim := files[1]
	e := ix.table[ix.find(victim.Path)]
	ix.Close()
	p := filepath.Join(w.Dir, fileName)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b[e.off+e.len/2] ^= 0x55
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	var k Keeper
	defer k.Close()
	for run := range 2 {
		var warnings []string
		v, err := k.OpenFor(root, w, fp, func(s string) { warnings = append(warnings, s) })
		if err != nil {
			t.Fatal(err)
		}
		if run == 0 {
			if _, ok := v.Lookup(victim); ok {
				t.Fatal("a damaged entry was answered for")
			}
			v.Close()
		} else {
			if v.Holds(victim) {
				t.Fatal("the next view trusts the entry the first found damaged")
			}
			if wrote, err := v.Save(files); !wrote || err != nil {
				t.Fatalf("the next view did not rewrite the damaged index: %v %v", wrote, err)
			}
			v.Close()
		}
		if len(warnings) != 1 || !strings.Contains(warnings[0], "rebuilding it") {
			t.Fatalf("run %d: want one warning, got %q", run, warnings)
		}
	}
}

// TestKeeperKnowsEveryField is a tripwire: a view is built field by field
// (keep.go, view), so a field added to Index must be given its place there
// (shared with the base, the run's own, or left zero) and named here; a
// view that silently lacked the dictionary once made every warm run
// rewrite the index.
func TestKeeperKnowsEveryField(t *testing.T) {
	known := map[string]string{
		"dir": "shared", "anchor": "shared", "inTree": "shared", "root": "shared", "fp": "shared", "data": "shared",
		"file": "shared (closed with the mapping)", "table": "shared", "fresh": "shared",
		"words": "shared (decoded once by the base)", "names": "shared (decoded once by the base)", "seps": "shared (decoded once by the base)",
		"changed": "copied from the base", "damage": "the run's",
		"unmap": "the view's release", "mu": "the run's", "puts": "the run's", "spill": "the run's (created by its first put)",
		"checks": "shared (an entry is checked once per mapping)", "warn": "the run's", "warnOnce": "the run's",
	}
	typ := reflect.TypeOf(Index{})
	for i := range typ.NumField() {
		if name := typ.Field(i).Name; known[name] == "" {
			t.Errorf("Index.%s is new: give it its place in Keeper.view (keep.go) and name it in this test", name)
		}
	}
}

// TestPruneGone: opening the default location removes the indexes in the
// user cache directory whose trees are gone; the root's and a living
// tree's stay.
func TestPruneGone(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	root, alive, gone := t.TempDir(), t.TempDir(), filepath.Join(t.TempDir(), "gone")
	dirs := map[string]string{}
	for _, r := range []string{root, alive, gone} {
		d, err := Dir(r, "")
		if err != nil {
			t.Fatal(err)
		}
		cache, _ := os.UserCacheDir()
		h, err := openPrivate(cache, d, false)
		if err != nil {
			t.Fatal(err)
		}
		if err := writeRoot(h, r); err != nil {
			t.Fatal(err)
		}
		h.Close()
		dirs[r] = d
	}
	ix, err := OpenFor(root, Where{}, Fingerprint("p"), func(s string) { t.Errorf("warning: %s", s) })
	if err != nil || ix == nil {
		t.Fatalf("open: %v %v", ix, err)
	}
	ix.Close()
	for r, want := range map[string]bool{root: true, alive: true, gone: false} {
		if _, err := os.Stat(dirs[r]); (err == nil) != want {
			t.Errorf("index of %s: exists %v, want %v", r, err == nil, want)
		}
	}
}
