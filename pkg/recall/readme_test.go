package recall

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rtch/rtch/pkg/guildconfig"
	"github.com/rtch/rtch/pkg/pgfts/pgtest"
)

// The README's example question is answered by the page that answers it,
// on every wiki mechanism: "retries" meets "retry" and "back off" meets
// "backoff" in the one tokenizer every backend shares.
func TestReadmeExampleFirst(t *testing.T) {
	root := filepath.Join(t.TempDir(), "ledgerly")
	if err := os.CopyFS(root, os.DirFS(fixture)); err != nil {
		t.Fatal(err)
	}
	const q, want = "how do invoice retries back off", "wiki/concepts/retry-policy.md"
	sets := map[string]guildconfig.Settings{}
	for _, m := range []string{SourceFileBM25, SourceSQLite, SourceFSScan} {
		set := guildconfig.Defaults()
		set.Mechanism = m
		sets[m] = set
	}
	if dsn := os.Getenv(pgtest.EnvDSN); dsn != "" {
		set := guildconfig.Defaults()
		set.Backend, set.DSN = SourcePostgres, pgtest.DSN(t)
		set.WikiFileThreshold = 2
		sets[SourcePostgres] = set
	}
	for m, set := range sets {
		res, err := Recall(context.Background(), Options{Root: root, Query: q, Limit: 5, Settings: set, Tool: "test"})
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		if _, indexed := res.Index["."]; indexed != (m == SourceSQLite || m == SourcePostgres) {
			t.Errorf("%s: index used %v", m, indexed)
		}
		if len(res.Chunks) == 0 || res.Chunks[0].SourcePath != want {
			var got []string
			for _, c := range res.Chunks {
				got = append(got, c.SourcePath)
			}
			t.Errorf("%s: %q, want %s first", m, got, want)
		}
	}
}
