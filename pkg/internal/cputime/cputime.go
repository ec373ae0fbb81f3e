// Package cputime reads the process's own CPU time for benchmarks: on a
// loaded machine a benchmark's wall-clock ns/op mostly measures the other
// processes, so the benchmarks also report cpu-ms/op.
package cputime

import "time"

// Self is the process's user+system CPU time so far; 0 where the platform
// does not report it (the benchmark's cpu-ms/op then reads 0).
func Self() time.Duration { return self() }
