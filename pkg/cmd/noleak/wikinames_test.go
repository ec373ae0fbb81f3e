package noleak

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/rtch/rtch/pkg/cmd/guildrecall"
	"github.com/rtch/rtch/pkg/pgfts/pgtest"
)

// TestSecretWikiNamesStoredNowhere plants wiki pages whose names hold
// secrets (a GitHub token as a page name and so as its title, an AWS key id
// as a page name under a heading, an npm token as a directory) and runs
// guild-recall with each wiki index, the SQLite one under .guild/indexes
// and the PostgreSQL one outside the tree, twice (a build, then a refresh
// after a page changed). No piece of any name may reach an output, a file
// under .guild/ or any column of any table of the database; and each page
// is still recalled, under its redacted path, with its text.
func TestSecretWikiNamesStoredNowhere(t *testing.T) {
	names := gen{rand.New(rand.NewPCG(41, 5))}.names()
	pages := map[string]string{
		"wiki/concepts/" + names["github-pat"] + ".md": "---\ntype: concept\nimportance: 5\n---\n" +
			"The quota ledger reconciles every tenant's spend nightly.\n",
		"wiki/decisions/" + names["aws-access-token"] + ".md": "---\ntype: decision\nimportance: 5\n---\n" +
			"# Quota ledger in postgres\n\nThe quota ledger lives in postgres, one row per tenant.\n",
		"wiki/sources/" + names["npm-access-token"] + "/quota.md": "---\ntype: source\nimportance: 5\n---\n" +
			"# Quota export\n\nThe quota ledger is exported to billing hourly.\n",
	}
	shown := map[string]string{"github-pat": "reconciles every tenant", "aws-access-token": "one row per tenant",
		"npm-access-token": "exported to billing hourly"}
	for backend, cfg := range wikiBackends() {
		t.Run(backend, func(t *testing.T) {
			dir, dsn := wikiProject(t, pages, backend, cfg)
			var out bytes.Buffer
			for pass := range 2 {
				if pass == 1 { // a changed page is indexed again
					p := "wiki/concepts/" + names["github-pat"] + ".md"
					if err := os.WriteFile(p, []byte(pages[p]+"Disputes reopen the quota ledger.\n"), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				rec := run(t, &out, guildrecall.Tool(), nil, "--query", "where is the quota ledger kept", "--index-stats", "--json")
				for rule, text := range shown {
					if !bytes.Contains(rec, []byte("[REDACTED:"+rule+"]")) || !bytes.Contains(rec, []byte(text)) {
						t.Errorf("pass %d: the page named by a %s is not recalled with its text:\n%s", pass, rule, rec)
					}
				}
			}
			if !bytes.Contains(out.Bytes(), []byte("guild-recall: index .: 38 pages, 1 reindexed")) {
				t.Fatalf("guild-recall did not refresh the %s index:\n%s", backend, out.Bytes())
			}
			stored := everythingStored(t, out.Bytes(), dir, dsn)
			lower := bytes.ToLower(stored)
			for rule, name := range names {
				if bytes.Contains(lower, []byte(strings.ToLower(name[4:20]))) || bytes.Contains(lower, []byte(strings.ToLower(name[len(name)-16:]))) {
					t.Errorf("the %s in a page name reaches an output or a stored byte", rule)
				}
			}
			if t.Failed() {
				os.WriteFile(filepath.Join(os.TempDir(), "noleak-wiki-names-"+backend+".txt"), stored, 0o644)
			}
		})
	}
}

// wikiBackends are the wiki index backends a test runs on, each with the
// lines of .guild/config.toml that choose it: SQLite, and PostgreSQL when
// a test server is given.
func wikiBackends() map[string]string {
	backends := map[string]string{"sqlite": "mechanism = \"sqlite\"\n"}
	if os.Getenv(pgtest.EnvDSN) != "" {
		backends["postgres"] = "backend = \"postgres\"\nmechanism = \"postgres\"\n"
	}
	return backends
}

// wikiProject writes pages into a new project whose config chooses the
// backend (cfg), makes it the working directory, and returns it with the
// PostgreSQL DSN ("" for SQLite).
func wikiProject(t *testing.T, pages map[string]string, backend, cfg string) (dir, dsn string) {
	t.Helper()
	dir = projectDir(t)
	if err := writeFiles(dir, pages); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dir, ".guild/config.toml")
	data, err := os.ReadFile(conf)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(conf, []byte(strings.Replace(string(data), "wiki_file_threshold = 500\n", cfg, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if backend == "postgres" {
		dsn = pgtest.DSN(t)
		t.Setenv("DATABASE_URL", dsn)
	}
	t.Chdir(dir)
	return dir, dsn
}

// everythingStored is what the tools printed (out), every file under the
// project's .guild and, with a DSN, every row of the database; without
// one, the SQLite index must have been written.
func everythingStored(t *testing.T, out []byte, dir, dsn string) []byte {
	t.Helper()
	stored := append(out, storedUnder(t, filepath.Join(dir, ".guild"))...)
	if dsn != "" {
		stored = append(stored, tableRows(t, dsn)...)
	} else if !bytes.Contains(stored, []byte("== file "+filepath.Join(dir, ".guild/indexes/wiki.sqlite"))) {
		t.Fatal("no wiki.sqlite was written")
	}
	return stored
}

// storedUnder is every file under dir, each after a "== file PATH" line.
func storedUnder(t *testing.T, dir string) []byte {
	t.Helper()
	var b []byte
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		b = append(append(b, "== file "+p+"\n"...), data...)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// tableRows is every row of every table of the database, each spelt as
// PostgreSQL's text form of the whole row (every column, tsvectors and
// arrays included).
func tableRows(t *testing.T, dsn string) []byte {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT quote_ident(table_name) FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	var b []byte
	for _, table := range tables {
		rows, err := conn.Query(ctx, fmt.Sprintf(`SELECT r::text FROM %s r`, table))
		if err != nil {
			t.Fatal(err)
		}
		texts, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		b = append(b, "== table "+table+"\n"...)
		b = append(b, strings.Join(texts, "\n")...)
	}
	if !bytes.Contains(b, []byte("== table guild_pages\n")) {
		t.Fatal("the database holds no guild_pages table")
	}
	return b
}
