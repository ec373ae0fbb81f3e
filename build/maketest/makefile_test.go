// Package maketest checks the Makefile's handling of the shared evaluation
// data: where EVALDATA points by default, and what make eval says when the
// data is not there.
package maketest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// checkout copies the repository's Makefile into dir (made if absent), a
// stand-in for a checkout: the targets tested never reach the sources.
func checkout(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Makefile"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runMake runs make in dir with args and returns its exit code and output.
func runMake(t *testing.T, dir string, args ...string) (int, string) {
	t.Helper()
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make on this machine")
	}
	cmd := exec.Command("make", append([]string{"--no-print-directory", "-C", dir}, args...)...)
	// EVALDATA in the environment would override the default under test,
	// and the flags of a make that runs go test would reach this one.
	for _, e := range os.Environ() {
		if k, _, _ := strings.Cut(e, "="); k != "EVALDATA" && k != "MAKEFLAGS" && k != "MFLAGS" && k != "MAKELEVEL" {
			cmd.Env = append(cmd.Env, e)
		}
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, out.String()
}

// sharedAbove reports a shared/eval directory in dir or above it.
func sharedAbove(dir string) bool {
	for {
		if st, err := os.Stat(filepath.Join(dir, "shared", "eval")); err == nil && st.IsDir() {
			return true
		}
		p := filepath.Dir(dir)
		if p == dir {
			return false
		}
		dir = p
	}
}

const printEvalData = "print-evaldata: ; @echo '$(EVALDATA)'"

// TestEvalDataFoundAbove: from a worktree two levels below the directory
// holding shared/eval (as /work/wt/NAME is below /work), EVALDATA is that
// shared/eval, and from a clone beside it too.
func TestEvalDataFoundAbove(t *testing.T) {
	root := t.TempDir()
	if sharedAbove(filepath.Dir(root)) {
		t.Skip("a shared/eval directory above the temporary directory")
	}
	shared := filepath.Join(root, "shared", "eval")
	if err := os.MkdirAll(shared, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{filepath.Join(root, "wt", "trust"), filepath.Join(root, "main")} {
		code, out := runMake(t, checkout(t, dir), "--eval", printEvalData, "print-evaldata")
		if code != 0 || strings.TrimSpace(out) != shared {
			t.Errorf("from %s: EVALDATA is %q (exit %d), want %s", dir, strings.TrimSpace(out), code, shared)
		}
	}
	// EVALDATA=DIR still wins.
	code, out := runMake(t, filepath.Join(root, "main"), "--eval", printEvalData, "print-evaldata", "EVALDATA=/elsewhere")
	if code != 0 || strings.TrimSpace(out) != "/elsewhere" {
		t.Errorf("EVALDATA=/elsewhere: %q (exit %d)", out, code)
	}
}

// TestEvalNamesMissingData: make eval without the data stops before
// building anything (GO=false would fail the build), exit 2, with a message
// naming the directory it looked in or the one EVALDATA names, or the
// missing file.
func TestEvalNamesMissingData(t *testing.T) {
	root := t.TempDir()
	if sharedAbove(filepath.Dir(root)) {
		t.Skip("a shared/eval directory above the temporary directory")
	}
	repo := checkout(t, filepath.Join(root, "repo"))
	partial := filepath.Join(root, "partial")
	if err := os.MkdirAll(partial, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(partial, "go-commits.jsonl"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "make eval: no shared/eval directory in " + repo + " or above it"},
		{[]string{"EVALDATA=" + filepath.Join(root, "nope")}, "make eval: EVALDATA=" + filepath.Join(root, "nope") + ": no such directory"},
		{[]string{"EVALDATA=" + partial}, "make eval: EVALDATA=" + partial + ": no swebench-verified-dev.jsonl in it"},
	} {
		code, out := runMake(t, repo, append([]string{"eval", "GO=false"}, c.args...)...)
		if code != 2 || !strings.Contains(out, c.want) {
			t.Errorf("make eval %s: exit %d, output\n%s\nwant exit 2 and %q", strings.Join(c.args, " "), code, out, c.want)
		}
		if strings.Contains(out, "false") {
			t.Errorf("make eval %s ran a command before checking the data:\n%s", strings.Join(c.args, " "), out)
		}
	}
}
