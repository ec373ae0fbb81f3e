package hydrate

import (
	"strconv"
	"strings"
	"testing"
)

func TestParseRange(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Range
	}{
		{"pkg/a.go:L10-L20", Range{Path: "pkg/a.go", Start: 10, End: 20}},
		{"pkg/a.go:10-20", Range{Path: "pkg/a.go", Start: 10, End: 20}},
		{"pkg/a.go:L7", Range{Path: "pkg/a.go", Line: 7}},
		{"pkg/a.go:7", Range{Path: "pkg/a.go", Line: 7}},
		{"odd:name.txt:L1-L1", Range{Path: "odd:name.txt", Start: 1, End: 1}},
		{"with space/x y.md:L3-L4", Range{Path: "with space/x y.md", Start: 3, End: 4}},
	} {
		got, err := ParseRange(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseRange(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
		if r2, err := ParseRange(got.String()); err != nil || r2 != got {
			t.Errorf("round trip of %q: %+v %v", c.in, r2, err)
		}
	}
	for _, bad := range []string{"", "a.go", "a.go:", ":L1-L2", "a.go:L0-L3", "a.go:L5-L3", "a.go:Lx", "a.go:L-L2",
		"a.go:L1-", "a.go:+5", "a.go:-5", "a.go:99999999999999999999", "a.go:L1-L2-L3", "a\x00.go:1"} {
		if r, err := ParseRange(bad); err == nil {
			t.Errorf("ParseRange(%q) = %+v, want an error", bad, r)
		} else if !strings.HasPrefix(err.Error(), strconv.Quote(bad)) {
			t.Errorf("ParseRange(%q): error %q does not name the argument", bad, err)
		}
	}
}

func FuzzParseRange(f *testing.F) {
	for _, s := range []string{"pkg/a.go:L10-L20", "a:7", "a:b:L1-L2", "x:L0", "x:l3-l9", ":", "a:L1-L", "a:1-2-3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRange(s)
		if err != nil {
			return
		}
		if r.Path == "" {
			t.Fatalf("%q: empty path accepted", s)
		}
		if r.IsWindow() {
			if r.Line < 1 || r.Line > MaxLineNumber || r.Start != 0 || r.End != 0 {
				t.Fatalf("%q: bad window %+v", s, r)
			}
		} else if r.Start < 1 || r.End < r.Start || r.End > MaxLineNumber {
			t.Fatalf("%q: bad range %+v", s, r)
		}
		r2, err := ParseRange(r.String())
		if err != nil || r2 != r {
			t.Fatalf("%q: canonical form %q does not round-trip: %+v %v", s, r.String(), r2, err)
		}
	})
}
