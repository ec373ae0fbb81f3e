package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFileReplacesAndKeepsMode(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(p, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(p, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	st, _ := os.Stat(p)
	if string(b) != "new" || st.Mode().Perm() != 0o640 {
		t.Fatalf("content %q mode %v", b, st.Mode().Perm())
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("stray files %v", ents)
	}
}

func TestCleanupLeavesOldFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.txt")
	os.WriteFile(p, []byte("old"), 0o644)
	w, err := Create(p, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("half"))
	if err := w.Cleanup(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	ents, _ := os.ReadDir(dir)
	if string(b) != "old" || len(ents) != 1 {
		t.Fatalf("content %q, %d entries", b, len(ents))
	}
}

func TestMissingDirectoryFails(t *testing.T) {
	err := WriteFile(filepath.Join(t.TempDir(), "no", "such", "f"), []byte("x"), 0o644)
	if err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("err %v", err)
	}
}
