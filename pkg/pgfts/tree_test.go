package pgfts

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/pgfts/pgtest"
)

// team is the tree identity of the tests whose checkouts share one wiki.
const team = "git:test-team"

// TestWikiBoundToTree: two trees of different identities that use one
// wiki name. The second refresh overwrote the first tree's pages; now it
// fails with a TreeError naming the wiki and both identities and leaves the
// pages as they are. A checkout of the same identity shares the wiki, a
// claim takes the name over, and a wiki written before the binding (no
// tree) is bound by its next refresh.
func TestWikiBoundToTree(t *testing.T) {
	dsn := pgtest.DSN(t)
	ctx := context.Background()
	a, b, clone := t.TempDir(), t.TempDir(), t.TempDir()
	writeFile(t, a, "wiki/concepts/a.md", "# A\nthe ledger of team a\n")
	writeFile(t, b, "wiki/concepts/b.md", "# B\nthe ledger of team b\n")
	writeFile(t, clone, "wiki/concepts/a.md", "# A\nthe ledger of team a, edited in a clone\n")
	refresh := func(root, tree string, claim bool) error {
		ix, _, _, err := Open(ctx, root, Options{DSN: dsn, Wiki: "app", Tree: tree, Claim: claim, Now: later})
		if err == nil {
			ix.Close()
		}
		return err
	}
	mustOwn := func(tree, page string) {
		t.Helper()
		ix, err := OpenSnapshot(ctx, Options{DSN: dsn, Wiki: "app"})
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		var bound string
		if err := ix.tx.QueryRow(ctx, `SELECT tree FROM guild_wikis WHERE wiki = 'app'`).Scan(&bound); err != nil {
			t.Fatal(err)
		}
		h, err := ix.Hashes(ctx)
		if err != nil || bound != tree || len(h) != 1 || h[page] == "" {
			t.Fatalf("wiki bound to %s with pages %v (%v), want %s with %s", bound, h, err, tree, page)
		}
	}
	refused := func(root, tree, bound string) {
		t.Helper()
		err := refresh(root, tree, false)
		var te *TreeError
		if !errors.As(err, &te) || te.Wiki != "app" || te.Bound != bound || te.Tree != tree {
			t.Fatalf("refresh from %s: %v, want a TreeError (bound to %s)", tree, err, bound)
		}
		for _, s := range []string{`"app"`, bound, tree} {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("error %q does not name %s", err, s)
			}
		}
		if h := te.Hint(); !strings.Contains(h, "index.wiki") || !strings.Contains(h, "--claim-wiki") {
			t.Errorf("hint %q names neither way out", h)
		}
	}
	if err := refresh(a, "git:aaa", false); err != nil {
		t.Fatal(err)
	}
	refused(b, "git:bbb", "git:aaa")
	mustOwn("git:aaa", "wiki/concepts/a.md")
	if err := refresh(clone, "git:aaa", false); err != nil {
		t.Fatalf("a clone of the same tree: %v", err)
	}
	if err := refresh(b, "git:bbb", true); err != nil {
		t.Fatalf("claim: %v", err)
	}
	mustOwn("git:bbb", "wiki/concepts/b.md")
	refused(a, "git:aaa", "git:bbb")
	if err := pgtest.Exec(ctx, dsn, `UPDATE guild_wikis SET tree = NULL`); err != nil {
		t.Fatal(err)
	}
	// unchanged pages: the refresh would write nothing but the binding
	if err := refresh(b, "git:bbb", false); err != nil {
		t.Fatalf("an unbound wiki: %v", err)
	}
	refused(a, "git:aaa", "git:bbb")
	mustOwn("git:bbb", "wiki/concepts/b.md")
}
