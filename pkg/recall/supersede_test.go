package recall

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rtch/rtch/pkg/guildconfig"
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
