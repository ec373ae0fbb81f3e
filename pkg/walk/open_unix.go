//go:build unix

package walk

import (
	"os"
	"syscall"
)

// openNoFollow opens a file for reading without following a final
// symlink and without blocking should it have become a FIFO.
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}
