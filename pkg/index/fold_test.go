package index

import (
	mrand "math/rand/v2"
	"testing"
)

// TestFoldWordsByteByByte compares foldWords with a byte loop on every
// byte value, at every offset and length around the eight-byte steps.
func TestFoldWordsByteByByte(t *testing.T) {
	r := mrand.New(mrand.NewPCG(3, 4))
	text := make([]byte, 300)
	for i := range text {
		text[i] = byte(i) // each of the 256 values, then more
	}
	for range 200 {
		for i := 256; i < len(text); i++ {
			text[i] = byte(r.IntN(256))
		}
		r.Shuffle(len(text), func(i, j int) { text[i], text[j] = text[j], text[i] })
		for lo := range 9 {
			for hi := len(text) - 9; hi <= len(text); hi++ {
				got := foldWords(nil, text[lo:hi])
				for k, c := range text[lo:hi] {
					want := c
					if 'A' <= c && c <= 'Z' {
						want = c + 'a' - 'A'
					}
					if got[k] != want {
						t.Fatalf("byte %#x folded to %#x, want %#x", c, got[k], want)
					}
				}
			}
		}
	}
}
