//go:build unix

package protect

import (
	"syscall"
	"time"
)

// cpuTime is the process's user+system CPU time: under a loaded machine the
// wall-clock ns/op of a benchmark mostly measures the other processes, so
// the benchmarks also report cpu-ms/op.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
