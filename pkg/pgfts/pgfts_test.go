package pgfts

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rtch/rtch/pkg/fts"
	"github.com/rtch/rtch/pkg/pgfts/pgtest"
)

func later() time.Time { return time.Now().Add(time.Minute) }

func writeFile(t testing.TB, root, rel, s string) {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func project(t *testing.T) string {
	root := t.TempDir()
	writeFile(t, root, "wiki/standards/retries.md", "---\ntype: standard\nowner: reviewed\nimportance: 4\n---\n# Retries\n\n## Backoff\nUse RetryPolicy with exponential backoff and jitter.\n\n## Budgets\nEvery client has a retry_budget.\n")
	writeFile(t, root, "wiki/decisions/ledger.md", "---\ntype: decision\nimportance: 5\nsupersedes: [wiki/decisions/old-ledger.md]\n---\n# Ledger\nThe ledger is append only; settlement runs nightly.\n")
	writeFile(t, root, "wiki/concepts/minor.md", "---\nimportance: 1\n---\n# Minor\nretry notes of little importance\n")
	writeFile(t, root, "wiki/concepts/bad.md", "---\nowner: a\nowner: b\n---\n# Bad\nretry budget page with a broken frontmatter\n")
	return root
}

func open(t *testing.T, root, dsn string) (*Index, fts.Stats, []string) {
	t.Helper()
	ix, st, diags, err := Open(context.Background(), root, Options{DSN: dsn, Wiki: "w", Tree: team, Now: later})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	var ds []string
	for _, d := range diags {
		ds = append(ds, d.String())
	}
	return ix, st, ds
}

func paths(hits []fts.Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Path+"#"+h.Heading)
	}
	return out
}

func TestBuildSearchAndIncremental(t *testing.T) {
	dsn := pgtest.DSN(t)
	root := project(t)
	ctx := context.Background()
	ix, st, diags := open(t, root, dsn)
	if st.Added != 4 || st.Pages != 4 {
		t.Fatalf("first build: %+v", st)
	}
	if len(diags) != 1 || !strings.Contains(diags[0], "wiki/concepts/bad.md") {
		t.Fatalf("diagnostics %q, want the duplicate owner of bad.md", diags)
	}
	// snake_case and CamelCase reach the index whole and split.
	for _, q := range []string{"retry_budget", "budget", "RetryPolicy", "policy"} {
		hits, err := ix.Search(ctx, q, fts.Filter{}, 5)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) == 0 || hits[0].Path != "wiki/standards/retries.md" {
			t.Errorf("%q: %v, want retries.md first", q, paths(hits))
		}
	}
	hits, err := ix.Search(ctx, "retry", fts.Filter{MinImportance: 3, DefaultImportance: 3}, 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		if h.Path == "wiki/concepts/minor.md" {
			t.Errorf("importance 1 page passed the gate of 3: %v", paths(hits))
		}
	}
	hits, err = ix.Search(ctx, "ledger retry", fts.Filter{Categories: []string{"decision"}}, 10)
	if err != nil || len(hits) != 1 || hits[0].Path != "wiki/decisions/ledger.md" {
		t.Fatalf("category filter: %v %v", paths(hits), err)
	}
	sup, err := ix.Supersessions(ctx)
	if err != nil || len(sup) != 1 || sup[0].Target != "wiki/decisions/old-ledger.md" ||
		sup[0].By != "wiki/decisions/ledger.md" || sup[0].Page.Front.Importance != 5 {
		t.Fatalf("supersessions %+v %v", sup, err)
	}

	before, err := os.Stat(filepath.Join(root, StatePath))
	if err != nil {
		t.Fatal(err)
	}
	_, st, _ = open(t, root, dsn)
	if st.Unchanged != 4 || st.Reindexed() != 0 || st.Pages != 4 {
		t.Fatalf("no-change refresh: %+v", st)
	}
	if after, err := os.Stat(filepath.Join(root, StatePath)); err != nil || !os.SameFile(before, after) {
		t.Fatalf("a no-change refresh rewrote %s (%v)", StatePath, err)
	}
	writeFile(t, root, "wiki/concepts/minor.md", "---\nimportance: 4\n---\n# Minor\nchargeback representment\n")
	writeFile(t, root, "wiki/concepts/new.md", "# New\nfresh page\n")
	os.Remove(filepath.Join(root, "wiki/decisions/ledger.md"))
	ix, st, _ = open(t, root, dsn)
	if st.Added != 1 || st.Changed != 1 || st.Deleted != 1 || st.Unchanged != 2 || st.Pages != 4 {
		t.Fatalf("incremental: %+v", st)
	}
	hits, _ = ix.Search(ctx, "representment", fts.Filter{}, 5)
	if len(hits) != 1 || hits[0].Path != "wiki/concepts/minor.md" {
		t.Fatalf("changed page: %v", paths(hits))
	}
	if hits, _ := ix.Search(ctx, "settlement", fts.Filter{}, 5); len(hits) != 0 {
		t.Fatalf("deleted page still found: %v", paths(hits))
	}
}

