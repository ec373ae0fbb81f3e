package pathenc

import (
	"io/fs"
	"os"
	"path/filepath"
)

// DirFS is os.DirFS(dir) with names spelt as in records: ReadDir hands out
// encoded names and Open decodes them. os.DirFS refuses a name that is not
// UTF-8 (fs.ValidPath), so a tree holding one could not be walked through
// io/fs at all; through DirFS such a file is listed and read. Decoding never
// makes a '/' or a '.', so the names Open accepts stay below dir.
type DirFS string

// Open opens the file that the encoded name spells.
func (d DirFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	f, err := os.Open(d.join(name))
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: unwrap(err)}
	}
	return f, nil
}

// ReadDir lists the directory the encoded name spells, names encoded.
func (d DirFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	ents, err := os.ReadDir(d.join(name))
	for i, e := range ents {
		if n := Encode(e.Name()); n != e.Name() {
			ents[i] = entry{e, n}
		}
	}
	if err != nil {
		return ents, &fs.PathError{Op: "readdir", Path: name, Err: unwrap(err)}
	}
	return ents, nil
}

func (d DirFS) join(name string) string {
	return filepath.Join(string(d), filepath.FromSlash(Decode(name)))
}

type entry struct {
	fs.DirEntry
	name string
}

func (e entry) Name() string { return e.name }

func unwrap(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}
