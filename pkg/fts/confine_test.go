//go:build unix

package fts

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/rtch/rtch/pkg/atomicfile"
)

// A symlink at the index's directory, its database, journal, WAL or
// shared-memory file, or its lock refuses the index (the caller falls back
// to another mechanism); nothing is written where it points.
func TestIndexRefusesLinks(t *testing.T) {
	for _, at := range []string{".guild", ".guild/indexes", RelPath, RelPath + "-journal", RelPath + "-wal", RelPath + "-shm", RelPath + ".lock"} {
		for _, dangling := range []bool{false, true} {
			root, outside := project(t), t.TempDir()
			target := filepath.Join(outside, "target")
			if !dangling {
				os.WriteFile(target, []byte("the user's\n"), 0o644)
			}
			p := filepath.Join(root, filepath.FromSlash(at))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
			ix, _, _, err := Open(context.Background(), root, Options{Now: later})
			if err == nil {
				ix.Close()
				t.Errorf("link at %s (dangling %v): the index opened", at, dangling)
			} else if !errors.Is(err, atomicfile.ErrEscapes) {
				t.Errorf("link at %s (dangling %v): %v, want a refusal", at, dangling, err)
			}
			if _, err := OpenSnapshot(context.Background(), root); err == nil {
				t.Errorf("link at %s: a snapshot opened", at)
			}
			ents, _ := os.ReadDir(outside)
			b, _ := os.ReadFile(target)
			if dangling && len(ents) != 0 || !dangling && (len(ents) != 1 || string(b) != "the user's\n") {
				t.Errorf("link at %s (dangling %v): outside now holds %v, %q", at, dangling, ents, b)
			}
		}
	}
}
