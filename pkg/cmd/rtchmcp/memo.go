package rtchmcp

import (
	"bytes"
	"crypto/sha256"
	"runtime/debug"
	"sync"
	"time"

	"github.com/rtch/rtch/pkg/cmd/rtchpacket"
	"github.com/rtch/rtch/pkg/internal/bounded"
	"github.com/rtch/rtch/pkg/pipeline"
)

// memoSize and memoBytes bound the lanes kept for one version of the
// tree: an agent asks a handful of questions of an unchanged tree, each
// kept lane is a few hundred KB on GOROOT/src.
const (
	memoSize  = 16
	memoBytes = 64 << 20
)

// decodedSize is what a kept lane holds per byte of its stream: the
// stream, and its records decoded, which take a little less (465 KB of
// heap for the 547 KB stream of issue 17's question on GOROOT/src).
const decodedSize = 2

// memo keeps the output of the lane's reading stages (scout, probe,
// hydrate) for the calls made since the tree last changed, keyed by what
// they read from the stream: the intake and zone records, byte for byte
// (the goal, the flags, the zone's configuration and git state). Everything
// else they read is in the tree, which the watcher vouches for
// (snapshot.Tree.Version); a version moved on drops every lane
// (docs/decisions/rtch-mcp.md).
type memo struct {
	mu      sync.Mutex
	version uint64
	lanes   bounded.Map[[sha256.Size]byte, keptLane]
	hits    int
}

// keptLane is one run of the reading stages: the stream they wrote, and
// that stream as rtch-packet decodes it, for every call it answers.
type keptLane struct {
	stream  []byte
	decoded *rtchpacket.Decoded
	res     pipeline.Result
}

// get is the lane kept for key at version v.
func (m *memo) get(v uint64, key [sha256.Size]byte) (keptLane, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	l, ok := m.lanes.Get(key)
	if !ok || m.version != v {
		return keptLane{}, false
	}
	m.hits++
	return l, true
}

// put keeps a lane run at version v, dropping those of other versions and
// the oldest past memoSize.
func (m *memo) put(v uint64, key [sha256.Size]byte, l keptLane) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.version != v {
		m.lanes.Clear()
		m.version = v
	}
	m.lanes.Limit, m.lanes.MaxSize = memoSize, memoBytes
	m.lanes.Size = func(l keptLane) int { return decodedSize * len(l.stream) }
	m.lanes.Put(key, l)
}

// lane runs rtch-intake with intakeArgs through rtch-hydrate and returns
// the stream rtch-packet reads, with the holder its renderings decode it
// through. On a watched tree the reading stages' run is kept and handed to
// a repeat call with the same intake and zone records while the tree's
// version stands; a run during which the version moved is not kept.
func (h *handler) lane(c *call, intakeArgs []string) (keptLane, error) {
	defer releaseAfterLong(time.Now(), debug.FreeOSMemory)
	if h.indexer != nil {
		defer h.indexer.enter(c)()
	}
	stages := pipeline.Lane(intakeArgs)
	n := len(stages) + 1 // rtch-packet's renderings end the call
	if h.tree == nil || h.memo == nil {
		stream, res, err := c.execPart(0, n, nil, stages...)
		return keptLane{stream, &rtchpacket.Decoded{}, res}, err
	}
	head, tail := stages[:2], stages[2:]
	front, res, err := c.execPart(0, n, nil, head...)
	if err != nil {
		return keptLane{}, err
	}
	v, watched, err := h.tree.Version(c.ctx)
	if err != nil {
		return keptLane{}, err
	}
	key := sha256.Sum256(front)
	if l, ok := h.memo.get(v, key); ok && watched {
		if c.progress != nil {
			for i, st := range tail {
				c.progress(pipeline.DoneLine(st.Tool.Name, len(head)+i+1, n, "kept from an earlier call"))
			}
		}
		l.res = joined(res, l.res)
		return l, nil
	}
	stream, tres, err := c.execPart(len(head), n, bytes.NewReader(front), tail...)
	if err != nil {
		return keptLane{}, err
	}
	l := keptLane{stream, &rtchpacket.Decoded{}, tres}
	if after, still, err := h.tree.Version(c.ctx); err == nil && watched && still && after == v {
		h.memo.put(v, key, l)
	}
	l.res = joined(res, tres)
	return l, nil
}

// joined is the result of two chains run one after the other, as one.
func joined(a, b pipeline.Result) pipeline.Result {
	return pipeline.Result{Diagnostics: a.Diagnostics + b.Diagnostics, Codes: append(append([]int(nil), a.Codes...), b.Codes...)}
}

// longLane is how long a lane runs before the server returns its garbage
// to the system when it ends: such a run built or rebuilt the index, which
// allocates several times what a warm call keeps, and at the server's GOGC
// the heap would keep that size (docs/decisions/rtch-mcp.md).
const longLane = time.Second

// releaseAfterLong calls release when the run that began at start was
// long.
func releaseAfterLong(start time.Time, release func()) {
	if time.Since(start) >= longLane {
		release()
	}
}
