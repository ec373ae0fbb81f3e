package guildrecall

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/cli"
	"github.com/rtch/rtch/pkg/internal/testtree"
	"github.com/rtch/rtch/pkg/pgfts/pgtest"
)

// TestWikiNameOfAnotherTree: two repositories in directories both called
// app use the default wiki name on one PostgreSQL server. The second
// one's recall used to overwrite the first's pages; now it exits 2 with an
// error naming the wiki and both trees and a hint naming index.wiki and
// --claim-wiki, and --claim-wiki takes the name over.
func TestWikiNameOfAnotherTree(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dsn := pgtest.DSN(t)
	base := t.TempDir()
	var roots []string
	for _, team := range []string{"alpha", "bravo"} {
		root := filepath.Join(base, team, "app")
		files := map[string]string{
			"wiki/concepts/ledger.md": "# Ledger\n\nthe quota ledger of team " + team + "\n",
			".guild/config.toml":      "[index]\nbackend = \"postgres\"\ndsn = \"" + dsn + "\"\nwiki_file_threshold = 1\n",
		}
		for rel, text := range files {
			testtree.Write(t, root, rel, text)
		}
		for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-q", "-m", "first"}} {
			testtree.Git(t, root, args...)
		}
		roots = append(roots, root)
	}
	run := func(root string, extra ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		args := append([]string{"--cwd", root, "--query", "quota ledger team"}, extra...)
		res := cli.Exec(context.Background(), Tool(), cli.Invocation{Args: args, Stdout: &stdout, Stderr: &stderr})
		return res.Code, stdout.String(), stderr.String()
	}
	if code, _, stderr := run(roots[0]); code != 0 {
		t.Fatalf("first tree: exit %d\n%s", code, stderr)
	}
	code, stdout, stderr := run(roots[1])
	if code != 2 || stdout != "" {
		t.Fatalf("second tree: exit %d, stdout %q, want 2 and nothing", code, stdout)
	}
	for _, want := range []string{`guild-recall: error: postgres `, `wiki "app" belongs to the tree git:`, `not to this one (git:`, "guild-recall: hint: ", "index.wiki", "--claim-wiki"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if code, stdout, stderr := run(roots[1], "--claim-wiki"); code != 0 || !strings.Contains(stdout, "bravo") || strings.Contains(stdout, "alpha") {
		t.Fatalf("--claim-wiki: exit %d\n%s\n%s", code, stdout, stderr)
	}
}
