package recall

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/guildconfig"
	"github.com/rtch/rtch/pkg/internal/testtree"
	"github.com/rtch/rtch/pkg/pgfts"
	"github.com/rtch/rtch/pkg/pgfts/pgtest"
)

// gitProject makes a guild project at dir whose one wiki page says text,
// committed as the repository's first commit.
func gitProject(t *testing.T, dir, text string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	write(t, dir, "wiki/concepts/ledger.md", []byte("# Ledger\n\n"+text+"\n"))
	testtree.Git(t, dir, "init", "-q")
	testtree.Git(t, dir, "add", ".")
	testtree.Git(t, dir, "commit", "-q", "-m", "first")
	return dir
}

func identity(t *testing.T, root string) string {
	t.Helper()
	id, err := TreeIdentity(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestTreeIdentity: clones of one repository have one identity, another
// repository another; a guild root below the top level adds its path; a
// tree outside git is its host and path; a shallow clone is refused.
func TestTreeIdentity(t *testing.T) {
	base := t.TempDir()
	a := gitProject(t, filepath.Join(base, "a", "app"), "the quota ledger of team a")
	b := gitProject(t, filepath.Join(base, "b", "app"), "the quota ledger of team b")
	ida := identity(t, a)
	if !strings.HasPrefix(ida, "git:") || len(ida) != len("git:")+40 {
		t.Fatalf("identity of a repository: %q", ida)
	}
	if b, err := os.ReadFile(filepath.Join(a, ".git", treeCache)); err != nil || !strings.HasSuffix(strings.TrimSpace(string(b)), ida[len("git:"):]) {
		t.Fatalf("cache in the git directory: %q %v", b, err)
	}
	write(t, a, "sub/x.md", []byte("x\n"))
	testtree.Git(t, a, "add", ".")
	testtree.Git(t, a, "commit", "-q", "-m", "second")
	if got := identity(t, a); got != ida {
		t.Errorf("after a second commit: %q, want %q", got, ida)
	}
	clone := filepath.Join(base, "c", "app")
	testtree.Git(t, base, "clone", "-q", a, clone)
	if got := identity(t, clone); got != ida {
		t.Errorf("a clone: %q, want %q", got, ida)
	}
	if got := identity(t, b); got == ida {
		t.Errorf("another repository has the same identity %q", got)
	}
	if got := identity(t, filepath.Join(a, "sub")); got != ida+"/sub" {
		t.Errorf("a root below the top level: %q, want %q", got, ida+"/sub")
	}
	plain := t.TempDir()
	if got := identity(t, plain); !strings.HasPrefix(got, "dir:") || !strings.HasSuffix(got, ":"+filepath.ToSlash(mustEval(t, plain))) {
		t.Errorf("outside git: %q", got)
	}
	shallow := filepath.Join(base, "s", "app")
	testtree.Git(t, base, "clone", "-q", "--depth", "1", "file://"+a, shallow)
	var se *ShallowError
	if _, err := TreeIdentity(context.Background(), shallow); !errors.As(err, &se) {
		t.Errorf("a shallow clone: %v, want a ShallowError", err)
	}
}

// TestTreeIdentityCacheStaysInTree: a repository that plants its cache
// file as a symlink to a file outside the tree does not get that file
// written (writes stay in the tree); the identity is still found.
func TestTreeIdentityCacheStaysInTree(t *testing.T) {
	base := t.TempDir()
	a := gitProject(t, filepath.Join(base, "app"), "the quota ledger")
	victim := filepath.Join(base, "victim")
	if err := os.WriteFile(victim, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(a, ".git", treeCache)); err != nil {
		t.Fatal(err)
	}
	if id := identity(t, a); !strings.HasPrefix(id, "git:") {
		t.Fatalf("identity %q", id)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep\n" {
		t.Errorf("the file the planted link names was written: %q", b)
	}
}

func mustEval(t *testing.T, p string) string {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestWikiNameBoundToTree: two repositories whose directories are both
// called app share the default wiki name on one PostgreSQL server. The
// second one's recall overwrote the first's pages; now it fails with an
// InputError naming the wiki and both trees, and the first's pages stay. A
// clone of the first shares its wiki; --claim-wiki takes the name over.
func TestWikiNameBoundToTree(t *testing.T) {
	set := guildconfig.Defaults()
	set.Backend, set.DSN = SourcePostgres, pgtest.DSN(t)
	set.WikiFileThreshold = 1
	base := t.TempDir()
	a := gitProject(t, filepath.Join(base, "a", "app"), "the quota ledger of team alpha")
	b := gitProject(t, filepath.Join(base, "b", "app"), "the quota ledger of team bravo")
	clone := filepath.Join(base, "c", "app")
	testtree.Git(t, base, "clone", "-q", a, clone)
	recallFrom := func(root string, claim bool) (string, error) {
		res, err := Recall(context.Background(), Options{Root: root, Query: "quota ledger team", Settings: set, Tool: "test", ClaimWiki: claim})
		if err != nil {
			return "", err
		}
		var text []string
		for _, c := range res.Chunks {
			text = append(text, c.Rendered)
		}
		return strings.Join(text, "\n"), nil
	}
	if _, err := recallFrom(a, false); err != nil {
		t.Fatal(err)
	}
	_, err := recallFrom(b, false)
	var ie *InputError
	var te *pgfts.TreeError
	if !errors.As(err, &ie) || !errors.As(err, &te) || te.Wiki != "app" || te.Bound != identity(t, a) || te.Tree != identity(t, b) {
		t.Fatalf("recall from another repository named app: %v, want an InputError with a TreeError", err)
	}
	if got, err := recallFrom(clone, false); err != nil || !strings.Contains(got, "alpha") {
		t.Fatalf("recall from a clone: %q %v, want team alpha's page", got, err)
	}
	if got, err := recallFrom(b, true); err != nil || !strings.Contains(got, "bravo") || strings.Contains(got, "alpha") {
		t.Fatalf("recall with --claim-wiki: %q %v, want team bravo's page only", got, err)
	}
	if _, err := recallFrom(a, false); !errors.As(err, &te) || te.Bound != identity(t, b) {
		t.Fatalf("recall from the first repository after the claim: %v", err)
	}
}
