//go:build unix

package wiki

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
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
