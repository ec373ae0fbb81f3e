// Package testtree writes the small trees tests walk, watch and serve.
package testtree

import (
	"os"
	"path/filepath"
	"testing"
)

// Write writes text to rel ('/'-separated) under root, creating the
// directories on the way; a failure ends the test.
func Write(t testing.TB, root, rel, text string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
