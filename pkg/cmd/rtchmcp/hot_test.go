package rtchmcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rtch/rtch/pkg/index"
	"github.com/rtch/rtch/pkg/internal/testtree"
	"github.com/rtch/rtch/pkg/schema"
)

const (
	hotGoal   = "find where ReadLine reports a malformed line"
	hotEnough = "the function is hydrated"
	hotEpoch  = "1767225600"
)

// binaries builds every command into one directory, as make install would.
func binaries(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command("go", "build", "-o", dir+string(os.PathSeparator), "./cmd/...")
	cmd.Dir = filepath.Join("..", "..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/...: %v\n%s", err, out)
	}
	return dir
}

// piped is what the piped binaries print in root with --no-index for
// rtch_context's json text at the brief budget cap: what a shell user gets
// reading every file.
func piped(t *testing.T, bins, root string, cap int) string {
	t.Helper()
	lane := fmt.Sprintf(`set -o pipefail; rtch-intake --goal %q --enough %q --profile code_path --fanout normal --risk read_only --output-kind hydration_packet | rtch-zone | rtch-scout --no-index | rtch-probe --no-index | rtch-hydrate | rtch-packet %s`, hotGoal, hotEnough, strings.Join(TextFlags("json", cap), " "))
	cmd := exec.Command("bash", "-c", lane)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "PATH="+bins+string(os.PathListSeparator)+os.Getenv("PATH"), "SOURCE_DATE_EPOCH="+hotEpoch)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("piped lane: %v", err)
	}
	return string(out)
}

// serve starts the built rtch-mcp on root over stdio with args and returns
// the SDK client's session.
func serve(t *testing.T, bins, root string, args ...string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(filepath.Join(bins, "rtch-mcp"), append([]string{"--root", root}, args...)...)
	cmd.Env = append(os.Environ(), "SOURCE_DATE_EPOCH="+hotEpoch)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "hot-test", Version: "0"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// sameAsPiped calls rtch_context and compares its JSON packet with the
// piped lane's, byte for byte.
func sameAsPiped(t *testing.T, cs *mcp.ClientSession, bins, root, step string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "rtch_context",
		Arguments: map[string]any{"goal": hotGoal, "enough": hotEnough, "format": "json"}})
	if err != nil || res.IsError {
		t.Fatalf("%s: rtch_context: %v %s", step, err, textOf(res))
	}
	got, want := res.Content[0].(*mcp.TextContent).Text, piped(t, bins, root, capOf(t, res))
	if got != want {
		t.Fatalf("%s: the server's packet differs from the piped --no-index lane\nserver:\n%.2000s\npiped:\n%.2000s", step, got, want)
	}
}

// capOf is the brief budget a reply was fitted to, as its summary states
// it.
func capOf(t *testing.T, res *mcp.CallToolResult) int {
	t.Helper()
	b, _ := json.Marshal(res.StructuredContent)
	var sum schema.PacketSummary
	if err := json.Unmarshal(b, &sum); err != nil || sum.Budget.Cap == 0 {
		t.Fatalf("no summary with a budget: %v %s", err, b)
	}
	return sum.Budget.Cap
}

// reader is a Go file the goal finds, numbered so edits change its text.
func reader(pkg string, n int) string {
	return fmt.Sprintf("package %s\n\nimport \"fmt\"\n\n// ReadLine%d reads a record and reports a malformed line.\nfunc ReadLine%d(line string) error {\n\treturn fmt.Errorf(\"malformed line %%q\", line)\n}\n", pkg, n, n)
}

// The server over stdio, between calls that each compare the packet with
// the piped binaries' --no-index lane byte for byte: the tree unchanged,
// a file edited, added, removed and renamed, a burst of edits in a new
// directory, an ignore file added; with the memo and without it (then
// every call runs the lane, on the kept walk, index and hydrated files).
func TestHotServerFollowsTheTree(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binaries; skipped with -short")
	}
	bins := binaries(t)
	for _, extra := range [][]string{nil, {"--no-memo"}} {
		t.Run(strings.Join(append([]string{"rtch-mcp"}, extra...), " "), func(t *testing.T) {
			followTheTree(t, bins, extra)
		})
	}
}

