//go:build unix && !linux

package atomicfile

import "os"

// openBeneath resolves rel under r component by component (no openat2
// outside Linux).
func openBeneath(r *os.File, rel string) (*os.File, error) { return walkBeneath(r, rel) }
