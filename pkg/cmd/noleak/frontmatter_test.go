package noleak

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/cmd/guildbundle"
	"github.com/rtch/rtch/pkg/cmd/guildrecall"
)

// frontmatterSecrets are tokens planted as frontmatter values and keys,
// one per place a value can go, by the place.
func (g gen) frontmatterSecrets() map[string]string {
	return map[string]string{
		"title":       "ghp_" + g.s(alnum, 36),
		"owner":       "glpat-" + g.s(alnum, 20),
		"source_refs": "xoxb-" + g.s("0123456789", 12) + "-" + g.s("0123456789", 13) + "-" + g.s(alnum, 24),
		"aliases":     "AKIA" + g.s(b32, 16),
		"aliases2":    "npm_" + g.s(alnum, 36),
		"created_at":  "sk_live_" + g.s(alnum, 24),
		"updated_at":  "ghp_" + g.s(alnum, 36),
		"expires_at":  "dop_v1_" + g.s(hex, 64),
		"supersedes":  "ghp_" + g.s(alnum, 36),
		"key":         "ghp_" + g.s(alnum, 36),
		"type":        "glpat-" + g.s(alnum, 20),
		"confidence":  "npm_" + g.s(alnum, 36),
		"sensitivity": "shpat_" + g.s(hex, 32),
		"importance":  "ghp_" + g.s(alnum, 36),
	}
}

// TestSecretFrontmatterStoredNowhere plants secrets in the values (and a
// key) of wiki page frontmatter: every field the parser keeps (title,
// owner, source_refs, aliases, the dates, supersedes), the fields it warns
// about (an unknown type, confidence, sensitivity), one that rejects the
// block (importance), and a key named by a token; and a page whose
// sensitivity is secret, which is never recalled and so must not be kept
// in any index either (its title, aliases and text). It runs guild-recall on
// the SQLite index and on the PostgreSQL one, a build and then a refresh
// after a page changed, then guild-bundle, and fails if any piece of any
// token reaches an output, a byte of a file under .guild/ (the index, the
// bundles), or the text of any row of any table of the database; the pages
// must still be recalled.
func TestSecretFrontmatterStoredNowhere(t *testing.T) {
	s := gen{rand.New(rand.NewPCG(7, 71))}.frontmatterSecrets()
	pages := map[string]string{
		"wiki/concepts/quota-ledger.md": fmt.Sprintf("---\ntype: concept\ntitle: %s\nowner: %s\nimportance: 5\n"+
			"source_refs: [%s]\naliases: [%s, %s]\ncreated_at: %s\nupdated_at: %s\nexpires_at: %s\n"+
			"supersedes: [wiki/concepts/%s.md]\n%s: yes\n---\n"+
			"# Quota ledger\n\nThe quota ledger reconciles every tenant's spend nightly.\n",
			s["title"], s["owner"], s["source_refs"], s["aliases"], s["aliases2"], s["created_at"], s["updated_at"],
			s["expires_at"], s["supersedes"], s["key"]),
		"wiki/concepts/quota-export.md": fmt.Sprintf("---\ntype: %s\nconfidence: %s\nsensitivity: %s\nimportance: 5\n---\n"+
			"# Quota export\n\nThe quota ledger is exported to billing hourly.\n", s["type"], s["confidence"], s["sensitivity"]),
		// Never recalled, so no index keeps its text, title or aliases.
		"wiki/concepts/quota-acquisition.md": "---\ntype: concept\ntitle: Quota buyout of Globexcorp\nsensitivity: secret\n" +
			"aliases: [Projectzanzibar]\n---\n# Quota ledger buyout\n\nThe board votes on the quota ledger buyout, code name Marmaladeword.\n",
		"wiki/concepts/quota-disputes.md": fmt.Sprintf("---\ntype: concept\nimportance: %s\n---\n"+
			"# Quota disputes\n\nDisputes reopen the quota ledger for one tenant.\n", s["importance"]),
	}
	shown := []string{"reconciles every tenant", "exported to billing hourly", "reopen the quota ledger"}
	for backend, cfg := range wikiBackends() {
		t.Run(backend, func(t *testing.T) {
			dir, dsn := wikiProject(t, pages, backend, cfg)
			var out bytes.Buffer
			for pass := range 2 {
				if pass == 1 { // a changed page is indexed again
					p := "wiki/concepts/quota-ledger.md"
					if err := os.WriteFile(p, []byte(pages[p]+"Refunds post to the quota ledger too.\n"), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				rec := run(t, &out, guildrecall.Tool(), nil, "--query", "quota ledger tenant", "--index-stats", "--json")
				for _, text := range shown {
					if !bytes.Contains(rec, []byte(text)) {
						t.Errorf("pass %d: no chunk with %q recalled:\n%s", pass, text, rec)
					}
				}
			}
			// guild-bundle reads the same pages, and recalls through the same index.
			run(t, &out, guildbundle.Tool(), []byte{}, "--plan", ".guild/plan/invoice-retries.md", "--all", "--run-id", "fm-run")
			if !bytes.Contains(out.Bytes(), []byte("1 reindexed")) {
				t.Fatalf("guild-recall did not refresh the %s index:\n%s", backend, out.Bytes())
			}
			stored := everythingStored(t, out.Bytes(), dir, dsn)
			if !bytes.Contains(stored, []byte("== file "+filepath.Join(dir, ".guild/context/fm-run")+"/")) {
				t.Fatal("guild-bundle wrote no bundle")
			}
			lower := bytes.ToLower(stored)
			for _, w := range []string{"globexcorp", "projectzanzibar", "marmaladeword", "buyout"} {
				if bytes.Contains(lower, []byte(w)) {
					t.Errorf("%q of a page whose sensitivity is secret reaches an output or a stored byte", w)
				}
			}
			for place, v := range s {
				// Terms are lowercased and split at "_" and "-": look for
				// a piece of the token's random tail, in lower case.
				tail := v[len(v)-16:]
				if bytes.Contains(lower, []byte(strings.ToLower(tail))) {
					t.Errorf("the secret in a page's frontmatter %s reaches an output or a stored byte", place)
				}
			}
			if t.Failed() {
				os.WriteFile(filepath.Join(os.TempDir(), "noleak-frontmatter-"+backend+".txt"), stored, 0o644)
			}
		})
	}
}
