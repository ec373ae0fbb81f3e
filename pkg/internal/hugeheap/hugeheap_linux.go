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

// prepare allocates Reserve bytes as one object (fresh address space the
// runtime maps and does not touch, since the kernel hands it out zeroed),
// advises its 2 MiB-aligned interior MADV_HUGEPAGE, and frees it with a
// collection: the runtime keeps the mapping, and its flag, for the spans
// it carves from it next.
func prepare() {
	if !advisable() {
		return
	}
	b := make([]byte, Reserve)
	base := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := (base + hugePage - 1) &^ (hugePage - 1)
	hi := (base + Reserve) &^ (hugePage - 1)
	if lo < hi {
		_ = unix.Madvise(b[lo-base:hi-base], unix.MADV_HUGEPAGE)
	}
	runtime.KeepAlive(b)
	b = nil
	runtime.GC()
}

// advisable reports whether the advice changes anything and mapping
// Reserve is free: the kernel leaves huge pages to the program
// ("[madvise]"; "always" needs no advice, "never" ignores it), and it
// does not count mapped address space against a strict commit limit
// (overcommit mode 2), where 256 MiB could fail a small process.
func advisable() bool {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || !bytes.Contains(mode, []byte("[madvise]")) {
		return false
	}
	commit, err := os.ReadFile("/proc/sys/vm/overcommit_memory")
	return err == nil && !bytes.HasPrefix(commit, []byte("2"))
}
