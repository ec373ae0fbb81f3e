package sharedeval

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPathWalksUp(t *testing.T) {
	root := t.TempDir()
	want := filepath.Join(root, "shared", "eval", "x.jsonl")
	deep := filepath.Join(root, "wt", "repo", "pkg", "p")
	for _, d := range []string{filepath.Dir(want), deep} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(want, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(deep)
	if got := Path(t, "x.jsonl"); got != want {
		t.Fatalf("Path = %q, want %q", got, want)
	}
}
