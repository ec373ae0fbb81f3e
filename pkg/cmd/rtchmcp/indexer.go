package rtchmcp

import (
	"context"
	"io"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/rtch/rtch/pkg/cli"
	"github.com/rtch/rtch/pkg/index"
	"github.com/rtch/rtch/pkg/pipeline"
)

// indexer brings the tree index up to date in the background from the
// server's start, so that no call waits for it (docs/decisions/rtch-mcp.md,
// "The first call"): it runs rtch-scout in process, as the first call's
// lane used to, with the index where the calls' stages would keep it and
// its output dropped. Until it is done every call runs its lane without
// the index (the packets are the same bytes either way) and hears how far
// it has got; while any lane runs, the build takes up no new file (its
// reads are paced), so a call costs what a cold lane costs. When it is
// done the calls use the index.
type indexer struct {
	h      *handler
	warn   func(string)
	cancel context.CancelFunc
	done   chan struct{} // closed when the build has ended

	mu    sync.Mutex
	ended bool
	busy  int           // lanes running
	idle  chan struct{} // closed when busy drops to 0
	last  string        // the build's last progress line
	// hear are the progress relays of the lanes running that asked for
	// progress; senders hold the read lock, so a lane that ends waits for
	// a notification in flight and hears nothing after.
	hearMu sync.RWMutex
	hear   map[*call]func(string)
}

// buildGoal is the goal of the build's intake: the scout stores every file
// it reads whatever the goal, and its output is dropped.
const buildGoal = "build the tree index"

const buildPrefix = "rtch-mcp: building the tree index in the background: "

func newIndexer(h *handler, warn func(string)) *indexer {
	idle := make(chan struct{})
	close(idle)
	return &indexer{h: h, warn: warn, done: make(chan struct{}), idle: idle, hear: map[*call]func(string){}}
}

// start runs the build once hold (nil: at once) lets it.
func (ix *indexer) start(hold <-chan struct{}) {
	ctx, cancel := context.WithCancel(context.Background())
	ix.cancel = cancel
	go func() {
		defer close(ix.done)
		if hold != nil {
			select {
			case <-hold:
			case <-ctx.Done():
				ix.finish("", true)
				return
			}
		}
		failed := ix.build(ctx)
		ix.finish(failed, ctx.Err() != nil)
	}()
}

// build runs rtch-intake, rtch-zone and rtch-scout with the server's
// resident state, its reads paced; it returns what went wrong, "" when
// the index was saved.
func (ix *indexer) build(ctx context.Context) string {
	r := *ix.h.resident
	r.Pace = ix.pace
	args := ix.h.intakeArgs(ContextInput{Goal: buildGoal, Enough: "the index is saved"})
	stages := pipeline.Lane(args)[:3]
	o := pipeline.Options{Dir: ix.h.root.Dir, Getenv: ix.h.getenv, Progress: ix.relay, Resident: &r}
	_, err := pipeline.Run(ctx, o, stages, nil, io.Discard)
	debug.FreeOSMemory() // the build's heap goes back to the system
	ix.releasePages()
	if err != nil {
		return err.Error()
	}
	return ""
}

// finish records the end of the build and tells the lanes running; a
// build stopped with the server (stopped) ends without a word.
func (ix *indexer) finish(failed string, stopped bool) {
	ix.mu.Lock()
	ix.ended = true
	ix.mu.Unlock()
	switch {
	case stopped:
	case failed != "" && ix.warn != nil:
		ix.warn("the background index build failed (calls build it as they go): " + failed)
	case failed == "":
		ix.tell("rtch-mcp: the tree index is built; the next calls use it")
	}
}

// stop cancels a build still running and waits for it.
func (ix *indexer) stop() {
	if ix.cancel != nil {
		ix.cancel()
		<-ix.done
	}
}

// wait blocks until the build has ended.
func (ix *indexer) wait() { <-ix.done }

// resident is the resident state a call's stages run with: the server's
// once the build has ended, without the index before.
func (ix *indexer) resident() *cli.Resident {
	ix.mu.Lock()
	ended := ix.ended
	ix.mu.Unlock()
	if ended {
		return ix.h.resident
	}
	r := *ix.h.resident
	r.Index = cli.IndexChoice{Flag: &index.Where{Off: true}}
	return &r
}

// enter marks a lane running (the build takes up no new file meanwhile)
// and, while the build runs, relays its progress to the call; the
// returned func marks the lane ended.
func (ix *indexer) enter(c *call) (leave func()) {
	ix.mu.Lock()
	if ix.busy == 0 {
		ix.idle = make(chan struct{})
	}
	ix.busy++
	building, last := !ix.ended, ix.last
	ix.mu.Unlock()
	if building && c.progress != nil {
		ix.hearMu.Lock()
		ix.hear[c] = c.progress
		ix.hearMu.Unlock()
		line := "rtch-mcp: the tree index is being built in the background; this call reads the tree without it"
		if last != "" {
			line += " (" + last + ")"
		}
		c.progress(line)
	}
	return func() {
		ix.hearMu.Lock()
		delete(ix.hear, c)
		ix.hearMu.Unlock()
		ix.mu.Lock()
		last := ix.busy == 1
		if last {
			ix.releasePages()
		}
		if ix.busy--; ix.busy == 0 {
			close(ix.idle)
		}
		ix.mu.Unlock()
	}
}

// releasePages hands the held indexes' pages back to the system when no
// lane reads them, so that the server's resident size between calls is its
// own, not the index's (docs/decisions/index.md, "Memory").
func (ix *indexer) releasePages() {
	if r := ix.h.resident; r != nil && r.Indexes != nil {
		r.Indexes.Release()
	}
}

// pace holds the build's next read back while any lane runs.
func (ix *indexer) pace(ctx context.Context) {
	for {
		ix.mu.Lock()
		busy, idle := ix.busy, ix.idle
		ix.mu.Unlock()
		if busy == 0 {
			return
		}
		select {
		case <-idle:
		case <-ctx.Done():
			return
		}
	}
}

// relay keeps the build's progress line and passes it on to the lanes
// running.
func (ix *indexer) relay(line string) {
	ix.mu.Lock()
	ix.last = strings.TrimSpace(line)
	ix.mu.Unlock()
	ix.tell(buildPrefix + line)
}

// tell sends a line to every lane running that asked for progress.
func (ix *indexer) tell(line string) {
	ix.hearMu.RLock()
	defer ix.hearMu.RUnlock()
	for _, p := range ix.hear {
		p(line)
	}
}
