//go:build !linux

package walk

import (
	"io/fs"
	"os"
)

// dirent is one directory entry as listed: its absolute path (directory
// prefix + name; name is its tail) and its type bits (typeUnknown when
// the file system did not say).
type dirent struct {
	abs  string
	name string
	typ  fs.FileMode
}

const typeUnknown fs.FileMode = 1<<32 - 1

// dirHandle is the portable fallback: entries are stat'ed by full path.
type dirHandle struct{}

func openDir(abs, prefix string, _ bool, _ []byte) (dirHandle, []dirent, error) {
	f, err := os.Open(abs)
	if err != nil {
		return dirHandle{}, nil, err
	}
	defer f.Close()
	list, err := f.ReadDir(-1)
	ents := make([]dirent, 0, len(list))
	for _, e := range list {
		p := prefix + e.Name()
		ents = append(ents, dirent{abs: p, name: p[len(prefix):], typ: e.Type()})
	}
	return dirHandle{}, ents, err
}

func (dirHandle) lstat(abs, _ string) (int64, fs.FileMode, Ident, error) {
	st, err := os.Lstat(abs)
	if err != nil {
		return 0, 0, Ident{}, err
	}
	return st.Size(), st.Mode().Type(), identOf(st), nil
}

func (dirHandle) close() {}
