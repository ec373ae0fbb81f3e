package recall

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rtch/rtch/pkg/guildconfig"
	"github.com/rtch/rtch/pkg/pgfts/pgtest"
)

// TestSupersedesPageNamedBySecret: a page whose file name is a token is
// superseded by a page that names it, by path or by slug, under every
// mechanism; the supersedes targets are redacted where the frontmatter is
// read (pkg/wiki), so the redacted spelling must still reach the page.
func TestSupersedesPageNamedBySecret(t *testing.T) {
	const tok = "ghp_q7VZbN3xR8tK2mW9pL4sD6fH1jC5yA0eU3iO"
	for _, target := range []string{"wiki/concepts/" + tok + ".md", tok} {
		for _, mech := range []string{"file-bm25", "fs-scan", "sqlite"} {
			t.Run(mech, func(t *testing.T) {
				root := t.TempDir()
				write(t, root, "wiki/concepts/"+tok+".md", []byte("# Old ledger\n\nThe quota ledger was kept in redis.\n"))
				write(t, root, "wiki/concepts/new-ledger.md", []byte("---\nsupersedes: ["+target+"]\n---\n# New ledger\n\nThe quota ledger lives in postgres.\n"))
				set := guildconfig.Defaults()
				set.Mechanism = mech
				res, err := Recall(context.Background(), Options{Root: root, Query: "quota ledger", Settings: set, Now: time.Unix(1795000000, 0), Tool: "test", RunID: "t"})
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Chunks) == 0 {
					t.Fatal("nothing recalled")
				}
				for _, c := range res.Chunks {
					if strings.Contains(c.Rendered, "redis") {
						t.Errorf("supersedes %s: the superseded page is recalled (%s)", target, c.SourcePath)
					}
				}
			})
		}
	}
}

// TestOperatorTextNotSuperseded: a harvested page (untrusted) that names
// the principles, the project overview and a reviewed standard in its
// supersedes list took them out of every recall; operator text is retired
// by editing it, so it stays. A decision superseding a decision still
// hides it.
func TestOperatorTextNotSuperseded(t *testing.T) {
	for _, mech := range []string{"file-bm25", "fs-scan", "sqlite"} {
		t.Run(mech, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, ".guild/principles.md", []byte("# Principles\n\nShip small reversible ledger changes.\n"))
			write(t, root, "wiki/context/project-overview.md", []byte("# Overview\n\nThe ledger service keeps reversible changes small.\n"))
			write(t, root, "wiki/standards/ledger-style.md", []byte("---\nreviewed: true\n---\n# Ledger style\n\nLedger changes are small and reversible.\n"))
			write(t, root, "wiki/decisions/old.md", []byte("---\ntype: decision\n---\n# Old ledger decision\n\nLedger changes ship weekly in one reversible batch.\n"))
			write(t, root, "wiki/decisions/new.md", []byte("---\ntype: decision\nsupersedes: [old]\n---\n# New ledger decision\n\nLedger changes ship daily, small and reversible.\n"))
			write(t, root, "wiki/sources/vendor.md", []byte("---\ntype: source\nharvested: true\nsupersedes: [principles, project-overview, wiki/standards/ledger-style.md]\n---\n# Vendor notes\n\nThe vendor asked about ledger exports.\n"))
			set := guildconfig.Defaults()
			set.Mechanism = mech
			res, err := Recall(context.Background(), Options{Root: root, Query: "small reversible ledger changes", Settings: set, Now: time.Unix(1795000000, 0), Tool: "test", RunID: "t"})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]bool{}
			for _, c := range res.Chunks {
				got[c.SourcePath] = true
			}
			for _, p := range []string{".guild/principles.md", "wiki/context/project-overview.md", "wiki/standards/ledger-style.md", "wiki/decisions/new.md"} {
				if !got[p] {
					t.Errorf("%s not recalled (chunks %v)", p, got)
				}
			}
			if got["wiki/decisions/old.md"] {
				t.Error("the superseded decision is recalled")
			}
		})
	}
}

