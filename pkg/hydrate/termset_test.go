package hydrate

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/schema"
)

// TestLaterWindowsGoToUncoveredTerms: after the ranking's window (alpha,
// beta), the next goes to a lone new term (gamma) before a cluster of the
// two the first window holds, which count a quarter; then to that cluster.
func TestLaterWindowsGoToUncoveredTerms(t *testing.T) {
	var text strings.Builder
	for i := 1; i <= 2000; i++ {
		switch i {
		case 100:
			text.WriteString("alpha(beta)\n")
		case 1000:
			text.WriteString("alpha(beta) // again\n")
		case 1500:
			text.WriteString("gamma()\n")
		default:
			fmt.Fprintf(&text, "x%d := %d\n", i, i)
		}
	}
	root := writeTree(t, map[string]string{"a.go": text.String()})
	in := input(schema.RankedSurface{Path: "a.go", Anchors: []int{100}})
	for _, term := range []string{"alpha", "beta", "gamma"} {
		line := map[string]int{"alpha": 100, "beta": 100, "gamma": 1500}[term]
		in.Hits = append(in.Hits, schema.Hit{ProbeID: "P01", Path: "a.go", Line: line, Term: term, ConfidenceClass: "hit", Field: "body"})
	}
	h := &hydrator{in: in, o: opts(root, 8000)}
	h.index()
	f, err := ReadFile(root, "a.go", 0)
	if err != nil {
		t.Fatal(err)
	}
	got := h.anchors(&surface{rs: in.Rank.Surfaces[0], file: f})
	if want := []int{100, 1500, 1000}; !slices.Equal(got, want) {
		t.Fatalf("anchors %v, want %v", got, want)
	}
}

func TestTermSet(t *testing.T) {
	s, o := newTermSet(130), newTermSet(130)
	for _, i := range []int{0, 63, 64, 129} {
		s.add(i)
	}
	o.add(5)
	o.add(64)
	s.addAll(o)
	if got := slices.Collect(s.all()); !slices.Equal(got, []int{0, 5, 63, 64, 129}) || s.len() != 5 {
		t.Fatalf("set %v (len %d)", got, s.len())
	}
	if s.has(1) || !s.has(129) || len(newTermSet(64)) != 1 || len(newTermSet(65)) != 2 {
		t.Fatal("has or size wrong")
	}
}
