package recall

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/guildconfig"
	"github.com/rtch/rtch/pkg/pgfts/pgtest"
)

const fixture = "../../testdata/fixtures/wiki-project"

// comparison is the golden list of where the postgres backend's wiki chunks
// differ from the SQLite index's on the fixture project; the reasons are in
// docs/decisions/guild-recall-postgres.md.
const comparison = "testdata/postgres-vs-sqlite.txt"

var fixtureQueries = []string{
	"retry budget jittered backoff gateway",
	"how do we retry failed card payments",
	"webhook signatures",
	"SEPA partner returned debits",
	"money representation integer minor units",
	"idempotency key",
	"rate limiting",
	"reconciliation settlement report",
	"ledger postgres",
	"EU data residency",
	"outbox pattern",
	"pricing policy discounts",
	"observability metrics logs",
	"api design pagination",
	"double entry journal",
	"holiday freeze",
	"legacy billing migration",
	"scheduler due jobs",
	"customer portal login",
	"invoice numbering sequence",
}

// TestPostgresAgainstSQLite recalls the fixture project with both index
// backends and compares the wiki chunks (path and lines, in order) with the
// reviewed list of differences. UPDATE_GOLDEN=1 rewrites the list.
func TestPostgresAgainstSQLite(t *testing.T) {
	dsn := pgtest.DSN(t)
	root := filepath.Join(t.TempDir(), "ledgerly")
	if err := os.CopyFS(root, os.DirFS(fixture)); err != nil {
		t.Fatal(err)
	}
	sq := guildconfig.Defaults()
	sq.WikiFileThreshold = 2
	pg := sq
	pg.Backend, pg.DSN = SourcePostgres, dsn
	var b strings.Builder
	same := 0
	for _, q := range fixtureQueries {
		a := wikiChunks(t, root, q, sq, SourceSQLite)
		p := wikiChunks(t, root, q, pg, SourcePostgres)
		if a == p {
			same++
			fmt.Fprintf(&b, "same     %s\n", q)
			continue
		}
		fmt.Fprintf(&b, "differs  %s\n  sqlite:   %s\n  postgres: %s\n", q, a, p)
	}
	fmt.Fprintf(&b, "%d of %d queries give the same chunks in the same order\n", same, len(fixtureQueries))
	got := b.String()
	if os.Getenv("UPDATE_GOLDEN") != "" {
		if err := os.WriteFile(comparison, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(comparison)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("the postgres and sqlite orders changed; review, explain in the decision page and run with UPDATE_GOLDEN=1\n--- got\n%s--- want\n%s", got, want)
	}
}

// wikiChunks recalls q and lists its wiki chunks as path:lines, checking
// the index backend answered.
func wikiChunks(t *testing.T, root, q string, set guildconfig.Settings, backend string) string {
	t.Helper()
	res, err := Recall(context.Background(), Options{Root: root, Query: q, Settings: set, Tool: "test"})
	if err != nil {
		t.Fatalf("%s %q: %v", backend, q, err)
	}
	if _, ok := res.Index["."]; !ok {
		t.Fatalf("%s %q: the index was not used (source %s)", backend, q, res.Source)
	}
	var out []string
	for _, c := range res.Chunks {
		if c.Lines != "" {
			out = append(out, strings.TrimPrefix(c.SourcePath, "wiki/")+":"+c.Lines)
		}
	}
	return strings.Join(out, " ")
}
