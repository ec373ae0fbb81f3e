// Package testtree writes the small trees tests walk, watch and serve.
package testtree

import (
	"os"
	"os/exec"
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

// Git runs git in dir with a fixed author and default branch (main), so
// commits need no user configuration; a failure ends the test.
func Git(t testing.TB, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}
