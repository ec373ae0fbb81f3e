package guildbundle

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rtch/rtch/pkg/cli"
)

// TestInvocationDirIsTheWorkingDirectory: run in-process with the
// invocation's Dir inside a project and no --cwd, guild-bundle finds the
// project root by walking up from Dir, as the other tools find their zone,
// not from the process's working directory, and writes the bundles there;
// --lead does the same.
func TestInvocationDirIsTheWorkingDirectory(t *testing.T) {
	project := t.TempDir()
	if err := os.CopyFS(project, os.DirFS("../../../testdata/fixtures/wiki-project")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir()) // the process's working directory holds no project
	plan := filepath.Join(project, ".guild/plan/invoice-retries.md")
	for _, args := range [][]string{{"--plan", plan, "--all", "--run-id", "r1"}, {"--lead", "--plan", plan, "--run-id", "r1"}} {
		var stdout, stderr bytes.Buffer
		res := cli.Exec(context.Background(), Tool(), cli.Invocation{Args: args, Dir: filepath.Join(project, "wiki", "concepts"),
			Stdin: bytes.NewReader(nil), Stdout: &stdout, Stderr: &stderr})
		if res.Code != 0 {
			t.Fatalf("guild-bundle %q: exit %d: %s", args, res.Code, stderr.Bytes())
		}
	}
	for _, want := range []string{"lead.md"} {
		if _, err := os.Stat(filepath.Join(project, ".guild/context/r1", want)); err != nil {
			t.Error(err)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(project, ".guild/context/r1/*-*.md")); len(m) == 0 {
		t.Error("no lane bundle under the project's .guild/context/r1/")
	}
}
