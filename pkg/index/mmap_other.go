//go:build !unix

package index

import "os"

// mapFile reads path whole where there is no mmap.
func mapFile(path string) ([]byte, *os.File, func(), error) {
	data, err := os.ReadFile(path)
	return data, nil, func() {}, err
}

// dropPages does nothing where the index is read whole.
func dropPages([]byte) {}
