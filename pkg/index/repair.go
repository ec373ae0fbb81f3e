package index

import "github.com/rtch/rtch/pkg/walk"

// Repair rewrites the index without what this run found damaged (an
// entry that failed its checksum, a dictionary), for a run that reads the
// index but does not save it (rtch-probe): otherwise a damage only such a
// run reads is found, and warned about as being rebuilt, on every run. The
// damaged entries' files are read and stored afresh by the next run that
// saves (rtch-scout); every other entry is copied as it is. It writes
// nothing when nothing was found damaged, or when another run holds the
// lock (that run rewrites it).
func (ix *Index) Repair() (wrote bool, err error) {
	if ix == nil || !ix.damage {
		return false, nil
	}
	files := make([]walk.File, len(ix.table))
	for i, e := range ix.table {
		files[i] = walk.File{Path: e.path, Size: e.size, ID: e.id}
	}
	return ix.Save(files)
}
