//go:build !linux

package walk

import (
	"io/fs"
	"os"
)

// dirent is one directory entry as listed: its name and its type bits
// (typeUnknown when the file system did not say).
type dirent struct {
	name string
	typ  fs.FileMode
}

const typeUnknown fs.FileMode = 1<<32 - 1

// dirHandle is the portable fallback: entries are stat'ed by full path.
type dirHandle struct{}

func openDir(abs string, _ bool, _ []byte) (dirHandle, []dirent, error) {
	f, err := os.Open(abs)
	if err != nil {
		return dirHandle{}, nil, err
	}
	defer f.Close()
	list, err := f.ReadDir(-1)
	ents := make([]dirent, 0, len(list))
	for _, e := range list {
		ents = append(ents, dirent{name: e.Name(), typ: e.Type()})
	}
	return dirHandle{}, ents, err
}

func (dirHandle) lstat(abs, _ string) (int64, fs.FileMode, error) {
	st, err := os.Lstat(abs)
	if err != nil {
		return 0, 0, err
	}
	return st.Size(), st.Mode().Type(), nil
}

func (dirHandle) close() {}
