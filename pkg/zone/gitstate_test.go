package zone

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/rtch/rtch/pkg/snapshot"
	"github.com/rtch/rtch/pkg/watch"
)

// TestGitSnapshotKeptWhileTreeAndGitStand: a watched work tree's git
// snapshot is taken once while neither the tree nor git's state moves, and
// after each kind of change (to the work tree, the index alone, HEAD, the
// branch, a global excludes file, a configuration file an include names)
// the next answer is git's own again.
func TestGitSnapshotKeptWhileTreeAndGitStand(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "xdg"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) { t.Helper(); gitIn(t, dir, args...) }
	run("init", "-q")
	touch(t, dir, "a", "b")
	run("add", "a", "b")
	run("commit", "-q", "-m", "init")
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Asked from an hour on, every entry made here is old enough.
	now = func() time.Time { return time.Now().Add(time.Hour) }
	defer func() { now = time.Now }()

	tree, err := snapshot.New(dir, watch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	c := &GitCache{Root: dir, Version: tree.Version}
	tree.Version(context.Background()) // the watcher starts here
	ask := func(step string, wantRuns int) {
		t.Helper()
		got, err := c.snapshot(context.Background(), dir, 5)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		want, err := Snapshot(context.Background(), dir, 5)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: kept %+v, git says %+v", step, got, want)
		}
		if c.Runs != wantRuns {
			t.Fatalf("%s: git asked %d times, want %d", step, c.Runs, wantRuns)
		}
	}
	ask("first", 1)
	ask("again", 1)
	ask("and again", 1)

	write(filepath.Join(dir, "a"), "edited\n")
	ask("a tracked file edited", 2)
	ask("again after the edit", 2)
	run("add", "a") // the index alone: the tree does not move
	ask("the edit staged", 3)
	run("commit", "-q", "-m", "edit")
	ask("committed", 4)
	run("checkout", "-q", "-b", "other")
	ask("another branch", 5)
	run("update-ref", "refs/heads/other", "HEAD~1")
	ask("the branch moved", 6)
	head, err := Snapshot(context.Background(), dir, 5)
	if err != nil {
		t.Fatal(err)
	}
	run("commit", "-q", "--allow-empty", "-m", "empty")
	ask("a commit", 7)
	// A ref written in place moves neither the .git directory nor HEAD.
	write(filepath.Join(dir, ".git", "refs", "heads", "other"), head.Head+"\n")
	ask("the branch's ref written in place", 8)

	touch(t, dir, "junk.log")
	ask("an untracked file", 9)
	write(filepath.Join(home, "xdg", "git", "ignore"), "*.log\n")
	ask("a global excludes file", 10)
	write(filepath.Join(home, ".gitconfig"), "[include]\n\tpath = more.gitconfig\n")
	ask("a global configuration including a file not there", 11)
	write(filepath.Join(home, "more.gitconfig"), "[core]\n\texcludesFile = ~/none\n")
	ask("the included file made", 12)
	write(filepath.Join(home, "more.gitconfig"), "[core]\n\texcludesFile = ~/xdg/git/ignore\n")
	ask("the included file changed", 13)
	ask("all standing", 13)
	// An embedded repository (a gitlink without .gitmodules): its commits
	// change status, and its git directory is not watched.
	inner := filepath.Join(dir, "inner")
	if err := os.Mkdir(inner, 0o755); err != nil {
		t.Fatal(err)
	}
	gitIn(t, inner, "init", "-q")
	gitIn(t, inner, "commit", "-q", "--allow-empty", "-m", "i")
	run("add", "inner")
	ask("a repository embedded", 14)
	ask("asked again with it", 15)
	if got, _ := c.snapshot(context.Background(), dir, 2); len(got.Status) > 2 {
		t.Fatalf("another line cap got a kept snapshot: %+v", got)
	}
}

// The cache answers only for the watched root, at a work tree's top.
func TestGitCacheAnswersForTheWatchedTopOnly(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	gitIn(t, dir, "init", "-q")
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	watched := func(context.Context) (uint64, bool, error) { return 1, true, nil }
	cases := []struct {
		name string
		c    *GitCache
		dir  string
		want bool
	}{
		{"the watched top", &GitCache{Root: dir, Version: watched}, dir, true},
		{"no cache", nil, dir, false},
		{"below the top", &GitCache{Root: sub, Version: watched}, sub, false},
		{"not the watched root", &GitCache{Root: sub, Version: watched}, dir, false},
	}
	for _, tc := range cases {
		if got := tc.c.answersFor(tc.dir); got != tc.want {
			t.Errorf("%s: answers %v, want %v", tc.name, got, tc.want)
		}
	}
	touch(t, dir, ".gitmodules")
	if (&GitCache{Root: dir, Version: watched}).answersFor(dir) {
		t.Errorf("a tree with submodules was answered for")
	}
}

// Git's state changed just now vouches for nothing.
func TestYoungGitStateNotTrusted(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	gitIn(t, dir, "init", "-q")
	if m := gitStateMarks(dir, nil); m != "" {
		t.Fatalf("a git directory made just now was trusted: %q", m)
	}
}
