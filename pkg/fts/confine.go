package fts

import (
	"errors"
	"io/fs"
	"os"
	"path"

	"github.com/rtch/rtch/pkg/atomicfile"
)

// dbName is the database's file name in its directory.
var dbName = path.Base(RelPath)

// openIndexDir opens the index's directory beneath root with no symlink
// on the way (creating it, mode 0755, when create is set), and checks the
// files SQLite opens there by path (checkIndexFiles).
func openIndexDir(root string, create bool) (*atomicfile.Dir, error) {
	perm := os.FileMode(0)
	if create {
		perm = 0o755
	}
	d, err := atomicfile.OpenDir(root, path.Dir(RelPath), perm)
	if err != nil {
		return nil, err
	}
	if err := d.Check(dbName, dbName+"-journal", dbName+"-wal", dbName+"-shm"); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// checkIndexFiles refuses an index whose directory is reached through a
// symlink, or whose database, journal, WAL or shared-memory file is one
// (or not a regular file). SQLite opens those by path and follows a link
// on the way, so this runs right before every open: what a hostile tree
// plants there is refused, never written through. A missing directory is
// fine (there is no index yet).
func checkIndexFiles(root string) error {
	d, err := openIndexDir(root, false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return d.Close()
}
