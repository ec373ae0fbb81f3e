//go:build linux

package hugeheap

import (
	"bytes"
	"os"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

const hugePage = 2 << 20

// The kernel's settings reserve reads: the transparent huge page mode and
// the overcommit mode (variables so that a test can point them at other
// files).
var (
	thpModeFile    = "/sys/kernel/mm/transparent_hugepage/enabled"
	overcommitFile = "/proc/sys/vm/overcommit_memory"
)

// prepare allocates reserve(n) bytes as one object (fresh address space the
// runtime maps and does not touch, since the kernel hands it out zeroed),
// advises its 2 MiB-aligned interior MADV_HUGEPAGE, and frees it with a
// collection: the runtime keeps the mapping, and its flag, for the spans
// it carves from it next.
func prepare(want int) {
	n := reserve(want)
	if n < 2*hugePage {
		return
	}
	b := make([]byte, n)
	base := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := (base + hugePage - 1) &^ (hugePage - 1)
	hi := (base + uintptr(n)) &^ (hugePage - 1)
	if lo < hi {
		_ = unix.Madvise(b[lo-base:hi-base], unix.MADV_HUGEPAGE)
	}
	runtime.KeepAlive(b)
	b = nil
	runtime.GC()
}

// reserve is how many of want bytes to mark, 0 when the advice would change
// nothing or mapping them is not free: the kernel must leave huge pages
// to the program ("[madvise]"; "always" needs no advice, "never" ignores
// it) and must not count mapped address space against a strict commit
// limit (overcommit mode 2); and the mapping stays under a quarter of the
// machine's memory, well inside what the default overcommit heuristic
// grants one mapping.
func reserve(want int) int {
	if unsafe.Sizeof(uintptr(0)) < 8 {
		return 0 // no gigabyte to spare in a 32-bit address space
	}
	mode, err := os.ReadFile(thpModeFile)
	if err != nil || !bytes.Contains(mode, []byte("[madvise]")) {
		return 0
	}
	commit, err := os.ReadFile(overcommitFile)
	if err != nil || bytes.HasPrefix(commit, []byte("2")) {
		return 0
	}
	var si unix.Sysinfo_t
	if unix.Sysinfo(&si) != nil {
		return 0
	}
	quarter := uint64(si.Totalram) * uint64(si.Unit) / 4
	return int(min(uint64(max(want, 0)), quarter) &^ (hugePage - 1))
}
