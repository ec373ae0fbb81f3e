package walk

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// writeTree creates files (path -> content) under dir; a path ending in
// '/' creates an empty directory.
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func paths(fs []File) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, f.Path)
	}
	return out
}

func collect(t *testing.T, o Options) ([]string, []Skip) {
	t.Helper()
	var skips []Skip
	fs, err := Files(context.Background(), o, func(s Skip) { skips = append(skips, s) })
	if err != nil {
		t.Fatal(err)
	}
	return paths(fs), skips
}

// TestFilesBasic (W22): gitignored and hidden entries are skipped by
// default; the precedence of .rtchignore over .ignore over .gitignore.
func TestFilesBasic(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"a.go":               "package a\n",
		"b/c.txt":            "c\n",
		"b/d/e.md":           "# e\n",
		".hidden/x":          "x\n",
		".dotfile":           "x\n",
		"build/out.o":        "o\n",
		"logs/keep.log":      "k\n",
		"logs/drop.log":      "d\n",
		".gitignore":         "build/\n*.log\n!keep.log\n",
		"b/.ignore":          "e.md\n",
		"b/d/.rtchignore":    "!e.md\n",
		"sub/.gitignore":     "/only-here\n",
		"sub/only-here":      "x\n",
		"sub/deep/only-here": "kept: anchored to sub/\n",
		"empty/":             "",
		".git/":              "",
	})
	got, _ := collect(t, Options{Root: dir})
	want := []string{"a.go", "b/c.txt", "b/d/e.md", "logs/keep.log", "sub/deep/only-here"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Files = %q\nwant %q", got, want)
	}

	got, _ = collect(t, Options{Root: dir, NoIgnore: true, Hidden: true})
	want = []string{".dotfile", ".gitignore", ".hidden/x", "a.go", "b/.ignore", "b/c.txt", "b/d/.rtchignore", "b/d/e.md",
		"build/out.o", "logs/drop.log", "logs/keep.log", "sub/.gitignore", "sub/deep/only-here", "sub/only-here"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Files(NoIgnore, Hidden) = %q\nwant %q", got, want)
	}

	// Excludes beat every ignore file, and apply with NoIgnore too.
	got, _ = collect(t, Options{Root: dir, NoIgnore: true, Excludes: []string{"/b/", "*.log", "sub"}})
	want = []string{"a.go", "build/out.o"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Files(Excludes) = %q\nwant %q", got, want)
	}
	// One pattern per entry, "./" anchors, '#' is no comment, '!' works.
	writeTree(t, dir, map[string]string{"#notes.md": "", "x/a.go": "", "x/b.go": ""})
	var skips []Skip
	got, skips = collect(t, Options{Root: dir, NoIgnore: true, ReportIgnored: true,
		Excludes: []string{"#notes.md", "./a.go", "*.log\nb", "x/*.go", "!x/b.go", "b/", "build", "sub", "logs"}})
	want = []string{"x/b.go"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Files(Excludes, entries) = %q\nwant %q", got, want)
	}
	blame := map[string]string{}
	for _, s := range skips {
		blame[s.Path] = s.Detail
	}
	if blame["#notes.md"] != "Excludes:1: #notes.md" || blame["a.go"] != "Excludes:2: /a.go" || blame["x/a.go"] != "Excludes:4: x/*.go" {
		t.Errorf("blame %q", blame)
	}
}

// TestGitignoreNeedsRepository: as in ripgrep, .gitignore counts only in
// a git work tree (the root, a directory above it, or a nested repository
// below it holds .git); .ignore and .rtchignore count everywhere.
func TestGitignoreNeedsRepository(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		".gitignore":        "cobra\n*.log\n",
		".ignore":           "*.tmp\n",
		"cobra/cmd/root.go": "package cmd\n",
		"a.log":             "",
		"b.tmp":             "",
		"nested/.git/":      "",
		"nested/.gitignore": "gen/\n",
		"nested/gen/x.go":   "",
		"nested/cobra/y.go": "",
		"nested/keep.go":    "",
		"src/cobra/z.go":    "",
		"src/k.go":          "",
	})
	got, _ := collect(t, Options{Root: dir})
	want := []string{"a.log", "cobra/cmd/root.go", "nested/cobra/y.go", "nested/keep.go", "src/cobra/z.go", "src/k.go"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("outside a repository: Files = %q\nwant %q", got, want)
	}
	// The same tree as a work tree: its .gitignore counts from the top and
	// from a root below the top, and stops at the nested repository.
	writeTree(t, dir, map[string]string{".git/": ""})
	got, _ = collect(t, Options{Root: dir})
	want = []string{"nested/cobra/y.go", "nested/keep.go", "src/k.go"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("in a work tree: Files = %q\nwant %q", got, want)
	}
	got, _ = collect(t, Options{Root: filepath.Join(dir, "src")})
	want = []string{"k.go"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("root below the top: Files = %q\nwant %q", got, want)
	}
}

func TestFilesReportIgnored(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		".gitignore":  "build/\n",
		"build/a/b.o": "",
		"ok.go":       "",
		".env":        "",
		".git/":       "",
	})
	_, skips := collect(t, Options{Root: dir, ReportIgnored: true})
	var got []string
	for _, s := range skips {
		got = append(got, s.Path+" "+s.Reason+" "+s.Detail)
	}
	want := []string{".env ignored hidden", ".gitignore ignored hidden", "build ignored .gitignore:1: build/"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("skips = %q\nwant %q", got, want)
	}
}

