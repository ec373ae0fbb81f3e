//go:build unix

package index

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lock takes the exclusive lock on path without waiting; ok is false when
// another process holds it. The lock goes with the process, so a killed
// writer leaves none behind.
func lock(path string) (unlock func(), ok bool, err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, false, fmt.Errorf("index lock %s: %v", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, false, nil
		}
		return nil, false, fmt.Errorf("index lock %s: %v", path, err)
	}
	return func() { f.Close() }, true, nil
}
