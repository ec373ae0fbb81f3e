//go:build unix

package index

import (
	"errors"
	"fmt"
	"syscall"

	"github.com/rtch/rtch/pkg/atomicfile"
)

// lock takes the exclusive lock on the lock file in d without waiting; ok
// is false when another process holds it. The lock goes with the process,
// so a killed writer leaves none behind.
func lock(d *atomicfile.Dir) (unlock func(), ok bool, err error) {
	f, err := d.OpenLock(lockName, 0o600)
	if err != nil {
		return nil, false, fmt.Errorf("index lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, false, nil
		}
		return nil, false, fmt.Errorf("index lock %s: %v", d.Name(lockName), err)
	}
	return func() { f.Close() }, true, nil
}
