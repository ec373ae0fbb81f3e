package zone

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/rtch/rtch/pkg/schema"
)

func touch(t *testing.T, root string, rels ...string) {
	t.Helper()
	for _, rel := range rels {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestResolveRootOrder(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	touch(t, dir, "z/.ticzone", "z/a/b/f", "plain/f")
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == EnvRoot {
				return v
			}
			return ""
		}
	}
	real := func(p string) string {
		r, err := filepath.EvalSymlinks(p)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	r, err := ResolveRoot(ctx, filepath.Join(dir, "z/a/b"), env(""))
	if err != nil || r.Dir != real(filepath.Join(dir, "z")) || r.DecidedBy != DecidedByTiczone || r.Start != real(filepath.Join(dir, "z/a/b")) {
		t.Fatalf("ticzone: %+v %v", r, err)
	}
	r, err = ResolveRoot(ctx, filepath.Join(dir, "z/a/b"), env(filepath.Join(dir, "plain")))
	if err != nil || r.Dir != real(filepath.Join(dir, "plain")) || r.DecidedBy != DecidedByEnv {
		t.Fatalf("env: %+v %v", r, err)
	}
	if _, err := ResolveRoot(ctx, dir, env(filepath.Join(dir, "plain/f"))); err == nil {
		t.Fatal("a file as $RTCH_ZONE_ROOT must be an error")
	}
	r, err = ResolveRoot(ctx, filepath.Join(dir, "plain"), nil)
	if err != nil || r.DecidedBy != DecidedByCwd || r.Dir != real(filepath.Join(dir, "plain")) {
		t.Fatalf("cwd: %+v %v", r, err)
	}
	if r.Rel(filepath.Join(r.Dir, "x", "y")) != "x/y" || r.Rel(r.Dir) != "." {
		t.Fatal("Rel")
	}
}

func TestRungsAndTruthFiles(t *testing.T) {
	root := t.TempDir()
	touch(t, root, ".federation-root", "AGENTS.md", "d/.domain-root", "d/.site-root", "d/CLAUDE.md", "d/AGENTS.md", "d/e/.custom")
	got := Rungs(root, "d/e", DefaultRungMarkers)
	want := []schema.Rung{
		{Dir: ".", Marker: ".federation-root", Instructions: "AGENTS.md"},
		{Dir: "d", Marker: ".domain-root", Instructions: "d/CLAUDE.md"},
		{Dir: "d", Marker: ".site-root", Instructions: "d/CLAUDE.md"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("rungs\n got %+v\nwant %+v", got, want)
	}
	if got := Rungs(root, "d/e", []string{".custom"}); len(got) != 1 || got[0].Dir != "d/e" {
		t.Fatalf("configured markers: %+v", got)
	}
	if got := Rungs(root, ".", DefaultRungMarkers); len(got) != 1 {
		t.Fatalf("root only: %+v", got)
	}
}

func TestDescribeListsOnlyFilesInsideTheZone(t *testing.T) {
	outside := t.TempDir()
	touch(t, outside, "SECRET.md")
	root := t.TempDir()
	touch(t, root, "ARCHITECTURE.md", "README.rst", "go.mod", "requirements-dev.txt", "tools-registry.json", "docs/CLAUDE.md")
	if err := os.Symlink(filepath.Join(outside, "SECRET.md"), filepath.Join(root, "CLAUDE.md")); err != nil {
		t.Skip("no symlinks:", err)
	}
	if err := os.Symlink("ARCHITECTURE.md", filepath.Join(root, "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, "README.d"), 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := ResolveRoot(context.Background(), root, func(string) string { return root })
	if err != nil {
		t.Fatal(err)
	}
	z, _ := Describe(context.Background(), Options{Root: r})
	if !reflect.DeepEqual(z.TruthFiles, []string{"AGENTS.md", "ARCHITECTURE.md", "README.rst"}) {
		t.Fatalf("truth files %v (a link out of the zone is never listed; a directory is not a file)", z.TruthFiles)
	}
	if !reflect.DeepEqual(z.Manifests, []string{"go.mod", "requirements-dev.txt", "tools-registry.json"}) {
		t.Fatalf("manifests %v", z.Manifests)
	}
	if z.Kind != schema.KindZone || z.DecidedBy != DecidedByEnv || z.TargetDir != "." || z.Rungs == nil {
		t.Fatalf("zone %+v", z)
	}
}

func TestSnapshotOutsideGitIsNull(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(dir))
	s, err := Snapshot(context.Background(), dir, 5)
	if s != nil || err != nil {
		t.Fatalf("outside git: %+v %v", s, err)
	}
}

func TestSnapshotCountsAndCaps(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	run := func(args ...string) { t.Helper(); gitIn(t, dir, args...) }
	run("init", "-q")
	// Unborn branch: no head yet, but a branch name.
	s, err := Snapshot(context.Background(), dir, 5)
	if err != nil || s == nil || s.Head != "" || s.Branch == "" {
		t.Fatalf("unborn: %+v %v", s, err)
	}
	touch(t, dir, "a", "b")
	run("add", "a", "b")
	run("commit", "-q", "-m", "init")
	touch(t, dir, "u1", "u2", "u3")
	if err := os.WriteFile(filepath.Join(dir, "a"), []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err = Snapshot(context.Background(), dir, 2)
	if err != nil || s == nil || len(s.Head) != 40 || s.Modified != 1 || s.Untracked != 3 || len(s.Status) != 2 || s.Status[0] != " M a" {
		t.Fatalf("snapshot %+v %v", s, err)
	}
	run("checkout", "-q", "--detach")
	if s, _ = Snapshot(context.Background(), dir, 2); s.Branch != "" {
		t.Fatalf("detached HEAD has branch %q", s.Branch)
	}
}

// gitIn runs git in dir with a test identity; a failure fails the test.
func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.email=t@example.com", "-c", "user.name=t"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v in %s: %v %s", args, dir, err, out)
	}
}
