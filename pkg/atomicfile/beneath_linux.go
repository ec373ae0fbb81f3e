package atomicfile

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// openBeneath opens the directory rel under r with openat2 RESOLVE_BENEATH:
// symlinks that stay beneath r are followed, any way out fails with EXDEV.
// Kernels without openat2 (before 5.6) get the portable walk.
func openBeneath(r *os.File, rel string) (*os.File, error) {
	how := unix.OpenHow{Flags: unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC, Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS}
	fd, err := unix.Openat2(int(r.Fd()), rel, &how)
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) {
		return walkBeneath(r, rel)
	}
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), rel), nil
}
