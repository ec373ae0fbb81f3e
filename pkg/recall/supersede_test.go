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
