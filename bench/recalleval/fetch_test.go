package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.org",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.org")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v: %s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// A missing source is fetched at its commit (not the branch's head) into
// the mirror layout, and readTree then reads its pages; a source already
// there is not fetched; a failed fetch leaves nothing behind.
func TestFetchMissing(t *testing.T) {
	remote := t.TempDir()
	work := filepath.Join(remote, "o", "n")
	if err := os.MkdirAll(filepath.Join(work, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, work, "init", "-q")
	os.WriteFile(filepath.Join(work, "docs", "faq.md"), []byte("# FAQ\n"), 0o644)
	git(t, work, "add", ".")
	git(t, work, "commit", "-q", "-m", "one")
	commit := git(t, work, "rev-parse", "HEAD")
	os.WriteFile(filepath.Join(work, "docs", "later.md"), []byte("# Later\n"), 0o644)
	git(t, work, "add", ".")
	git(t, work, "commit", "-q", "-m", "two")

	repos := t.TempDir()
	pairs := []pair{{Repo: "o/n", Commit: commit}}
	var fetched []string
	progress := func(s string) { fetched = append(fetched, s) }
	if err := fetchMissing(context.Background(), repos, "file://"+remote, pairs, progress); err != nil {
		t.Fatal(err)
	}
	if err := checkMirrors(repos, pairs); err != nil {
		t.Fatal(err)
	}
	pages, err := readTree(context.Background(), repos, source{Repo: "o/n", Commit: commit, Root: "docs"})
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) != 1 || pages[0].Rel != "faq.md" {
		t.Errorf("pages at the fetched commit = %+v, want faq.md alone", pages)
	}
	if err := fetchMissing(context.Background(), repos, "file:///nonexistent", pairs, progress); err != nil {
		t.Errorf("a present source was fetched again: %v", err)
	}
	if len(fetched) != 1 {
		t.Errorf("fetches = %q, want one", fetched)
	}

	bad := []pair{{Repo: "o/missing", Commit: commit}}
	if err := fetchMissing(context.Background(), repos, "file://"+remote, bad, progress); err == nil || !strings.Contains(err.Error(), "o/missing") {
		t.Errorf("fetching a missing repository: err = %v, want one naming it", err)
	}
	if _, err := os.Stat(filepath.Join(repos, "o+missing")); err == nil {
		if ents, _ := os.ReadDir(filepath.Join(repos, "o+missing")); len(ents) > 0 {
			t.Errorf("a failed fetch left %v behind", ents)
		}
	}
	if err := checkMirrors(repos, bad); err == nil || !strings.Contains(err.Error(), "--fetch") {
		t.Errorf("checkMirrors without the source: err = %v, want one naming --fetch", err)
	}
}
