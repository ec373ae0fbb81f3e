//go:build unix

package statmode

import (
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestTypeMatchesLstat checks Type against os.Lstat's own conversion for
// every file type a test can create without privileges.
func TestTypeMatchesLstat(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "f")
	if err := os.WriteFile(reg, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "l")
	if err := os.Symlink("f", link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "p")
	if err := unix.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	paths := []string{reg, dir, link, fifo, "/dev/null"}
	// A socket path must stay short; skip the socket if the temp dir is too deep.
	if sock := filepath.Join(dir, "s"); len(sock) < 100 {
		l, err := net.Listen("unix", sock)
		if err == nil {
			defer l.Close()
			paths = append(paths, sock)
		}
	}
	for _, p := range paths {
		var st unix.Stat_t
		if err := unix.Lstat(p, &st); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := Type(uint32(st.Mode)), fi.Mode().Type(); got != want {
			t.Errorf("%s: Type = %v, os.Lstat says %v", p, got, want)
		}
	}
	if got := Type(0); got != fs.ModeIrregular {
		t.Errorf("Type(0) = %v, want irregular", got)
	}
}
