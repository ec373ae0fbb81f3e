package hydrate

import (
	"fmt"
	"testing"

	"github.com/rtch/rtch/pkg/protect"
	"github.com/rtch/rtch/pkg/schema"
)

// BenchmarkHydrate fills the normal budget from a ranking of 100 surfaces of
// 600 lines, five target lines each, with the real protection (injection
// probe and redaction) on every chunk taken.
func BenchmarkHydrate(b *testing.B) {
	files := map[string]string{}
	var ss []schema.RankedSurface
	for i := 0; i < 100; i++ {
		p := fmt.Sprintf("pkg/m%03d/file.go", i)
		files[p] = numbered(p, 600)
		ss = append(ss, schema.RankedSurface{Path: p, Anchors: []int{50, 170, 290, 410, 530}})
	}
	root := writeTree(b, files)
	in := input(ss...)
	o := opts(root, 8000)
	o.Protect = func(s string) (string, []string) {
		flags := protect.Flags(protect.Probe(s))
		out, rules := protect.Redact(s)
		for _, r := range rules {
			flags = append(flags, "redacted:"+r)
		}
		return out, flags
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := Hydrate(in, o)
		if err != nil || res.Spent > 8000 {
			b.Fatal(err, res.Spent)
		}
	}
}
