package rtchmcp

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLanesHandTheIndexPagesBack: between calls the server holds the index
// mapped but none of its pages resident (the index's size does not become
// the server's); a call reads them again and answers as before.
func TestLanesHandTheIndexPagesBack(t *testing.T) {
	ixDir := filepath.Join(t.TempDir(), "index")
	h := hotHandler(t, repo(t), Hot{IndexDir: ixDir, NoMemo: true})
	ask := func() string {
		t.Helper()
		res, _, err := h.context(context.Background(), nil, ContextInput{Goal: hotGoal, Enough: hotEnough, Format: "json"})
		if err != nil || res.IsError {
			t.Fatalf("rtch_context: %v %s", err, textOf(res))
		}
		return textOf(res)
	}
	first := ask()
	mapped, resident := indexMapping(t, filepath.Join(ixDir, "index"))
	if mapped == 0 {
		t.Fatal("the server does not hold the index mapped between calls")
	}
	if resident != 0 {
		t.Fatalf("%d of the index's %d kB stay resident between calls", resident, mapped)
	}
	if ask() != first {
		t.Fatal("a call after the pages went back answers otherwise")
	}
}

// indexMapping is the size and resident size (kB) of the process's
// mappings of file, from /proc/self/smaps.
func indexMapping(t *testing.T, file string) (size, rss int) {
	b, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	in := false
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) >= 5 && strings.Contains(f[0], "-") && !strings.HasSuffix(f[0], ":"):
			in = len(f) >= 6 && f[len(f)-1] == file
		case in && len(f) == 3 && (f[0] == "Size:" || f[0] == "Rss:"):
			n, _ := strconv.Atoi(f[1])
			if f[0] == "Size:" {
				size += n
			} else {
				rss += n
			}
		}
	}
	return size, rss
}
