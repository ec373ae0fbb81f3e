//go:build unix

package walk

import (
	"fmt"
	"syscall"
)

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }
