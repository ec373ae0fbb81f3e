package tokens

import "testing"

func TestEstimateCountsCodePoints(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{
		{"", 0},
		{"a", 1},
		{"abcd", 1},
		{"abcde", 2},
		{"héllo wörld", 3}, // 11 code points, 13 bytes
		{"日本語の文", 2},       // 5 code points
		{"\xff\xfe", 1},    // invalid bytes count as one code point each
	} {
		if got := Estimate(c.in); got != c.want {
			t.Errorf("Estimate(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}
