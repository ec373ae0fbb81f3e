package guildrecall

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/rtch/rtch/pkg/pgfts/pgtest"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"guild-recall": func() { os.Exit(Main()) },
	})
}

// fixture is the realistic project every script gets a fresh copy of, as
// $WORK/ledgerly.
const fixture = "../../../testdata/fixtures/wiki-project"

const scripts = "../../../testdata/script/guild-recall"

// indexStories are the stories of scripts that reach the persistent index;
// TestScriptsPostgres runs them again against the postgres backend.
var indexStories = []string{"sqlite.txtar", "incremental.txtar", "concurrent.txtar", "workspace.txtar", "skipped.txtar"}

func TestScripts(t *testing.T) {
	testscript.Run(t, params(t, "sqlite", testscript.Params{Dir: scripts}))
}

// TestScriptsPostgres runs the index stories, and the postgres-only ones,
// against a real server: each script gets a database of its own, named by
// DATABASE_URL, and usebackend switches its configuration to postgres.
func TestScriptsPostgres(t *testing.T) {
	admin := pgtest.Admin(t)
	var files []string
	for _, f := range indexStories {
		files = append(files, filepath.Join(scripts, f))
	}
	more, err := filepath.Glob(scripts + "-postgres/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	p := testscript.Params{Files: append(files, more...)}
	p.Setup = func(env *testscript.Env) error {
		dsn, drop, err := pgtest.NewDatabase(context.Background(), admin)
		if err != nil {
			return err
		}
		env.Defer(drop)
		env.Setenv("DATABASE_URL", dsn)
		bad, err := pgtest.PasswordRole(context.Background(), admin, dsn, "wrong-pass-4711")
		if err != nil {
			return err
		}
		env.Setenv("BAD_PASSWORD_DSN", bad)
		return nil
	}
	testscript.Run(t, params(t, "postgres", p))
}

// params completes p for a run of the stories against backend: the fixture,
// a pinned clock, $BACKEND, the [sqlite] and [postgres] conditions and the
// usebackend command.
func params(t *testing.T, backend string, p testscript.Params) testscript.Params {
	src, err := filepath.Abs(fixture)
	if err != nil {
		t.Fatal(err)
	}
	setup := p.Setup
	p.RequireExplicitExec = true
	p.UpdateScripts = os.Getenv("UPDATE_SCRIPTS") != ""
	p.Setup = func(env *testscript.Env) error {
		env.Setenv("SOURCE_DATE_EPOCH", "1795000000") // 2026-11-18
		env.Setenv("BACKEND", backend)
		if setup != nil {
			if err := setup(env); err != nil {
				return err
			}
		}
		return os.CopyFS(filepath.Join(env.WorkDir, "ledgerly"), os.DirFS(src))
	}
	p.Condition = func(cond string) (bool, error) {
		switch cond {
		case "sqlite", "postgres":
			return cond == backend, nil
		}
		return false, fmt.Errorf("unknown condition %q", cond)
	}
	p.Cmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"usebackend": func(ts *testscript.TestScript, neg bool, args []string) {
			if neg || len(args) != 1 {
				ts.Fatalf("usage: usebackend CONFIG")
			}
			if backend == "sqlite" {
				return
			}
			path := ts.MkAbs(args[0])
			data, err := os.ReadFile(path)
			ts.Check(err)
			ts.Check(os.WriteFile(path, []byte(toPostgres(string(data))), 0o644))
		},
	}
	return p
}

// toPostgres rewrites a .guild/config.toml for the postgres backend: the
// index table gets backend = "postgres" and a forced sqlite mechanism
// becomes a forced postgres one. The DSN comes from DATABASE_URL.
func toPostgres(cfg string) string {
	cfg = strings.ReplaceAll(cfg, `mechanism = "sqlite"`, `mechanism = "postgres"`)
	if strings.Contains(cfg, "[index]\n") {
		return strings.Replace(cfg, "[index]\n", "[index]\nbackend = \"postgres\"\n", 1)
	}
	return cfg + "\n[index]\nbackend = \"postgres\"\n"
}
