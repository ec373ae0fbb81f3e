//go:build !linux

package wiki

import "os"

// readDir lists the open directory d.
func readDir(d *os.File) ([]dirEntry, error) {
	des, err := d.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	ents := make([]dirEntry, len(des))
	for i, e := range des {
		ents[i] = dirEntry{name: e.Name(), dir: e.IsDir()}
	}
	return ents, nil
}
