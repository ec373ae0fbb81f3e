package walk

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestPathTooLong (W19): below a depth whose path exceeds PATH_MAX the
// walk reports the directory it cannot open (ENAMETOOLONG) and goes on.
func TestPathTooLong(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"top.md": "x"})
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	name := strings.Repeat("d", 200)
	depth := 0
	for ; len(dir)+depth*(len(name)+1) < 5000; depth++ {
		if err := unix.Mkdirat(fd, name, 0o755); err != nil {
			t.Fatal(err)
		}
		next, err := unix.Openat(fd, name, unix.O_RDONLY|unix.O_DIRECTORY, 0)
		unix.Close(fd)
		if err != nil {
			t.Fatal(err)
		}
		fd = next
	}
	unix.Close(fd)
	var skips []Skip
	var warns []string
	files, err := Files(context.Background(), Options{Root: dir, Warn: func(f string, a ...any) { warns = append(warns, sprintf(f, a...)) }},
		func(s Skip) { skips = append(skips, s) })
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].Path != "top.md" {
		t.Errorf("files %v", paths(files))
	}
	if len(skips) != 1 || skips[0].Reason != ReasonUnreadable || !strings.Contains(skips[0].Detail, "file name too long") ||
		len(filepath.Join(dir, skips[0].Path)) <= unix.PathMax-1 {
		t.Errorf("skips %+v", skips)
	}
	if len(warns) != 1 {
		t.Errorf("warnings %q", warns)
	}
}
