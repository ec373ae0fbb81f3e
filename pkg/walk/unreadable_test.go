//go:build linux

package walk

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestUnreadable (W17): a mode-000 directory and file give a warning
// naming the path, a skip, and the rest of the walk goes on. Root ignores
// mode bits, so under uid 0 the walk runs in a copy of this test binary
// started as nobody (uid 65534); the test skips only when that is
// impossible.
func TestUnreadable(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"noperm_dir/f.md": "x\n", "noperm_file.md": "x\n", "ok.md": "ok\n"})
	if err := os.Chmod(filepath.Join(dir, "noperm_dir"), 0); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, "noperm_file.md"), 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(dir, "noperm_dir"), 0o755) })

	var out string
	if os.Geteuid() != 0 {
		var sb strings.Builder
		unreadableReport(&sb, dir)
		out = sb.String()
	} else {
		out = runAsNobody(t, dir)
	}
	for _, want := range []string{
		"SKIP noperm_dir unreadable permission denied",
		"SKIP noperm_file.md unreadable permission denied",
		"WARN noperm_dir: unreadable, skipped: permission denied",
		"WARN noperm_file.md: unreadable, skipped: permission denied",
		"TEXT ok.md",
		"ROOT noperm_dir: ERROR walk: cannot list the root: open " + filepath.Join(dir, "noperm_dir") + ": permission denied",
	} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
}

// unreadableReport walks dir and prints what happened, one line each.
func unreadableReport(w io.Writer, dir string) {
	o := Options{Root: dir, Warn: func(f string, a ...any) { fmt.Fprintf(w, "WARN "+f+"\n", a...) }}
	skip := func(s Skip) { fmt.Fprintf(w, "SKIP %s %s %s\n", s.Path, s.Reason, s.Detail) }
	files, err := Files(context.Background(), o, skip)
	if err != nil {
		fmt.Fprintf(w, "ERROR %v\n", err)
		return
	}
	err = Each(context.Background(), o, files, func(f File, b []byte) error {
		fmt.Fprintf(w, "TEXT %s\n", f.Path)
		return nil
	}, skip)
	if err != nil {
		fmt.Fprintf(w, "ERROR %v\n", err)
	}
	// A root that cannot be listed is an error, not an empty tree.
	_, err = Files(context.Background(), Options{Root: filepath.Join(dir, "noperm_dir")}, nil)
	fmt.Fprintf(w, "ROOT noperm_dir: ERROR %v\n", err)
}

// TestUnreadableHelper is the body of TestUnreadable when it runs as
// another user; it does nothing unless WALK_UNREADABLE_DIR is set.
func TestUnreadableHelper(t *testing.T) {
	dir := os.Getenv("WALK_UNREADABLE_DIR")
	if dir == "" {
		t.Skip("helper process for TestUnreadable")
	}
	w := bufio.NewWriter(os.Stdout)
	unreadableReport(w, dir)
	w.Flush()
}

func runAsNobody(t *testing.T, dir string) string {
	exe, err := os.Executable()
	if err != nil {
		t.Skipf("cannot find the test binary: %v", err)
	}
	// nobody must be able to reach the tree and run a copy of the binary.
	for d := dir; d != filepath.Dir(d) && strings.HasPrefix(d, os.TempDir()) && d != os.TempDir(); d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "..", "walk.test")
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Skipf("cannot copy the test binary: %v", err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^TestUnreadableHelper$", "-test.v=false")
	cmd.Dir = dir
	// nobody cannot write coverage data where the parent would.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOCOVERDIR=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "WALK_UNREADABLE_DIR="+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("helper as nobody: %v\n%s\n%s", err, out, ee.Stderr)
		}
		t.Skipf("cannot run as nobody: %v", err)
	}
	return string(out)
}
