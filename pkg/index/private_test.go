//go:build unix

package index

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/atomicfile"
)

// An index directory that exists open to others (0755) is made private
// when the index is written; one another user owns is refused.
func TestSaveMakesTheIndexDirectoryPrivate(t *testing.T) {
	root, dir := t.TempDir(), filepath.Join(t.TempDir(), "ix")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755)
	save := func() error {
		ix, err := OpenFor(root, Where{Dir: dir}, Fingerprint("p"), func(s string) { t.Errorf("warning: %s", s) })
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		_, err = ix.Save(nil)
		return err
	}
	if err := save(); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(dir); st.Mode().Perm() != 0o700 {
		t.Fatalf("index directory mode %v, want 0700", st.Mode().Perm())
	}
	if _, err := os.Stat(filepath.Join(dir, fileName)); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 {
		return
	}
	other := filepath.Join(t.TempDir(), "theirs")
	os.Mkdir(other, 0o777)
	os.Chown(other, 4242, 4242)
	dir = other
	if err := save(); err == nil || !strings.Contains(err.Error(), "owned by uid 4242") {
		t.Fatalf("another user's index directory: %v", err)
	}
}

// Inside the tree ([index] dir), the index directory, its lock and its
// files are written with no symlink on the way.
func TestSaveInTheTreeRefusesLinks(t *testing.T) {
	for _, at := range []string{".rtch", ".rtch/index", ".rtch/index/lock", ".rtch/index/index", ".rtch/index/root"} {
		root, outside := t.TempDir(), t.TempDir()
		os.MkdirAll(filepath.Join(root, ".rtch/index"), 0o700)
		p := filepath.Join(root, at)
		os.RemoveAll(p)
		if err := os.Symlink(filepath.Join(outside, "x"), p); err != nil {
			t.Fatal(err)
		}
		w := Where{Dir: filepath.Join(root, ".rtch/index"), Root: root}
		ix, err := OpenFor(root, w, Fingerprint("p"), func(string) {})
		if err == nil && ix != nil {
			_, err = ix.Save(nil)
			ix.Close()
		}
		if !errors.Is(err, atomicfile.ErrEscapes) && at != ".rtch/index/index" && at != ".rtch/index/root" {
			t.Errorf("link at %s: %v, want a refusal", at, err)
		}
		if ents, _ := os.ReadDir(outside); len(ents) != 0 {
			t.Errorf("link at %s: %v written outside", at, ents)
		}
	}
}
