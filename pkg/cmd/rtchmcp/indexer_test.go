package rtchmcp

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rtch/rtch/pkg/internal/testtree"
)

// TestFirstCallDoesNotWaitForTheIndex: while the background build has not
// ended, calls read the tree without the index (they write none, even
// after an edit); once it has ended, a call after an edit uses the index
// (it stores the edited file and saves the index). Every packet is the
// piped --no-index lane's, byte for byte.
func TestFirstCallDoesNotWaitForTheIndex(t *testing.T) {
	bins := binaries(t)
	root := repo(t)
	old := time.Now().Add(-time.Hour) // past the racy window
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			os.Chtimes(p, old, old)
		}
		return nil
	})
	ixDir := filepath.Join(t.TempDir(), "index")
	hold := make(chan struct{})
	h := hotHandler(t, root, Hot{IndexDir: ixDir, NoMemo: true, holdBuild: hold})
	ask := func(step string) {
		t.Helper()
		res, _, err := h.context(context.Background(), nil, ContextInput{Goal: hotGoal, Enough: hotEnough, Format: "json"})
		if err != nil || res.IsError {
			t.Fatalf("%s: rtch_context: %v %s", step, err, textOf(res))
		}
		if got, want := res.Content[0].(*mcp.TextContent).Text, piped(t, bins, root, capOf(t, res)); got != want {
			t.Fatalf("%s: the packet differs from the piped --no-index lane\nserver:\n%.2000s\npiped:\n%.2000s", step, got, want)
		}
	}
	noIndex := func(step string) {
		t.Helper()
		if _, err := os.Stat(filepath.Join(ixDir, "index")); !os.IsNotExist(err) {
			t.Fatalf("%s: a call made while the build was held wrote the index (%v)", step, err)
		}
	}
	ask("first call")
	noIndex("first call")
	testtree.Write(t, root, "stream/writer.go", reader("stream", 1))
	ask("an edit while the build is held")
	noIndex("an edit while the build is held")
	close(hold)
	h.indexer.wait()
	built, err := os.Stat(filepath.Join(ixDir, "index"))
	if err != nil {
		t.Fatalf("the build saved no index: %v", err)
	}
	testtree.Write(t, root, "stream/writer.go", reader("stream", 2))
	ask("an edit after the build")
	if now, err := os.Stat(filepath.Join(ixDir, "index")); err != nil || os.SameFile(built, now) {
		t.Fatalf("the call after the build did not use the index (it saved no new one: %v)", err)
	}
}

// TestBuildProgressReachesTheCalls: a call made while the index is being
// built hears so in its progress notifications.
func TestBuildProgressReachesTheCalls(t *testing.T) {
	var mu sync.Mutex
	var heard []string
	hold := make(chan struct{})
	defer close(hold)
	cs := connectHot(t, repo(t), Hot{IndexDir: filepath.Join(t.TempDir(), "index"), holdBuild: hold}, func(p *mcp.ProgressNotificationParams) {
		mu.Lock()
		heard = append(heard, p.Message)
		mu.Unlock()
	})
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "rtch_context",
		Arguments: map[string]any{"goal": hotGoal, "enough": hotEnough}, Meta: mcp.Meta{"progressToken": "tok"}})
	if err != nil || res.IsError {
		t.Fatalf("rtch_context: %v %s", err, textOf(res))
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		got := strings.Join(heard, "\n")
		mu.Unlock()
		if strings.Contains(got, "the tree index is being built in the background") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the call's progress does not say the index is being built:\n%s", got)
		}
	}
}

// TestBuildWaitsForTheLanes: the build's pace returns at once with no lane
// running, holds while one runs and lets go when the last one ends.
func TestBuildWaitsForTheLanes(t *testing.T) {
	h := &handler{}
	ix := newIndexer(h, nil)
	ix.pace(context.Background()) // no lane: returns
	leave1, leave2 := ix.enter(&call{}), ix.enter(&call{})
	released := make(chan struct{})
	go func() {
		ix.pace(context.Background())
		close(released)
	}()
	leave1()
	select {
	case <-released:
		t.Fatal("the build went on while a lane still ran")
	case <-time.After(50 * time.Millisecond):
	}
	leave2()
	select {
	case <-released:
	case <-time.After(10 * time.Second):
		t.Fatal("the build stayed held after the last lane ended")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer ix.enter(&call{})()
	cancel()
	ix.pace(ctx) // a cancelled build is not held
}

// A build the server stops (it ends with its input, or is interrupted)
// ends without a warning: the server's own stop is no failure.
func TestStoppedBuildDoesNotWarn(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a build on GOROOT/src; skipped with -short")
	}
	r, err := NewRoot(filepath.Join(goroot(t), "src"))
	if err != nil {
		t.Fatal(err)
	}
	var warned []string
	_, stop, err := NewServer(context.Background(), r, Hot{IndexDir: filepath.Join(t.TempDir(), "index"), NoWatch: true,
		Warn: func(s string) { warned = append(warned, s) }})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // the build is under way
	stop()
	if len(warned) > 0 {
		t.Fatalf("stopping the server warned: %q", warned)
	}
}
