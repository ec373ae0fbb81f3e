package pgfts

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/rtch/rtch/pkg/pgfts/pgtest"
)

// indexTables are the tables a wiki's rows live in.
var indexTables = []string{"guild_wikis", "guild_pages", "guild_sections", "guild_terms"}

// indexSize is the sum of pg_total_relation_size (heap, indexes, TOAST)
// over the index's tables.
func indexSize(t testing.TB, dsn string) (int64, string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var total int64
	var parts []string
	for _, tb := range indexTables {
		var n int64
		if err := conn.QueryRow(ctx, `SELECT pg_total_relation_size($1::regclass)`, tb).Scan(&n); err != nil {
			t.Fatal(err)
		}
		total += n
		parts = append(parts, fmt.Sprintf("%s %d kB", tb, n/1024))
	}
	return total, strings.Join(parts, ", ")
}

// churnWiki writes n pages of four sections each, their words drawn from a
// fixed vocabulary; round r appends a line naming the round to the pages
// selected by edit, so those are indexed again.
func churnWiki(t testing.TB, root string, n, round int, edit func(i int) bool) {
	words := strings.Fields("ledger quota tenant retry budget invoice payment settlement nightly reconcile " +
		"webhook dispatcher scheduler backoff jitter idempotency outbox postgres partition refund dispute " +
		"currency minor units rounding export billing hourly customer portal notification email template")
	for i := 0; i < n; i++ {
		r := rand.New(rand.NewPCG(uint64(i), 1))
		var b strings.Builder
		fmt.Fprintf(&b, "---\ntype: concept\nimportance: 4\n---\n# Page %d\n", i)
		for s := 0; s < 4; s++ {
			fmt.Fprintf(&b, "\n## Section %d of page %d\n\n", s, i)
			for w := 0; w < 60; w++ {
				b.WriteString(words[r.IntN(len(words))])
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "term%d_%d\n", i, s)
		}
		if round > 0 && edit(i) {
			fmt.Fprintf(&b, "\nRevision %d of this page.\n", round)
		}
		writeFile(t, root, fmt.Sprintf("wiki/concepts/page-%03d.md", i), b.String())
	}
}

// TestChurnBounded re-indexes the same wiki of 120 pages again and again
// with autovacuum off for the index's tables: six refreshes that rewrite
// every page, then ten that rewrite the same tenth of them (the first of
// those also every page, back to its text without a revision line). The tables' total size
// (pg_total_relation_size: heap, indexes, TOAST) must stay within 2.5
// times the first build's. Without the refresh's vacuum every rewrite left
// its dead rows and GIN entries behind: the size grew linearly, 2.7 times
// the build's after the second rewrite.
func TestChurnBounded(t *testing.T) {
	dsn := pgtest.DSN(t)
	root := t.TempDir()
	const pages = 120
	var base int64
	refresh := func(round int, edit func(int) bool) {
		churnWiki(t, root, pages, round, edit)
		ix, st, _ := open(t, root, dsn)
		ix.Close()
		if round == 0 {
			autovacuumOff(t, dsn)
			base, _ = indexSize(t, dsn)
			return
		}
		if st.Reindexed() == 0 {
			t.Fatalf("round %d reindexed nothing: %+v", round, st)
		}
		size, parts := indexSize(t, dsn)
		if size > base*5/2 {
			t.Fatalf("round %d: the index takes %d kB, over 2.5 times the %d kB of the build (%s)", round, size/1024, base/1024, parts)
		}
	}
	refresh(0, nil)
	for round := 1; round <= 6; round++ {
		refresh(round, func(int) bool { return true })
	}
	for round := 7; round <= 16; round++ {
		refresh(round, func(i int) bool { return i%10 == 0 })
	}
}

// TestMeasureChurn logs the index's size and the refresh's wall time over
// repeated re-indexes of a wiki of 300 pages (PGFTS_CHURN=N rounds of
// rewriting every page, then N rounds rewriting a tenth of them), with
// autovacuum off for its tables; the figures of docs/guild-recall.md.
func TestMeasureChurn(t *testing.T) {
	if os.Getenv("PGFTS_CHURN") == "" {
		t.Skip("PGFTS_CHURN=N measures N rounds")
	}
	dsn := pgtest.DSN(t)
	root := t.TempDir()
	const pages = 300
	first := true
	rounds := 20
	if n, err := strconv.Atoi(os.Getenv("PGFTS_CHURN")); err == nil && n > 1 {
		rounds = n
	}
	for _, frac := range []int{100, 10} {
		for round := 0; round <= rounds; round++ {
			churnWiki(t, root, pages, round, func(i int) bool { return i%100 < frac })
			t0 := time.Now()
			ix, _, _ := open(t, root, dsn)
			ix.Close()
			el := time.Since(t0)
			if first {
				autovacuumOff(t, dsn)
				first = false
			}
			size, parts := indexSize(t, dsn)
			t.Logf("edit %d%%, round %2d: %6d kB %4d ms (%s)", frac, round, size/1024, el.Milliseconds(), parts)
		}
	}
}

// autovacuumOff turns autovacuum off for the index's tables, so that what
// a test measures is what the refresh itself does.
func autovacuumOff(t testing.TB, dsn string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, tb := range indexTables {
		if _, err := conn.Exec(ctx, "ALTER TABLE "+tb+" SET (autovacuum_enabled = off, toast.autovacuum_enabled = off)"); err != nil {
			t.Fatal(err)
		}
	}
}