// TestSupersedeNeedsTier: a page supersedes another only from at least the
// other's tier. A harvested page (untrusted) naming a trusted page left it
// out of every recall; now the trusted page stays, while a trusted page
// still retires a trusted and an untrusted one, and a target named by both
// an untrusted and a trusted page is retired. Every mechanism, both indexes.
func TestSupersedeNeedsTier(t *testing.T) {
	const trusted = "owner: reviewed\n"
	pages := map[string]string{
		"wiki/concepts/kept.md":       trusted + "---\n# Kept ledger\n\nThe quota ledger keeps a nightly snapshot.\n",
		"wiki/concepts/old-trust.md":  trusted + "---\n# Old trusted ledger\n\nThe quota ledger was kept in redis.\n",
		"wiki/concepts/old-loose.md":  "---\n# Old loose ledger\n\nThe quota ledger was kept in memcached.\n",
		"wiki/concepts/both.md":       trusted + "---\n# Both ledger\n\nThe quota ledger was kept in etcd.\n",
		"wiki/concepts/new-ledger.md": trusted + "supersedes: [old-trust, wiki/concepts/old-loose.md, both]\n---\n# New ledger\n\nThe quota ledger lives in postgres.\n",
		"wiki/sources/vendor.md":      "type: source\nharvested: true\nsupersedes: [kept, both, wiki/concepts/kept.md]\n---\n# Vendor notes\n\nThe vendor asked about the quota ledger.\n",
	}
	for mech, set := range backends(t) {
		t.Run(mech, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "ledgerly")
			for rel, text := range pages {
				write(t, root, rel, []byte("---\n"+text))
			}
			got := recalledPaths(t, root, "quota ledger", set, mech)
			for _, p := range []string{"wiki/concepts/kept.md", "wiki/concepts/new-ledger.md", "wiki/sources/vendor.md"} {
				if !got[p] {
					t.Errorf("%s not recalled (chunks %v)", p, got)
				}
			}
			for _, p := range []string{"wiki/concepts/old-trust.md", "wiki/concepts/old-loose.md", "wiki/concepts/both.md"} {
				if got[p] {
					t.Errorf("the superseded %s is recalled", p)
				}
			}
		})
	}
}

// backends are the wiki mechanisms by name: the two in-memory ones, the
// SQLite index, and the PostgreSQL index when a test server is set.
func backends(t *testing.T) map[string]guildconfig.Settings {
	sets := map[string]guildconfig.Settings{}
	for _, m := range []string{SourceFileBM25, SourceFSScan, SourceSQLite} {
		set := guildconfig.Defaults()
		set.Mechanism = m
		sets[m] = set
	}
	if os.Getenv(pgtest.EnvDSN) != "" {
		set := guildconfig.Defaults()
		set.Backend, set.DSN = SourcePostgres, pgtest.DSN(t)
		set.WikiFileThreshold = 1
		sets[SourcePostgres] = set
	}
	return sets
}

// recalledPaths recalls q and returns the source paths of its chunks,
// checking that an index mechanism used its index.
func recalledPaths(t *testing.T, root, q string, set guildconfig.Settings, mech string) map[string]bool {
	t.Helper()
	res, err := Recall(context.Background(), Options{Root: root, Query: q, Settings: set, Now: time.Unix(1795000000, 0), Tool: "test", RunID: "t"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := res.Index["."]; ok != (mech == SourceSQLite || mech == SourcePostgres) {
		t.Fatalf("%s: index used %v (source %s)", mech, ok, res.Source)
	}
	got := map[string]bool{}
	for _, c := range res.Chunks {
		got[c.SourcePath] = true
	}
	return got
}

// TestOperatorSupersedes: operator text retires a trusted page (its tier
// is above), but not other operator text: a reviewed standard naming the
// principles in supersedes leaves them in every recall.
func TestOperatorSupersedes(t *testing.T) {
	for mech, set := range backends(t) {
		t.Run(mech, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "ledgerly")
			write(t, root, ".guild/principles.md", []byte("# Principles\n\nLedger changes are small and reversible.\n"))
			write(t, root, "wiki/concepts/old-style.md", []byte("---\nowner: reviewed\n---\n# Old ledger style\n\nLedger changes were large and reversible.\n"))
			write(t, root, "wiki/standards/ledger-style.md", []byte("---\nreviewed: true\nsupersedes: [principles, old-style]\n---\n# Ledger style\n\nLedger changes are small, reversible and reviewed.\n"))
			got := recalledPaths(t, root, "ledger changes reversible", set, mech)
			if !got[".guild/principles.md"] || !got["wiki/standards/ledger-style.md"] {
				t.Errorf("operator text not recalled (chunks %v)", got)
			}
			if got["wiki/concepts/old-style.md"] {
				t.Error("the trusted page an operator standard supersedes is recalled")
			}
		})
	}
}
