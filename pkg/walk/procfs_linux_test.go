package walk

import (
	"os"
	"testing"
)

// TestReadZeroSizeFile reads a procfs file, whose fstat size is 0 and whose
// content comes in short reads, with a scratch buffer larger than one read:
// all of it must come in, not only the first read.
func TestReadZeroSizeFile(t *testing.T) {
	const name = "/proc/self/smaps"
	want, err := os.ReadFile(name)
	if err != nil || len(want) == 0 {
		t.Skip("no procfs:", err)
	}
	f := File{Path: "smaps", Abs: name, Size: 0}
	b := openBeneath("/proc/self")
	defer b.close()
	data, skip := readInto(b, f, 1<<20, make([]byte, 0, 1<<20))
	if skip != nil {
		t.Fatalf("skipped: %+v", skip)
	}
	// The memory map of this process changes a little between reads; a cut read
	// would hold only the first page.
	if len(data) < len(want)*3/4 {
		t.Fatalf("read %d bytes of %s, os.ReadFile %d", len(data), name, len(want))
	}
}
