//go:build unix

package wiki

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// A FIFO is skipped by its type, before any open (opening one blocks).
func TestListSkipsFIFO(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "wiki"), 0o755)
	if err := syscall.Mkfifo(filepath.Join(root, "wiki/pipe.md"), 0o644); err != nil {
		t.Skip(err)
	}
	pages, diags, err := Load(root, 0)
	if err != nil || len(pages) != 0 || len(diags) != 1 || diags[0].String() != "wiki/pipe.md: not a regular file; skipped" {
		t.Fatalf("pages %v diags %v err %v", pages, diags, err)
	}
}

// A directory large enough to be stat'ed in parallel lists the same files,
// sorted, with their change times and inodes; names that sort differently
// as names and as paths ("a-b.md" against "a/…") still come out in path
// order.
func TestListLargeDirectory(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "wiki", "big")
	os.MkdirAll(filepath.Join(root, "wiki", "a"), 0o755)
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(root, "wiki", "a", "x.md"), []byte("# X\n"), 0o644)
	os.WriteFile(filepath.Join(root, "wiki", "a-b.md"), []byte("# AB\n"), 0o644)
	n := parallelStatMin * 2
	for i := 0; i < n; i++ {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("p%05d.md", n-i)), []byte("# P\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("p00001.md", filepath.Join(dir, "p00000.md")); err != nil {
		t.Fatal(err)
	}
	files, diags, err := List(root, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != n+2 || len(diags) != 1 || diags[0].String() != "wiki/big/p00000.md: symlink not followed" {
		t.Fatalf("%d files, diags %v", len(files), diags)
	}
	if files[0].Path != "wiki/a-b.md" || files[1].Path != "wiki/a/x.md" || files[2].Path != "wiki/big/p00001.md" {
		t.Fatalf("order: %v", files[:3])
	}
	inodes := map[uint64]bool{}
	for i, f := range files {
		if i > 0 && files[i-1].Path >= f.Path {
			t.Fatalf("not sorted at %d: %s, %s", i, files[i-1].Path, f.Path)
		}
		var st unix.Stat_t
		if err := unix.Lstat(filepath.Join(root, f.Path), &st); err != nil {
			t.Fatal(err)
		}
		if f.Inode != uint64(st.Ino) || f.ChangeTime != st.Ctim.Nano() || f.ChangeTime == 0 || f.Size != st.Size {
			t.Fatalf("%s: %+v, stat %+v", f.Path, f, st)
		}
		inodes[f.Inode] = true
	}
	if len(inodes) != len(files) {
		t.Fatalf("%d distinct inodes for %d files", len(inodes), len(files))
	}
}