// followTheTree is TestHotServerFollowsTheTree for a server with extra
// flags.
func followTheTree(t *testing.T, bins string, extra []string) {
	root := repo(t)
	cs := serve(t, bins, root, append([]string{"--index", filepath.Join(t.TempDir(), "index")}, extra...)...)
	steps := []struct {
		name string
		act  func()
	}{
		{"first call", func() {}},
		{"unchanged", func() {}},
		{"edit", func() { testtree.Write(t, root, "stream/writer.go", reader("stream", 1)) }},
		{"add", func() { testtree.Write(t, root, "stream/parse.go", reader("stream", 2)) }},
		{"remove", func() { os.Remove(filepath.Join(root, "stream/writer.go")) }},
		{"rename", func() { os.Rename(filepath.Join(root, "stream/parse.go"), filepath.Join(root, "stream/parser.go")) }},
		{"burst in a new directory", func() {
			for round := range 5 {
				for i := range 30 {
					testtree.Write(t, root, fmt.Sprintf("gen/g%02d.go", i), reader("gen", round*100+i))
				}
			}
		}},
		{"edit in the new directory", func() { testtree.Write(t, root, "gen/g07.go", "package gen\n") }},
		{"ignore file", func() { testtree.Write(t, root, ".rtchignore", "gen/\n") }},
		{"unchanged at the end", func() {}},
	}
	for _, s := range steps {
		s.act()
		sameAsPiped(t, cs, bins, root, s.name)
	}
}

// A watcher that loses track falls back to the walk: with --watch-limit
// the tree outgrows after the first call, files edited and added in a
// directory nothing watches are still in every answer.
func TestHotServerLostWatchWalks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binaries; skipped with -short")
	}
	bins := binaries(t)
	root := repo(t) // the root, stream, docs, secret: four directories
	cs := serve(t, bins, root, "--index", filepath.Join(t.TempDir(), "index"), "--watch-limit", "4")
	sameAsPiped(t, cs, bins, root, "within the limit")
	testtree.Write(t, root, "deep/er/reader.go", reader("er", 1))
	sameAsPiped(t, cs, bins, root, "a directory over the limit")
	for i := range 3 {
		testtree.Write(t, root, "deep/er/reader.go", reader("er", 10+i))
		testtree.Write(t, root, fmt.Sprintf("deep/er/more%d.go", i), reader("er", 20+i))
		sameAsPiped(t, cs, bins, root, fmt.Sprintf("edit %d in the unwatched directory", i))
	}
}

// In process, with the memo off, the counts of the kept walk say what each
// call did: the background index build walks, the first call and a repeat
// reuse the listing (scout and probe both), an edit patches it, an added
// file walks, and once the tree outgrows the watch limit every listing
// walks.
func TestHotServerReusesTheWalk(t *testing.T) {
	root := repo(t)
	// Files older than the index's racy window, so that a repeat call
	// trusts every entry and has nothing to save.
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			os.Chtimes(p, old, old)
		}
		return nil
	})
	ixDir := filepath.Join(t.TempDir(), "index")
	h := hotHandler(t, root, Hot{IndexDir: ixDir, WatchLimit: 5, NoMemo: true})
	call := func() string {
		t.Helper()
		res, _, err := h.context(context.Background(), nil, ContextInput{Goal: hotGoal, Enough: hotEnough, Format: "json"})
		if err != nil || res.IsError {
			t.Fatalf("rtch_context: %v %s", err, textOf(res))
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	check := func(step string, walks, reused, patched, lost int) {
		t.Helper()
		st := h.tree.Stats()
		if st.Walks != walks || st.Reused != reused || st.Patched != patched || st.Lost != lost {
			t.Fatalf("%s: %+v, want walks %d reused %d patched %d lost %d", step, st, walks, reused, patched, lost)
		}
	}
	first := call()
	check("first call", 1, 2, 0, 0)
	built, err := os.Stat(filepath.Join(ixDir, "index"))
	if err != nil {
		t.Fatal(err)
	}
	if again := call(); again != first {
		t.Fatal("a repeat call on an unchanged tree gave another packet")
	}
	check("repeat", 1, 4, 0, 0)
	// The held index is the saved one, dictionary and all: nothing to write.
	if now, err := os.Stat(filepath.Join(ixDir, "index")); err != nil || !os.SameFile(built, now) {
		t.Fatalf("a repeat call on an unchanged tree rewrote the index (%v)", err)
	}
	testtree.Write(t, root, "stream/writer.go", reader("stream", 1))
	call()
	check("edit", 1, 5, 1, 0)
	testtree.Write(t, root, "stream/new.go", reader("stream", 2))
	call()
	check("add", 2, 6, 1, 0)
	testtree.Write(t, root, "d1/d2/x.go", reader("d2", 3))
	call()
	// The new directories lose track: the scout's listing walks, and the
	// new watcher, over the limit from its start, loses track again before
	// the probe's, which walks too.
	check("over the watch limit", 4, 6, 1, 2)
	call()
	check("lost", 6, 6, 1, 4)
	if !strings.Contains(h.tree.Stats().LastLost, "watch limit") {
		t.Fatalf("lost: %q", h.tree.Stats().LastLost)
	}
}

// TestIndexOnByDefaultUnlessTheZoneSaysWhere: without --index or
// --no-index the server keeps the index in the user cache directory, and
// a zone whose .rtch.toml names an [index] dir, even one written after the
// server started, has its index there: the stages decide from the
// configuration on every call, the server only supplies the default.
func TestIndexOnByDefaultUnlessTheZoneSaysWhere(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	root := repo(t)
	h := hotHandler(t, root, Hot{})
	call := func(step string) {
		t.Helper()
		res, _, err := h.context(context.Background(), nil, ContextInput{Goal: hotGoal, Enough: hotEnough})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %s", step, err, textOf(res))
		}
	}
	call("default")
	r, err := NewRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	def, err := index.Dir(r.Dir, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(def, "index")); err != nil {
		t.Fatalf("no index in the user cache directory: %v", err)
	}
	testtree.Write(t, root, ".rtch.toml", "[index]\ndir = \".zone-index\"\n")
	call("the zone names its index directory")
	if _, err := os.Stat(filepath.Join(root, ".zone-index", "index")); err != nil {
		t.Fatalf("the zone's [index] dir was overridden: %v", err)
	}
}

