package rtchmcp

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// memoryFloor is the heap a server may grow to before it collects more
// often than its GC percent says (serverGCPercent lets the heap reach
// three times the live one: on a tree four times GOROOT/src's size a
// server answering its first calls without the index, beside the
// background check of the index, peaked at 411 MB resident over about
// 150 MB live).
const memoryFloor = 256 << 20

// memoryLimit is the soft limit for a live heap of live bytes: the floor,
// or twice the live heap when that is more (Go's default GC percent
// above the floor: a bigger tree's live heap is never collected over and
// over against a limit it cannot meet).
func memoryLimit(live uint64) int64 {
	return int64(max(memoryFloor, 2*min(live, math.MaxInt64/2)))
}

// keepMemoryLimit sets the soft memory limit after every collection from
// the live heap it left (memoryLimit), unless the environment's
// GOMEMLIMIT already decides (false).
func keepMemoryLimit(getenv func(string) string) bool {
	if getenv("GOMEMLIMIT") != "" {
		return false
	}
	debug.SetMemoryLimit(memoryLimit(0))
	onEveryGC(func() { debug.SetMemoryLimit(memoryLimit(liveHeap())) })
	return true
}

// liveHeap is the heap the last collection marked live.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// onEveryGC calls fn after each collection for the rest of the process:
// a sentinel object's finalizer runs once the collector has found it
// unreachable, and sets itself on a new one.
func onEveryGC(fn func()) {
	type sentinel struct{ _ *byte }
	var arm func()
	arm = func() {
		runtime.SetFinalizer(&sentinel{}, func(*sentinel) {
			fn()
			arm()
		})
	}
	arm()
}
