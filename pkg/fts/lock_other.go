//go:build !unix

package fts

import "context"

// lockPath is a no-op where flock is not available: SQLite still serialises
// the refresh transactions, but two processes rebuilding the index at once
// are not kept apart.
func lockPath(context.Context, string) (func(), error) { return func() {}, nil }
