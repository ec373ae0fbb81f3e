//go:build unix

package fts

import (
	"os"
	"strconv"
	"syscall"
)

// fileID is the identity of the file at path that a copy of it cannot
// keep: its inode number ("" when it cannot be read).
func fileID(path string) string {
	fi, err := os.Stat(path)
	if err != nil {
		return ""
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	return strconv.FormatUint(uint64(st.Ino), 10)
}