func TestEachProgress(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a": "a", "b": "b\x00", "c": "c", "d": "d"})
	o := Options{Root: dir}
	files, err := Files(context.Background(), o, nil)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	calls, maxDone := 0, 0
	o.Progress = func(done, total int) {
		mu.Lock()
		defer mu.Unlock()
		calls++
		maxDone = max(maxDone, done)
		if total != 4 {
			t.Errorf("total = %d", total)
		}
	}
	if err := Each(context.Background(), o, files, func(File, []byte) error { return nil }, nil); err != nil {
		t.Fatal(err)
	}
	if calls != 4 || maxDone != 4 {
		t.Errorf("progress called %d times, last done %d; want 4, 4 (binary files count too)", calls, maxDone)
	}
}

// TestRootErrors: a missing root or a file as root is an error, not an
// empty listing.
func TestRootErrors(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"f": "x"})
	for _, root := range []string{"", filepath.Join(dir, "missing"), filepath.Join(dir, "f")} {
		if _, err := Files(context.Background(), Options{Root: root}, nil); err == nil {
			t.Errorf("Files(%q) gave no error", root)
		}
	}
}

// TestSymlinkedRoot: a root reached through a symlink is walked, and its
// in-root links are not mistaken for escapes.
func TestSymlinkedRoot(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"real/a.md": "a", "real/sub/b.md": "b", "outside.md": "o"})
	if err := os.Symlink("a.md", filepath.Join(dir, "real/alias.md")); err != nil {
		t.Skip(err)
	}
	os.Symlink("../outside.md", filepath.Join(dir, "real/out.md"))
	os.Symlink("real", filepath.Join(dir, "link"))
	got, skips := collect(t, Options{Root: filepath.Join(dir, "link")})
	if strings.Join(got, " ") != "a.md sub/b.md" {
		t.Errorf("files %q", got)
	}
	reasons := map[string]string{}
	for _, s := range skips {
		reasons[s.Path] = s.Reason
	}
	if reasons["alias.md"] != ReasonSymlink || reasons["out.md"] != ReasonSymlinkEscape {
		t.Errorf("skips %v", reasons)
	}
}

// TestEachReuseBuffers: with shared buffers every file still arrives
// whole and correct, small after large and large after small.
func TestEachReuseBuffers(t *testing.T) {
	dir := t.TempDir()
	want := map[string]string{}
	for i, n := range []int{5000, 3, 70000, 0, 12, 40000, 1} {
		name := "f" + strings.Repeat("x", i)
		want[name] = strings.Repeat(string(rune('a'+i)), n)
	}
	writeTree(t, dir, want)
	for _, workers := range []int{1, 3} {
		o := Options{Root: dir, ReuseBuffers: true, Workers: workers}
		files, err := Files(context.Background(), o, nil)
		if err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		got := map[string]string{}
		err = Each(context.Background(), o, files, func(f File, b []byte) error {
			mu.Lock()
			got[f.Path] = string(b) // a copy, as the contract asks
			mu.Unlock()
			return nil
		}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("workers=%d: contents differ", workers)
		}
	}
}

// Names that differ only in bytes that are not UTF-8 stay two paths, spelt
// with pathenc's escapes, and each is read from its own file.
func TestNonUTF8NamesStayDistinct(t *testing.T) {
	root := t.TempDir()
	for name, text := range map[string]string{"x_\xff.md": "ff\n", "x_\xfe.md": "fe\n", "price¤.md": "sign\n"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Skipf("this file system refuses the name %q: %v", name, err)
		}
	}
	files, err := Files(context.Background(), Options{Root: root}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	var mu sync.Mutex // Each calls fn from several goroutines
	err = Each(context.Background(), Options{Root: root}, files, func(f File, data []byte) error {
		mu.Lock()
		defer mu.Unlock()
		got[f.Path] = string(data)
		return nil
	}, func(s Skip) { t.Errorf("skipped %+v", s) })
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"x_¤xFF.md": "ff\n", "x_¤xFE.md": "fe\n", "price¤¤.md": "sign\n"}
	if !maps.Equal(got, want) {
		t.Fatalf("read %q, want %q", got, want)
	}
}

// TestEachPace: a Pace that blocks holds every read back until it lets go,
// and one that waits on a cancelled context ends the reading.
func TestEachPace(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a": "a", "b": "b", "c": "c"})
	o := Options{Root: dir}
	files, err := Files(context.Background(), o, nil)
	if err != nil {
		t.Fatal(err)
	}
	hold := make(chan struct{})
	var read atomic.Int32
	o.Pace = func(ctx context.Context) {
		select {
		case <-hold:
		case <-ctx.Done():
		}
	}
	done := make(chan error)
	go func() {
		done <- Each(context.Background(), o, files, func(File, []byte) error { read.Add(1); return nil }, nil)
	}()
	time.Sleep(50 * time.Millisecond)
	if n := read.Load(); n != 0 {
		t.Fatalf("%d files read while Pace held the reads back", n)
	}
	close(hold)
	if err := <-done; err != nil || read.Load() != 3 {
		t.Fatalf("after Pace let go: %v, %d of 3 files read", err, read.Load())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	o.Pace = func(ctx context.Context) { <-ctx.Done() }
	read.Store(0)
	if err := Each(ctx, o, files, func(File, []byte) error { read.Add(1); return nil }, nil); err == nil || read.Load() != 0 {
		t.Fatalf("a cancelled run paced: %v, %d files read", err, read.Load())
	}
}
