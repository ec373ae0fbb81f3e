//go:build !unix

package fts

import (
	"context"
	"os"
)

// lockPath only closes f where flock is not available: SQLite still
// serialises the refresh transactions, but two processes rebuilding the
// index at once are not kept apart.
func lockPath(_ context.Context, f *os.File) (func(), error) { return func() { f.Close() }, nil }
