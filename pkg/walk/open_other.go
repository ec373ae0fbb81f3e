//go:build !unix

package walk

import "os"

// openNoFollow opens a file for reading. Without O_NOFOLLOW the symlink
// check relies on the walk's Lstat.
func openNoFollow(path string) (*os.File, error) {
	return os.Open(path)
}
