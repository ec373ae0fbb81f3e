//go:build unix

package cputime

import "testing"

// TestSelfGrows fails if the reading does not follow work done by this
// process.
func TestSelfGrows(t *testing.T) {
	before := Self()
	x := 0
	for i := 0; Self()-before < 2e6 && i < 1e10; i++ {
		x += i
	}
	if Self() <= before {
		t.Fatalf("cpu time did not grow: %v then %v (x=%d)", before, Self(), x)
	}
}
