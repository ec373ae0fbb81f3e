//go:build unix && !linux && !darwin && !freebsd && !netbsd && !openbsd && !dragonfly

package walk

import "syscall"

// ctimeNs is 0 where the Stat_t spelling is not known: the identity then
// rests on the other fields.
func ctimeNs(*syscall.Stat_t) int64 { return 0 }
