//go:build unix

package walk

import (
	"io/fs"
	"syscall"
)

// identOf is the identity of a file from its FileInfo.
func identOf(fi fs.FileInfo) Ident {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return Ident{}
	}
	return Ident{Dev: uint64(st.Dev), Ino: uint64(st.Ino), MtimeNs: fi.ModTime().UnixNano(), CtimeNs: ctimeNs(st)}
}
