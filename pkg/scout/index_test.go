package scout

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/rtch/rtch/pkg/index"
	"github.com/rtch/rtch/pkg/internal/parallel"
	"github.com/rtch/rtch/pkg/internal/testtree"
	"github.com/rtch/rtch/pkg/secret"
	"github.com/rtch/rtch/pkg/walk"
)

// indexRun is one scout run over root with a small findings cap, through
// the tree index in dir ("" for none), which it saves as the command does;
// it returns the result as JSON, without the scans' times, and the result.
func indexRun(t *testing.T, root, dir string, terms []string, capN int) (string, *Result) {
	t.Helper()
	res := runThrough(t, Options{Walk: walk.Options{Root: root}, Terms: terms, FindingsCap: capN}, dir)
	for i := range res.Shape.ShapeInventory {
		res.Shape.ShapeInventory[i].WallMS = 0
	}
	b, err := json.Marshal(struct{ Shape, Terms, Handles any }{res.Shape, res.Terms, res.Handles})
	if err != nil {
		t.Fatal(err)
	}
	return string(b), res
}

// runThrough runs the scout with o, through the tree index in dir ("" for
// none), and saves the index as the command does.
func runThrough(t *testing.T, o Options, dir string) *Result {
	t.Helper()
	if dir != "" {
		ix, err := index.OpenFor(o.Walk.Root, index.Where{Dir: dir}, IndexFingerprint(nil), func(s string) { t.Errorf("warning: %s", s) })
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		o.Index = ix
	}
	res, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if o.Index != nil {
		if _, err := o.Index.Save(res.Files); err != nil {
			t.Fatal(err)
		}
	}
	return res
}

// TestWarmRunKeepsTheCappedFindings: a warm run answers for most files
// from their table rows (no name of theirs is a term, and the complex
// term the dictionary says they may hold their entries say they do not)
// and decodes only the entries whose first findings can still be among a
// scan's capped findings; its result is the cold run's. The files have few and many
// symbols, one named by a term, headings and keys, a handle and a
// deprecation, so each cap tried is reached part way through, at a
// different file.
func TestWarmRunKeepsTheCappedFindings(t *testing.T) {
	root := cappedTree(t)
	// token.package: every file holds both words, one the dotted name,
	// so the dictionary names every file and all entries but one say no.
	terms := []string{"parse", "token", "more", "token.package"}
	dir := filepath.Join(t.TempDir(), "ix")
	indexRun(t, root, dir, terms, 0) // builds the index
	for capN := 2; capN <= 14; capN++ {
		want, _ := indexRun(t, root, "", terms, capN)
		got, res := indexRun(t, root, dir, terms, capN)
		if got != want || res.Read != 0 {
			t.Fatalf("cap %d: warm run (%d files read) differs from a cold one:\nwarm %s\ncold %s", capN, res.Read, got, want)
		}
	}
}

// cappedTree is a tree whose files have few and many symbols, one named
// by a term, headings and keys, a handle and a deprecation, a binary
// file, and a file and a directory named by a term, so that each small
// findings cap is reached part way through, at a different file; its
// files are an hour old, so an index trusts them.
func cappedTree(t *testing.T) string {
	root := t.TempDir()
	for i := range 40 {
		var b []byte
		b = fmt.Appendf(b, "package p\n\n// token %d\n", i)
		for k := range i % 5 {
			b = fmt.Appendf(b, "func F%d_%d() {}\n", i, k)
		}
		switch i {
		case 38:
			b = append(b, "// See RFC 2119.\n"...)
		case 39:
			b = append(b, "// Deprecated: use F7.\n"...)
		}
		if i == 17 {
			b = append(b, "func Parse() error { return nil }\n"...)
		}
		if i == 23 {
			b = append(b, "// the token.package of it\n"...)
		}
		testtree.Write(t, root, fmt.Sprintf("p%02d.go", i), string(b))
		if i%9 == 0 {
			testtree.Write(t, root, fmt.Sprintf("d%02d.md", i), fmt.Sprintf("# Doc %d\n\n## Part\n\n### More %d\n", i, i))
			testtree.Write(t, root, fmt.Sprintf("c%02d.json", i), fmt.Sprintf(`{"a%d": 1, "b": 2, "c": 3}`+"\n", i))
		}
	}
	testtree.Write(t, root, "d20.md", "# Parse\n")
	testtree.Write(t, root, "c20.json", `{"parse": 1}`+"\n")
	testtree.Write(t, root, "parse/token.go", "package parse\n\n// Deprecated: more tokens.\nfunc Token() {}\n")
	testtree.Write(t, root, "blob.bin", "\x00\x01binary\x00")
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			os.Chtimes(p, old, old)
		}
		return nil
	})
	return root
}

// TestBatchesHoldFewOutcomes: a run holds at most a batch of files'
// outcomes at once, or one per reader, cold or through the index, and its
// result is the same whatever the batch size, findings caps reached in
// any batch.
func TestBatchesHoldFewOutcomes(t *testing.T) {
	root := cappedTree(t)
	terms := []string{"parse", "token", "more", "token.package"}
	dir := filepath.Join(t.TempDir(), "ix")
	indexRun(t, root, dir, terms, 0)
	t.Cleanup(func() { batchFiles = defaultBatchFiles })
	for _, capN := range []int{2, 5, 9} {
		batchFiles = 1 << 20
		want, _ := indexRun(t, root, "", terms, capN)
		for _, n := range []int{1, 3, 16} {
			batchFiles = n
			for _, d := range []string{"", dir} {
				got, res := indexRun(t, root, d, terms, capN)
				if got != want {
					t.Fatalf("cap %d, batches of %d, index %q: the result differs from one batch's:\ngot  %s\nwant %s", capN, n, d, got, want)
				}
				if res.peakHeld > max(n, parallel.Workers()) {
					t.Fatalf("cap %d, batches of %d, index %q: %d files' outcomes held at once", capN, n, d, res.peakHeld)
				}
			}
		}
	}
}

