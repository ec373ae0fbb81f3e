package walk

import (
	"context"
	"os"
)

// Lister lists a tree's candidate files with Files' contract (sorted, skips
// and warnings delivered after the listing). A long-lived process that keeps
// the listing between runs (rtch-mcp) hands the stages its own; nil means
// Files.
type Lister func(ctx context.Context, o Options, skip func(Skip)) ([]File, error)

// List runs l, or Files when l is nil.
func (l Lister) List(ctx context.Context, o Options, skip func(Skip)) ([]File, error) {
	if l == nil {
		return Files(ctx, o, skip)
	}
	return l(ctx, o, skip)
}

// Restat looks at a listed file again with lstat, as a new walk would: ok is
// false when it is gone, no longer a regular file, or now over the size cap
// of o, or cannot be looked at: its place in a listing would change (a skip
// now, or nothing). A file whose bytes changed in place keeps its entry with
// the new size and identity.
func Restat(f File, o Options) (File, bool) {
	fi, err := os.Lstat(f.Abs)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > o.maxSize() {
		return f, false
	}
	f.Size, f.ID = fi.Size(), identOf(fi)
	return f, true
}
