//go:build unix

package atomicfile

import (
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// walkBeneath is openBeneath without openat2: rel is resolved with every
// symlink expanded and the result must lie under r's real path (EXDEV
// otherwise); the directory is then opened by that resolved path.
func walkBeneath(r *os.File, rel string) (*os.File, error) {
	base, err := filepath.EvalSymlinks(r.Name())
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(filepath.Join(r.Name(), rel))
	if err != nil {
		if os.IsNotExist(err) {
			return nil, unix.ENOENT
		}
		return nil, err
	}
	if abs, _ := filepath.Abs(base); abs != "" {
		base = abs
	}
	if abs, _ := filepath.Abs(real); abs != "" {
		real = abs
	}
	if real != base && !strings.HasPrefix(real, base+string(filepath.Separator)) {
		return nil, unix.EXDEV
	}
	fd, err := unix.Open(real, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), real), nil
}
