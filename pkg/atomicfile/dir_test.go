//go:build unix

package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A symlink at any component of a directory's path refuses OpenDir, with
// or without creating, wherever it points; nothing is created through it.
func TestOpenDirRefusesALinkAtEveryComponent(t *testing.T) {
	for _, at := range []string{"a", "a/b", "a/b/c"} {
		for _, target := range []string{"outside", "inside"} {
			root, outside := t.TempDir(), t.TempDir()
			if err := os.MkdirAll(filepath.Join(root, "a/b"), 0o755); err != nil {
				t.Fatal(err)
			}
			os.RemoveAll(filepath.Join(root, at))
			dest := outside
			if target == "inside" {
				dest = filepath.Join(root, "elsewhere")
				os.Mkdir(dest, 0o755)
			}
			if err := os.Symlink(dest, filepath.Join(root, at)); err != nil {
				t.Fatal(err)
			}
			for _, perm := range []os.FileMode{0, 0o700} {
				if _, err := OpenDir(root, "a/b/c/d", perm); !errors.Is(err, ErrSymlink) || !errors.Is(err, ErrEscapes) {
					t.Fatalf("link at %s to %s: %v, want ErrSymlink", at, target, err)
				}
			}
			for _, d := range []string{outside, filepath.Join(root, "elsewhere")} {
				if ents, _ := os.ReadDir(d); len(ents) != 0 {
					t.Fatalf("link at %s: created %v through it", at, ents)
				}
			}
		}
	}
}

func TestOpenDirCreatesWithMode(t *testing.T) {
	root := t.TempDir()
	d, err := OpenDir(root, "x/y", 0o700)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, p := range []string{"x", "x/y"} {
		if st, err := os.Stat(filepath.Join(root, p)); err != nil || st.Mode().Perm() != 0o700 {
			t.Fatalf("%s: %v %v", p, st.Mode(), err)
		}
	}
	if d.Name("f") != filepath.Join(root, "x/y/f") {
		t.Fatalf("Name = %s", d.Name("f"))
	}
	if _, err := OpenDir(root, "../x", 0o700); !errors.Is(err, ErrEscapes) {
		t.Fatalf("../x: %v", err)
	}
}

// Append and OpenLock write only a regular file with one link, never
// through a symlink, and never block on a FIFO.
func TestAppendAndLockRefuseWhatIsNotTheirFile(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	target := filepath.Join(outside, "bashrc")
	os.WriteFile(target, []byte("keep\n"), 0o644)
	d, err := OpenDir(root, ".", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	os.Symlink(target, filepath.Join(root, "link"))
	os.Symlink(filepath.Join(outside, "new"), filepath.Join(root, "dangling"))
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Link(target, filepath.Join(root, "hard"))
	for name, want := range map[string]error{"link": ErrSymlink, "dangling": ErrSymlink, "fifo": ErrNotRegular, "hard": ErrEscapes} {
		if err := d.Append(name, []byte("evil\n"), 0o644); !errors.Is(err, want) {
			t.Errorf("Append %s: %v, want %v", name, err, want)
		}
		if name == "hard" {
			continue // a lock file writes no byte
		}
		if f, err := d.OpenLock(name, 0o600); !errors.Is(err, want) {
			if f != nil {
				f.Close()
			}
			t.Errorf("OpenLock %s: %v, want %v", name, err, want)
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "keep\n" {
		t.Fatalf("the outside file now holds %q", b)
	}
	if _, err := os.Lstat(filepath.Join(outside, "new")); !os.IsNotExist(err) {
		t.Fatalf("a file was created through the dangling link: %v", err)
	}
	for range 2 {
		if err := d.Append("events.jsonl", []byte("line\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(root, "events.jsonl")); string(b) != "line\nline\n" {
		t.Fatalf("appended %q", b)
	}
	if err := d.Check("events.jsonl", "missing"); err != nil {
		t.Fatal(err)
	}
	if err := d.Check("events.jsonl", "link"); !errors.Is(err, ErrSymlink) {
		t.Fatalf("Check link: %v", err)
	}
	if err := d.Check("fifo"); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("Check fifo: %v", err)
	}
}

func TestPrivateTightensAnOpenDirectory(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "ix")
	os.Mkdir(dir, 0o755)
	os.Chmod(dir, 0o755)
	d, err := OpenDir(root, "ix", 0o700)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.Private(); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(dir); st.Mode().Perm() != 0o700 {
		t.Fatalf("mode %v, want 0700", st.Mode().Perm())
	}
}

func TestStaleOwner(t *testing.T) {
	for entry, want := range map[string]int{
		".p.yaml.123-abc.rtchtmp":            123,
		".wiki.sqlite.77-z9.rtchtmp-journal": 77,
		".a.b.c.5-1.rtchtmp":                 5,
		"p.yaml.123-abc.rtchtmp":             0,
		".p.yaml.123.rtchtmp":                0,
		".p.yaml.x-abc.rtchtmp":              0,
		".p.yaml.123-abc":                    0,
		".p.yaml.123-ab!.rtchtmp":            0,
	} {
		if got := staleOwner(entry); got != want {
			t.Errorf("staleOwner(%q) = %d, want %d", entry, got, want)
		}
	}
}

// TestScratchLeavesNothing: a scratch file reads back what was written to
// it, and no name of it is left in the directory, before or after release.
func TestScratchLeavesNothing(t *testing.T) {
	root := t.TempDir()
	d, err := OpenDir(root, "ix", 0o700)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	f, release, err := d.Scratch("index")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("entries"), 3); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 7)
	if _, err := f.ReadAt(b, 3); err != nil || string(b) != "entries" {
		t.Fatalf("read back %q, %v", b, err)
	}
	if ents, _ := os.ReadDir(filepath.Join(root, "ix")); len(ents) != 0 {
		t.Fatalf("the scratch file has a name: %v", ents)
	}
	release()
	if _, _, err := d.Scratch("../index"); err == nil {
		t.Fatal("a scratch file outside the directory was created")
	}
}
