package recall

import (
	"context"
	"os"
	"testing"

	"github.com/rtch/rtch/pkg/guildconfig"
)

// BenchmarkRecallWiki recalls from the project at $GUILD_BENCH_WIKI (for
// example a wiki written by pkg/fts/internal/genwiki); it is skipped when the
// variable is unset.
func BenchmarkRecallWiki(b *testing.B) {
	root := os.Getenv("GUILD_BENCH_WIKI")
	if root == "" {
		b.Skip("GUILD_BENCH_WIKI not set")
	}
	cfg, _, err := guildconfig.Load("", root)
	if err != nil {
		b.Fatal(err)
	}
	q := os.Getenv("GUILD_BENCH_QUERY")
	if q == "" {
		q = "idempotency backoff retry budget"
	}
	for i := 0; i < b.N; i++ {
		if _, err := Recall(context.Background(), Options{Root: root, Query: q, Settings: cfg.Settings()}); err != nil {
			b.Fatal(err)
		}
	}
}