// TestWarmRunCountsNameParts: a goal's abbreviation counts the
// definitions whose names hold it as a part (TermStats.NamePart) the same
// through the index as without it, though no name is the term itself and
// the findings cap is reached at the first file (past it a file without
// such a part would be answered from its table row).
func TestWarmRunCountsNameParts(t *testing.T) {
	root := t.TempDir()
	for i := range 6 {
		testtree.Write(t, root, fmt.Sprintf("p%d.go", i), fmt.Sprintf("package p\n\nfunc getAttr%d() {}\nfunc parse_attr_%d() {}\n", i, i))
	}
	testtree.Write(t, root, "q.go", "package p\n\nfunc other() {}\n")
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			os.Chtimes(p, old, old)
		}
		return nil
	})
	dir := filepath.Join(t.TempDir(), "ix")
	run := func(d string) (int, int) {
		o := Options{Walk: walk.Options{Root: root}, Terms: []string{"attr", "other"}, NameParts: []string{"attr"}, FindingsCap: 1}
		res := runThrough(t, o, d)
		return res.Terms["attr"].NamePart, res.Read
	}
	want, _ := run("")
	run(dir) // builds the index
	got, read := run(dir)
	if want == 0 || got != want || read != 0 {
		t.Fatalf("name parts: %d through the index (%d files read), %d without it", got, read, want)
	}
}

// TestRelevantFindingsFirst: a scan's findings are its goal-relevant ones
// first (a symbol named by a term), however many others come before them,
// then the others, up to the cap.
func TestRelevantFindingsFirst(t *testing.T) {
	root := cappedTree(t)
	t.Cleanup(func() { batchFiles = defaultBatchFiles })
	for _, n := range []int{1, 1 << 20} {
		batchFiles = n
		for _, capN := range []int{2, 3} {
			_, res := indexRun(t, root, "", []string{"parse", "token"}, capN)
			var got []string
			for _, f := range res.Shape.Findings {
				if f.Scan == ScanSymbols {
					got = append(got, f.Path+" "+f.Value)
				}
			}
			want := []string{"p17.go Parse", "parse/token.go Token", "p01.go F1_0"}[:capN]
			if !slices.Equal(got, want) {
				t.Errorf("cap %d, batches of %d: symbol findings %q, want %q", capN, n, got, want)
			}
		}
	}
}

// TestNewRedactorRulesRescreenTheTree: an index built under other secret
// rules (a binary with more of them) is not trusted: the next run reads
// every file again, and the run after it none.
func TestNewRedactorRulesRescreenTheTree(t *testing.T) {
	root := t.TempDir()
	for i := range 5 {
		testtree.Write(t, root, fmt.Sprintf("p%d.go", i), fmt.Sprintf("package p\n\n// token %d\nfunc Parse%d() {}\n", i, i))
	}
	old := time.Now().Add(-time.Hour)
	for i := range 5 {
		os.Chtimes(filepath.Join(root, fmt.Sprintf("p%d.go", i)), old, old)
	}
	terms := []string{"parse", "token"}
	dir := filepath.Join(t.TempDir(), "ix")
	indexRun(t, root, dir, terms, 0)
	if _, res := indexRun(t, root, dir, terms, 0); res.Read != 0 {
		t.Fatalf("a warm run read %d files", res.Read)
	}
	rules := secret.Version
	t.Cleanup(func() { secret.Version = rules })
	secret.Version = func() string { return rules() + " and one rule more" }
	if _, res := indexRun(t, root, dir, terms, 0); res.Read != 5 {
		t.Errorf("under new rules the run read %d of 5 files", res.Read)
	}
	if _, res := indexRun(t, root, dir, terms, 0); res.Read != 0 {
		t.Errorf("the run after it read %d files", res.Read)
	}
}

// TestReadingEveryFileLeavesTheIndex: a term no pattern of the words and
// separators can answer for (one holding a line break) makes a warm run
// read every file, binaries included; the index already holds them all,
// so it is not written again.
func TestReadingEveryFileLeavesTheIndex(t *testing.T) {
	root := t.TempDir()
	testtree.Write(t, root, "p.go", "package p\n\n// Parse reads x: \\ y\nfunc Parse() {}\n")
	testtree.Write(t, root, "blob.bin", "\x00\x01binary\x00")
	old := time.Now().Add(-time.Hour)
	for _, f := range []string{"p.go", "blob.bin"} {
		os.Chtimes(filepath.Join(root, f), old, old)
	}
	dir := filepath.Join(t.TempDir(), "ix")
	indexRun(t, root, dir, []string{"parse"}, 0)
	built, err := os.Stat(filepath.Join(dir, "index"))
	if err != nil {
		t.Fatal(err)
	}
	if _, res := indexRun(t, root, dir, []string{"parse", "x:\ny"}, 0); res.Read != 2 {
		t.Fatalf("the run read %d of 2 files", res.Read)
	}
	if now, err := os.Stat(filepath.Join(dir, "index")); err != nil || !os.SameFile(built, now) {
		t.Fatalf("a run that only read the files again rewrote the index (%v)", err)
	}
}
