//go:build linux

package hugeheap

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

const childEnv = "HUGEHEAP_TEST_CHILD"

// TestPrepareBacksTheHeapWithHugePages runs a fresh process of this test
// binary (Prepare is for a process's start) that allocates 32 MiB of
// small objects after Prepare, and checks that at least 8 MiB more of its
// memory is on huge pages than before. Without the advice Go's heap gets
// none in the kernel's "madvise" mode, so the test fails when Prepare
// stops working.
func TestPrepareBacksTheHeapWithHugePages(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		measureChild()
		return
	}
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || !bytes.Contains(mode, []byte("[madvise]")) {
		t.Skipf("the kernel does not leave huge pages to the program here (%q, %v)", mode, err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestPrepareBacksTheHeapWithHugePages$")
	cmd.Env = append(os.Environ(), childEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	var before, after int
	if _, err := fmt.Sscanf(string(out), "huge %d %d", &before, &after); err != nil {
		t.Skipf("child measured nothing: %s", out)
	}
	if after-before < 8<<10 {
		t.Errorf("32 MiB of allocations after Prepare: %d KiB on huge pages before, %d after; want at least 8192 more", before, after)
	}
}

// measureChild prints the process's huge-page memory before and after
// allocating 32 MiB in 64-byte objects, Prepare called first.
func measureChild() {
	Prepare(64 << 20)
	before, ok := anonHugeKB()
	if !ok {
		return
	}
	var keep [][]byte
	for range (32 << 20) / 64 {
		keep = append(keep, make([]byte, 64))
	}
	after, _ := anonHugeKB()
	fmt.Printf("huge %d %d\n", before, after)
	_ = keep[len(keep)-1]
}

// anonHugeKB is the AnonHugePages of /proc/self/smaps_rollup.
func anonHugeKB() (int, bool) {
	f, err := os.Open("/proc/self/smaps_rollup")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "AnonHugePages:"); ok {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			return n, err == nil
		}
	}
	return 0, false
}
