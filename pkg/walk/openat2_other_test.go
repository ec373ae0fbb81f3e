//go:build !linux

package walk

// openat2Available: only Linux resolves beneath a root.
func openat2Available() bool { return false }
