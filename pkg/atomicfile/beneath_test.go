//go:build unix

package atomicfile

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A symlink that leads out of the root fails the write; nothing is created
// on either side of it.
func TestWriteBeneathRefusesEscapingSymlink(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "audit-logs")); err != nil {
		t.Fatal(err)
	}
	err := WriteBeneath(root, "audit-logs/rtch/packets/p.yaml", []byte("x"), 0o644)
	if !errors.Is(err, ErrEscapes) {
		t.Fatalf("err = %v, want ErrEscapes", err)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Fatalf("written outside the root: %v", ents)
	}
	// The same through -o's relative path.
	t.Chdir(root)
	if _, err := Create("audit-logs/out.ndjson", 0o644); !errors.Is(err, ErrEscapes) {
		t.Fatalf("Create through the link: %v", err)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Fatalf("written outside the root: %v", ents)
	}
}

// A symlink that stays inside the root is refused too (a write never
// follows one); missing directories are created.
func TestWriteBeneathRefusesInnerSymlink(t *testing.T) {
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, "logs"), 0o755)
	os.Symlink("logs", filepath.Join(root, "audit-logs"))
	if err := WriteBeneath(root, "audit-logs/rtch/packets/p.yaml", []byte("x"), 0o644); !errors.Is(err, ErrSymlink) {
		t.Fatalf("through an inner link: %v, want ErrSymlink", err)
	}
	if ents, _ := os.ReadDir(filepath.Join(root, "logs")); len(ents) != 0 {
		t.Fatalf("written through the link: %v", ents)
	}
	if err := WriteBeneath(root, "logs/rtch/packets/p.yaml", []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(root, "logs/rtch/packets/p.yaml")); err != nil || string(b) != "x" {
		t.Fatalf("%q %v", b, err)
	}
	if err := WriteBeneath(root, "../x", []byte("x"), 0o644); !errors.Is(err, ErrEscapes) {
		t.Fatalf("../x: %v", err)
	}
}

// A process killed mid-write leaves its temporary; the next write in the
// same directory removes it, whatever file that write is of (a packet is
// never written twice), and leaves a live writer's temporary alone.
func TestStaleTemporaryOfKilledWriterRemoved(t *testing.T) {
	if os.Getenv("ATOMICFILE_HELPER") != "" {
		return
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "out.ndjson")
	start := func() *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperHalfWrite$")
		cmd.Env = append(os.Environ(), "ATOMICFILE_HELPER="+target)
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if line, _ := bufio.NewReader(out).ReadString('\n'); !strings.Contains(line, "ready") {
			t.Fatalf("helper said %q", line)
		}
		return cmd
	}
	live := start()
	defer func() { live.Process.Kill(); live.Wait() }()
	killed := start()
	killed.Process.Signal(syscall.SIGKILL)
	killed.Wait()
	if n := temps(t, dir); n != 2 {
		t.Fatalf("%d temporaries before the next run, want 2", n)
	}
	if err := WriteFile(filepath.Join(dir, "another.yaml"), []byte("whole\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := temps(t, dir); n != 1 {
		t.Fatalf("%d temporaries after the next run, want 1 (the live writer's)", n)
	}
}

// TestHelperHalfWrite is the writer the test above kills: it starts a
// write, says so, and waits.
func TestHelperHalfWrite(t *testing.T) {
	target := os.Getenv("ATOMICFILE_HELPER")
	if target == "" {
		t.Skip("helper process only")
	}
	p, err := Create(target, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	p.Write([]byte("half"))
	os.Stdout.WriteString("ready\n")
	select {}
}

func temps(t *testing.T, dir string) int {
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".rtchtmp") {
			n++
		}
	}
	return n
}
