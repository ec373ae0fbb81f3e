//go:build !unix

package walk

import "io/fs"

// identOf gives no identity where the platform has no inode: an index then
// trusts no entry.
func identOf(fs.FileInfo) Ident { return Ident{} }
