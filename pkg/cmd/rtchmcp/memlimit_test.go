package rtchmcp

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestMemoryLimit(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int64
	}{
		{0, memoryFloor},
		{100 << 20, memoryFloor},
		{128 << 20, memoryFloor},
		{300 << 20, 600 << 20},
		{1 << 62, 1<<63 - 2},
	} {
		if got := memoryLimit(c.live); got != c.want {
			t.Errorf("memoryLimit(%d MiB) = %d MiB, want %d MiB", c.live>>20, got>>20, c.want>>20)
		}
	}
}

// TestMemoryLimitFollowsTheLiveHeap: with the limit kept, a live heap
// above half the floor raises the limit to twice itself at the next
// collections, and the limit falls back to the floor once it is freed;
// GOMEMLIMIT in the environment leaves the limit alone.
func TestMemoryLimitFollowsTheLiveHeap(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	if keepMemoryLimit(func(k string) string { return map[string]string{"GOMEMLIMIT": "1GiB"}[k] }) {
		t.Fatal("the limit was kept with GOMEMLIMIT set")
	}
	if !keepMemoryLimit(func(string) string { return "" }) {
		t.Fatal("the limit was not kept")
	}
	if got := debug.SetMemoryLimit(-1); got != memoryFloor {
		t.Fatalf("limit %d MiB at the start, want the floor, %d MiB", got>>20, memoryFloor>>20)
	}
	held := make([][]byte, 0, 300)
	for range 300 {
		held = append(held, make([]byte, 1<<20))
	}
	if got := collectUntil(func(l int64) bool { return l >= 2*300<<20 }); got < 2*300<<20 {
		t.Errorf("limit %d MiB with 300 MiB live, want at least twice that", got>>20)
	}
	runtime.KeepAlive(held)
	held = nil
	if got := collectUntil(func(l int64) bool { return l == memoryFloor }); got != memoryFloor {
		t.Errorf("limit %d MiB once the heap is freed, want the floor, %d MiB", got>>20, memoryFloor>>20)
	}
}

// collectUntil collects until the limit satisfies ok, for at most two
// seconds (the limit is set from a finalizer, which runs after its
// collection), and returns the limit.
func collectUntil(ok func(int64) bool) int64 {
	for range 200 {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
		if l := debug.SetMemoryLimit(-1); ok(l) {
			return l
		}
	}
	return debug.SetMemoryLimit(-1)
}
