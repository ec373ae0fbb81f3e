//go:build linux

package hugeheap

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReserveFallsBack points reserve at kernel settings other than this
// machine's: a kernel without transparent huge pages (no file), one that
// gives them to every mapping or to none, and one with strict overcommit
// must all get no reservation, so that Prepare changes nothing there; the
// madvise mode with the default overcommit gets one.
func TestReserveFallsBack(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	madvise := write("madvise", "always [madvise] never\n")
	heuristic := write("heuristic", "0\n")
	defer func(m, o string) { thpModeFile, overcommitFile = m, o }(thpModeFile, overcommitFile)
	for _, c := range []struct {
		name, mode, overcommit string
		want                   bool
	}{
		{"madvise mode, heuristic overcommit", madvise, heuristic, true},
		{"no transparent huge pages", filepath.Join(dir, "missing"), heuristic, false},
		{"always mode", write("always", "[always] madvise never\n"), heuristic, false},
		{"never mode", write("never", "always madvise [never]\n"), heuristic, false},
		{"strict overcommit", madvise, write("strict", "2\n"), false},
		{"no overcommit setting", madvise, filepath.Join(dir, "missing"), false},
	} {
		thpModeFile, overcommitFile = c.mode, c.overcommit
		if got := reserve(64 << 20); (got > 0) != c.want {
			t.Errorf("%s: reserve(64 MiB) = %d, want a reservation: %v", c.name, got, c.want)
		}
	}
	thpModeFile = filepath.Join(dir, "missing")
	Prepare(64 << 20) // must do nothing, and not fail, on such a kernel
}