// TestRepeatCallFromMemo: in process, a repeat of a question on an
// unchanged tree is answered from the memo without listing the tree, with
// the packet a fresh run gives; another question runs, and both are kept;
// an edited file (outside git: the tree's version says so) and a commit (git
// state the watcher does not see, which the zone record carries) each make
// the next call run again.
func TestRepeatCallFromMemo(t *testing.T) {
	root := repo(t)
	gitRun := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	h := hotHandler(t, root, Hot{IndexDir: filepath.Join(t.TempDir(), "index")})
	call := func(goal string) string {
		t.Helper()
		res, _, err := h.context(context.Background(), nil, ContextInput{Goal: goal, Enough: hotEnough, Format: "json"})
		if err != nil || res.IsError {
			t.Fatalf("rtch_context: %v %s", err, textOf(res))
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	check := func(step string, hits, walks, reused int) {
		t.Helper()
		st := h.tree.Stats()
		if h.memo.hits != hits || st.Walks != walks || st.Reused+st.Patched != reused {
			t.Fatalf("%s: memo hits %d, listings %+v; want hits %d, walks %d, reused %d", step, h.memo.hits, st, hits, walks, reused)
		}
	}
	const other = "where is WriteLine"
	first := call(hotGoal)
	check("first call", 0, 1, 2)
	if call(hotGoal) != first {
		t.Fatal("the repeat from the memo differs from the first packet")
	}
	check("repeat", 1, 1, 2)
	second := call(other)
	check("another question", 1, 1, 4)
	if call(other) != second || call(hotGoal) != first {
		t.Fatal("a kept lane gave another packet")
	}
	check("both questions again", 3, 1, 4)
	testtree.Write(t, root, "stream/reader.go", reader("stream", 1))
	edited := call(hotGoal)
	check("edit", 3, 1, 6)
	if edited == first {
		t.Fatal("the call after an edit gave the packet of before")
	}
	gitRun("init", "-q")
	gitRun("add", "-A")
	gitRun("commit", "-q", "-m", "first")
	call(hotGoal)
	call(hotGoal)
	check("in a work tree", 4, 2, 7)
	if h.resident.Git.Runs == 0 {
		t.Fatal("the zone's git snapshot did not go through the server's git cache")
	}
	gitRun("commit", "-q", "--allow-empty", "-m", "second")
	committed := call(hotGoal)
	check("after a commit", 4, 2, 9)
	if !strings.Contains(committed, gitHead(t, root)) {
		t.Fatal("the packet after a commit does not name the new head")
	}
}

func gitHead(t *testing.T, root string) string {
	t.Helper()
	cmd := exec.Command("git", "rev-parse", "HEAD")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// hotHandler is the handler a server on root keeps, with hot's flags and
// SOURCE_DATE_EPOCH pinned, released at the end of the test, once its
// background index build has ended (unless hot holds it back).
func hotHandler(tb testing.TB, root string, hot Hot) *handler {
	tb.Helper()
	r, err := NewRoot(root)
	if err != nil {
		tb.Fatal(err)
	}
	h, err := newHandler(context.Background(), r, func(k string) string {
		if k == "SOURCE_DATE_EPOCH" {
			return hotEpoch
		}
		return os.Getenv(k)
	})
	if err != nil {
		tb.Fatal(err)
	}
	if err := h.keep(hot); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(h.release)
	if h.indexer != nil && hot.holdBuild == nil {
		h.indexer.wait()
	}
	return h
}
