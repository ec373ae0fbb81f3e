// Package sharedeval finds the project's shared evaluation data for tests.
//
// The data lives in shared/eval, a sibling of the repository's checkout
// (../shared/eval from the repository root). A package's tests run in the
// package directory, whose depth below that sibling differs between a clone
// and a git worktree, so the directory is found by walking up rather than
// by a fixed relative path.
package sharedeval

import (
	"os"
	"path/filepath"
	"testing"
)

// Path returns the absolute path of shared/eval/name in the nearest
// directory above the working directory that holds it. It skips the test,
// saying what was looked for, when no such file exists.
func Path(t testing.TB, name string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		p := filepath.Join(dir, "shared", "eval", name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skipf("shared/eval/%s not found above the package directory (the shared eval directory is a sibling of the repository)", name)
		}
		dir = parent
	}
}
