package rtchmcp

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// resolveExisting resolves links as the kernel would, up to the first
// component that does not exist.
func TestResolveExisting(t *testing.T) {
	root := mustReal(t, t.TempDir())
	for _, d := range []string{"a/b", "out"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(root, "a/b/f.go"), nil, 0o644)
	for link, target := range map[string]string{
		"a/up":    "..",           // relative, with ..
		"a/abs":   root + "/out",  // absolute
		"a/chain": "up/a/b",       // a link through a link
		"a/loop":  "loop",         // itself
		"a/gone":  "nothing/here", // dangling
		"a/file":  "b/f.go",       // to a file
		"a/dotty": "./b/../b/./",  // dots in the target
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ path, want, err string }{
		{"a/b/f.go", "a/b/f.go", ""},
		{"a/b/new/deeper.go", "a/b/new/deeper.go", ""},
		{"a/up/out/x", "out/x", ""},
		{"a/abs/x/y", "out/x/y", ""},
		{"a/chain/f.go", "a/b/f.go", ""},
		{"a/chain/new.go", "a/b/new.go", ""},
		{"a/dotty/f.go", "a/b/f.go", ""},
		{"a/file", "a/b/f.go", ""},
		{"a/loop/x", "", "more than 255 symbolic links"},
		{"a/gone/x", "", "goes through the dangling symbolic link " + root + "/a/gone (to nothing/here)"},
		{"a/b/f.go/x", "", "not a directory"},
	} {
		got, err := resolveExisting(context.Background(), filepath.Join(root, c.path))
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: %q %v, want error %q", c.path, got, err, c.err)
		case c.err == "" && (err != nil || got != filepath.Join(root, c.want)):
			t.Errorf("%s: %q %v, want %s", c.path, got, err, c.want)
		}
	}
}

// A deep path costs one lstat per component that exists, and one for the
// first that does not: linear in the path, not quadratic.
func TestConfineStatsEachComponentOnce(t *testing.T) {
	r, err := NewRoot(repo(t))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	lstat = func(p string) (fs.FileInfo, error) { n++; return os.Lstat(p) }
	defer func() { lstat = os.Lstat }()
	deep := "stream/" + strings.Repeat("a/", 20000) + "x.go"
	if _, _, err := r.Confine(context.Background(), "range", deep); err != nil {
		t.Fatal(err)
	}
	if want := strings.Count(r.Dir, "/") + 2; n != want {
		t.Fatalf("%d lstat calls for a path of 20,000 levels, want %d", n, want)
	}
}

// A cancelled call stops its path check.
func TestConfineIsCancellable(t *testing.T) {
	r, err := NewRoot(repo(t))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := r.Confine(ctx, "range", "stream/writer.go"); err == nil || !strings.Contains(err.Error(), context.Canceled.Error()) {
		t.Fatalf("confined under a cancelled context: %v", err)
	}
}

// A path of a megabyte is a tool error like any missing file, answered
// (the check of each of its prefixes once took minutes).
func TestMegabytePath(t *testing.T) {
	cs := connect(t, repo(t), nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	path := strings.Repeat("a/", 500000) + "x.go"
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "rtch_reenter", Arguments: map[string]any{"range": path + ":L1-L2"}})
	if err != nil {
		t.Fatalf("rtch_reenter on a 1 MB path: %v", err)
	}
	if !res.IsError {
		t.Fatalf("rtch_reenter on a 1 MB path: %.300s", textOf(res))
	}
}
