package zone

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestDiscoveryAnsweredAgain: git is asked once where a directory stands
// while the .git entries above it stand; a work tree created above it, and
// then removed, are each seen by the next question.
func TestDiscoveryAnsweredAgain(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	top := t.TempDir()
	dir := filepath.Join(top, "sub")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	runs := 0
	runGit = func(ctx context.Context, d string, args ...string) (string, error) {
		runs++
		return git(ctx, d, args...)
	}
	// Asked from an hour on, every entry made here is old enough.
	now = func() time.Time { return time.Now().Add(time.Hour) }
	defer func() { runGit, now = git, time.Now }()
	ask := func(step string, wantTop string, wantRuns int) {
		t.Helper()
		got, ok := gitTopLevel(context.Background(), dir)
		if !ok {
			got = ""
		}
		if got != wantTop || runs != wantRuns {
			t.Fatalf("%s: top %q after %d runs of git, want %q after %d", step, got, runs, wantTop, wantRuns)
		}
	}
	ask("outside git", "", 1)
	ask("asked again", "", 1)
	gitIn(t, top, "init", "-q")
	real, _ := filepath.EvalSymlinks(top)
	ask("a work tree made above", real, 2)
	ask("asked again inside", real, 2)
	if err := os.RemoveAll(filepath.Join(top, ".git")); err != nil {
		t.Fatal(err)
	}
	ask("the work tree removed", "", 3)
}

// A .git changed within the racy window vouches for nothing.
func TestYoungGitEntryNotTrusted(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	top := t.TempDir()
	gitIn(t, top, "init", "-q")
	if m := gitMarks(top); m != "" {
		t.Fatalf("a .git made just now was trusted: %q", m)
	}
}
