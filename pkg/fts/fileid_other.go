//go:build !unix

package fts

// fileID is "" where os.Stat reports no inode: the index is not bound to
// its file there.
func fileID(string) string { return "" }
