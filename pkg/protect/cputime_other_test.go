//go:build !unix

package protect

import "time"

// cpuTime is not measured where getrusage is missing: cpu-ms/op reads 0.
func cpuTime() time.Duration { return 0 }