// Another checkout of the same wiki (no stat cache, other inodes) agrees
// with the stored state by content: nothing is written.
func TestSecondCheckoutWritesNothing(t *testing.T) {
	dsn := pgtest.DSN(t)
	a := project(t)
	open(t, a, dsn)
	b := project(t)
	_, st, _ := open(t, b, dsn)
	if st.Reindexed() != 0 || st.Deleted != 0 || st.Unchanged != 4 {
		t.Fatalf("second checkout: %+v", st)
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	dsn := pgtest.DSN(t)
	root := project(t)
	open(t, root, dsn)
	ctx := context.Background()
	if err := pgtest.Exec(ctx, dsn, `UPDATE guild_schema SET version = 99`); err != nil {
		t.Fatal(err)
	}
	_, _, _, err := Open(ctx, root, Options{DSN: dsn, Wiki: "w", Tree: team})
	var se *SchemaError
	if !errors.As(err, &se) || se.Found != 99 || !strings.Contains(err.Error(), "upgrade guild-recall") {
		t.Fatalf("err = %v, want a SchemaError with a hint", err)
	}
}

func TestConnectErrors(t *testing.T) {
	admin := pgtest.Admin(t)
	dsn := pgtest.DSN(t)
	ctx := context.Background()
	root := project(t)
	_, _, _, err := Open(ctx, root, Options{DSN: "host=127.0.0.1 port=1 user=u password=hunter2secret dbname=d connect_timeout=5", Wiki: "w", Tree: team})
	var ce *ConnectError
	if !errors.As(err, &ce) || ce.Host != "127.0.0.1:1" || strings.Contains(err.Error(), "hunter2secret") {
		t.Fatalf("unreachable: %v", err)
	}
	bad, err := pgtest.PasswordRole(ctx, admin, dsn, "wrong-pass-4711")
	if err != nil {
		t.Fatal(err)
	}
	_, _, _, err = Open(ctx, root, Options{DSN: bad, Wiki: "w", Tree: team})
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "password authentication failed") || strings.Contains(err.Error(), "wrong-pass-4711") {
		t.Fatalf("wrong password: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, StatePath)); !os.IsNotExist(err) {
		t.Fatalf("a failed connect wrote %s", StatePath)
	}
}

// TestHugeSectionIndexed: a page under the page-size cap whose one section
// holds some 130,000 distinct words needs a tsvector over PostgreSQL's
// 1 MiB limit; the server refused it and with it the whole refresh, so one
// hostile page stopped every recall of the wiki (exit 2). The section now
// keeps its first terms up to the limit: the refresh succeeds, the rest of
// the wiki is searchable, and so is the page by a word near its top.
func TestHugeSectionIndexed(t *testing.T) {
	dsn := pgtest.DSN(t)
	root := project(t)
	var b strings.Builder
	b.WriteString("# Huge\n\nzeppelinword opens the page.\n")
	for i := 0; b.Len() < 900<<10; i++ {
		fmt.Fprintf(&b, "w%dx ", i)
		if i%20 == 19 {
			b.WriteString("\n")
		}
	}
	writeFile(t, root, "wiki/concepts/huge.md", b.String())
	ix, st, _ := open(t, root, dsn)
	if st.Added != 5 {
		t.Fatalf("build: %+v", st)
	}
	for q, want := range map[string]string{"zeppelinword": "wiki/concepts/huge.md", "retry_budget": "wiki/standards/retries.md"} {
		hits, err := ix.Search(context.Background(), q, fts.Filter{}, 5)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) == 0 || hits[0].Path != want {
			t.Errorf("%q: %v, want %s first", q, paths(hits), want)
		}
	}
}

// TestLongPathSkipped: a page whose path is longer than a btree entry may
// be (13 directories of 240 random letters, a path of 3,154 bytes) made
// the server refuse the whole refresh, so every recall of the
// wiki failed. The listing now skips it with a diagnostic, as it skips a
// page over the size cap, and the rest of the wiki is indexed.
func TestLongPathSkipped(t *testing.T) {
	dsn := pgtest.DSN(t)
	root := project(t)
	r := rand.New(rand.NewPCG(13, 240))
	var parts []string
	for range 13 {
		b := make([]byte, 240)
		for j := range b {
			b[j] = "abcdefghijklmnopqrstuvwxyz0123456789"[r.IntN(36)]
		}
		parts = append(parts, string(b))
	}
	writeFile(t, root, "wiki/concepts/"+strings.Join(parts, "/")+"/deep.md", "# Deep\n\nretry budget deep page\n")
	_, st, diags := open(t, root, dsn)
	if st.Added != 4 || !strings.Contains(strings.Join(diags, "\n"), "/deep.md: a path of 3154 bytes, over the 1024-byte cap; skipped") {
		t.Fatalf("build %+v, diagnostics %q", st, diags)
	}
}
