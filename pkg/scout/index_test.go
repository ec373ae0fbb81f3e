package scout

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rtch/rtch/pkg/index"
	"github.com/rtch/rtch/pkg/internal/testtree"
	"github.com/rtch/rtch/pkg/secret"
	"github.com/rtch/rtch/pkg/walk"
)

// indexRun is one scout run over root with a small findings cap, through
// the tree index in dir ("" for none), which it saves as the command does;
// it returns the result as JSON, without the scans' times, and the number
// of files it read.
func indexRun(t *testing.T, root, dir string, terms []string, capN int) (string, int) {
	t.Helper()
	o := Options{Walk: walk.Options{Root: root}, Terms: terms, FindingsCap: capN}
	if dir != "" {
		ix, err := index.OpenFor(root, index.Where{Dir: dir}, IndexFingerprint(nil), func(s string) { t.Errorf("warning: %s", s) })
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
	for i := range res.Shape.ShapeInventory {
		res.Shape.ShapeInventory[i].WallMS = 0
	}
	b, err := json.Marshal(struct{ Shape, Terms, Handles any }{res.Shape, res.Terms, res.Handles})
	if err != nil {
		t.Fatal(err)
	}
	return string(b), res.Read
}

// TestWarmRunKeepsTheCappedFindings: a warm run answers for most files
// from their table rows (no name of theirs is a term) and decodes only the
// entries whose first findings can still be among a scan's capped
// findings; its result is the cold run's. The files have few and many
// symbols, one named by a term, headings and keys, a handle and a
// deprecation, so each cap tried is reached part way through, at a
// different file.
func TestWarmRunKeepsTheCappedFindings(t *testing.T) {
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
		testtree.Write(t, root, fmt.Sprintf("p%02d.go", i), string(b))
		if i%9 == 0 {
			testtree.Write(t, root, fmt.Sprintf("d%02d.md", i), fmt.Sprintf("# Doc %d\n\n## Part\n\n### More %d\n", i, i))
			testtree.Write(t, root, fmt.Sprintf("c%02d.json", i), fmt.Sprintf(`{"a%d": 1, "b": 2, "c": 3}`+"\n", i))
		}
	}
	testtree.Write(t, root, "d20.md", "# Parse\n")
	testtree.Write(t, root, "c20.json", `{"parse": 1}`+"\n")
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			os.Chtimes(p, old, old)
		}
		return nil
	})
	terms := []string{"parse", "token", "more"}
	dir := filepath.Join(t.TempDir(), "ix")
	indexRun(t, root, dir, terms, 0) // builds the index
	for capN := 2; capN <= 14; capN++ {
		want, _ := indexRun(t, root, "", terms, capN)
		got, read := indexRun(t, root, dir, terms, capN)
		if got != want || read != 0 {
			t.Fatalf("cap %d: warm run (%d files read) differs from a cold one:\nwarm %s\ncold %s", capN, read, got, want)
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
	if _, read := indexRun(t, root, dir, terms, 0); read != 0 {
		t.Fatalf("a warm run read %d files", read)
	}
	rules := secret.Version
	t.Cleanup(func() { secret.Version = rules })
	secret.Version = func() string { return rules() + " and one rule more" }
	if _, read := indexRun(t, root, dir, terms, 0); read != 5 {
		t.Errorf("under new rules the run read %d of 5 files", read)
	}
	if _, read := indexRun(t, root, dir, terms, 0); read != 0 {
		t.Errorf("the run after it read %d files", read)
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
	if _, read := indexRun(t, root, dir, []string{"parse", "x:\ny"}, 0); read != 2 {
		t.Fatalf("the run read %d of 2 files", read)
	}
	if now, err := os.Stat(filepath.Join(dir, "index")); err != nil || !os.SameFile(built, now) {
		t.Fatalf("a run that only read the files again rewrote the index (%v)", err)
	}
}
