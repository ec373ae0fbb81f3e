package hydrate

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/schema"
)

// held returns the line ranges of the chunks on path p, in output order.
func held(res *Result, p string) [][2]int {
	var out [][2]int
	for _, c := range res.Chunks {
		if c.Path == p {
			out = append(out, [2]int{c.StartLine, c.EndLine})
		}
	}
	return out
}

func noOverlap(t *testing.T, res *Result) {
	t.Helper()
	lines := map[string]map[int]bool{}
	for _, c := range res.Chunks {
		if lines[c.Path] == nil {
			lines[c.Path] = map[int]bool{}
		}
		for n := c.StartLine; n <= c.EndLine; n++ {
			if lines[c.Path][n] {
				t.Fatalf("%s L%d read twice: %v", c.Path, n, held(res, c.Path))
			}
			lines[c.Path][n] = true
		}
	}
}

func TestDeepenAddsContextWithinBudget(t *testing.T) {
	root := writeTree(t, map[string]string{"a.go": numbered("a", 1000), "b.go": numbered("b", 1000)})
	in := input(schema.RankedSurface{Path: "a.go", Anchors: []int{500}}, schema.RankedSurface{Path: "b.go", Anchors: []int{300}})
	o := opts(root, 100000)
	o.Deepen = true
	res, err := Hydrate(in, o)
	if err != nil {
		t.Fatal(err)
	}
	noOverlap(t, res)
	// The window, then a window below, one above, one more below and one
	// more above, each a window long, in the order they were read.
	want := [][2]int{{480, 520}, {521, 561}, {439, 479}, {562, 602}, {398, 438}}
	if got := held(res, "a.go"); !slices.Equal(got, want) {
		t.Fatalf("a.go chunks %v, want %v", got, want)
	}
	for _, c := range res.Chunks {
		if c.StartLine != 480 && c.StartLine != 280 && !strings.Contains(c.WhyIncluded, "context next to a read range") {
			t.Fatalf("%s: why %q", c.LineRange, c.WhyIncluded)
		}
	}
	// Without deepening only the planned windows are read.
	o.Deepen = false
	res, _ = Hydrate(in, o)
	if len(res.Chunks) != 2 {
		t.Fatalf("%d chunks without deepening", len(res.Chunks))
	}

	// A budget that holds the two windows and half a window more: deepening
	// goes to the better surface first and never exceeds the budget.
	o.Deepen = false
	plain, _ := Hydrate(in, o)
	o.Budget = plain.Spent + plain.Chunks[0].EstTokens/2
	o.Deepen = true
	res, _ = Hydrate(in, o)
	if res.Spent > o.Budget {
		t.Fatalf("spent %d of %d", res.Spent, o.Budget)
	}
	if total := briefCost(res.Chunks); total != res.Spent {
		t.Fatalf("chunks cost %d tokens in the brief, spent %d", total, res.Spent)
	}
	// A full window no longer fits; a narrow one (2×5+1 lines) does.
	if got := held(res, "a.go"); len(got) != 2 || got[1] != [2]int{521, 531} {
		t.Fatalf("a.go chunks %v, want the window and L521-L531 below it", got)
	}
	if got := held(res, "b.go"); len(got) != 1 {
		t.Fatalf("b.go chunks %v, want its window only", got)
	}
}

func TestDeepenRespectsProbeCap(t *testing.T) {
	root := writeTree(t, map[string]string{"a.go": numbered("a", 400)})
	in := input(schema.RankedSurface{Path: "a.go", Anchors: []int{100}})
	// P01's hits below the window (caution phrasing, so they anchor no
	// planned window); its cap is one further chunk.
	in.Hits = []schema.Hit{
		{ProbeID: "P01", Path: "a.go", Line: 125, Term: "x", ConfidenceClass: "caution_only"},
		{ProbeID: "P01", Path: "a.go", Line: 170, Term: "x", ConfidenceClass: "caution_only"},
	}
	o := opts(root, 100000)
	o.Deepen = true
	o.MaxChunksPerProbe = 1
	res, err := Hydrate(in, o)
	if err != nil {
		t.Fatal(err)
	}
	noOverlap(t, res)
	// L121-L161 holds P01's hit at 125 and takes P01's one chunk; L162-L202
	// (hit at 170) is refused; above the window nothing is charged. In the
	// order read: the window, below it, then above it twice.
	want := [][2]int{{80, 120}, {121, 161}, {39, 79}, {1, 38}}
	got := held(res, "a.go")
	if len(got) != len(want) {
		t.Fatalf("chunks %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("chunks %v, want %v", got, want)
		}
	}
}

func TestHitAnchorsFollowRankingAndSpreadTerms(t *testing.T) {
	root := writeTree(t, map[string]string{"a.go": numbered("a", 2000)})
	in := input(schema.RankedSurface{Path: "a.go", Anchors: []int{100}})
	in.Hits = []schema.Hit{
		{ProbeID: "P01", Path: "a.go", Line: 100, Term: "alpha", ConfidenceClass: "hit", Field: "body"},
		// Lines of the already-read term only.
		{ProbeID: "P01", Path: "a.go", Line: 400, Term: "alpha", ConfidenceClass: "hit", Field: "body"},
		{ProbeID: "P01", Path: "a.go", Line: 1500, Term: "alpha", ConfidenceClass: "hit", Field: "body"},
		// A cluster of two new terms.
		{ProbeID: "P02", Path: "a.go", Line: 800, Term: "beta", ConfidenceClass: "hit", Field: "body"},
		{ProbeID: "P03", Path: "a.go", Line: 805, Term: "gamma", ConfidenceClass: "hit", Field: "body"},
		// A definition of one new term.
		{ProbeID: "P02", Path: "a.go", Line: 1200, Term: "beta", ConfidenceClass: "source_bearing_hit", Field: "definition"},
		// Caution phrasing chooses no window.
		{ProbeID: "P04", Path: "a.go", Line: 1800, Term: "deprecated", ConfidenceClass: "caution_only", Field: "body"},
		// Another file, so the terms have a rarity.
		{ProbeID: "P01", Path: "b.go", Line: 1, Term: "alpha", ConfidenceClass: "hit", Field: "body"},
		{ProbeID: "P02", Path: "c.go", Line: 1, Term: "beta", ConfidenceClass: "hit", Field: "body"},
		{ProbeID: "P03", Path: "d.go", Line: 1, Term: "gamma", ConfidenceClass: "hit", Field: "body"},
	}
	h := &hydrator{in: in, o: opts(root, 8000)}
	h.index()
	sf := &surface{rs: in.Rank.Surfaces[0]}
	got := h.anchors(sf)
	// The ranking's anchor first; then the definition of beta (its bonus
	// outweighs a cluster of two body terms), then the cluster, which still
	// brings gamma, then the lines of the already-read alpha by position.
	want := []int{100, 1200, 800, 400, 1500}
	if len(got) != len(want) {
		t.Fatalf("anchors %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("anchors %v, want %v", got, want)
		}
	}
	// Without the ranking's anchors the hit lines by strength serve, as before.
	sf = &surface{rs: schema.RankedSurface{Path: "a.go"}}
	if got := h.anchors(sf); got[0] != 1200 {
		t.Fatalf("anchors without ranking %v", got)
	}
}

// TestWindowsWhereTermsCluster: the probe keeps a few hit positions per term
// and file; hydration finds every occurrence in the file itself, so its next
// window goes where the rare terms occur together, not to the kept hits.
func TestWindowsWhereTermsCluster(t *testing.T) {
	var text strings.Builder
	for i := 1; i <= 2000; i++ {
		switch {
		case i == 100:
			text.WriteString("func alpha() {\n")
		case i == 300:
			text.WriteString("\t// beta alone\n")
		case i == 1700:
			text.WriteString("\t// gamma alone\n")
		case i >= 1000 && i <= 1003:
			text.WriteString("\tbeta := gamma(x) // beta and gamma\n")
		default:
			fmt.Fprintf(&text, "\tx%d := %d\n", i, i)
		}
	}
	root := writeTree(t, map[string]string{"a.go": text.String()})
	in := input(schema.RankedSurface{Path: "a.go", Anchors: []int{100}})
	in.Hits = []schema.Hit{
		{ProbeID: "P01", Path: "a.go", Line: 100, Term: "alpha", ConfidenceClass: "hit", Field: "body"},
		// The kept positions of beta and gamma are the lone mentions.
		{ProbeID: "P02", Path: "a.go", Line: 300, Term: "beta", ConfidenceClass: "hit", Field: "body"},
		{ProbeID: "P03", Path: "a.go", Line: 1700, Term: "gamma", ConfidenceClass: "hit", Field: "body"},
		{ProbeID: "P02", Path: "c.go", Line: 1, Term: "beta", ConfidenceClass: "hit", Field: "body"},
	}
	h := &hydrator{in: in, o: opts(root, 8000)}
	h.index()
	f, err := ReadFile(root, "a.go", 0)
	if err != nil {
		t.Fatal(err)
	}
	sf := &surface{rs: in.Rank.Surfaces[0], file: f}
	got := h.anchors(sf)
	if len(got) < 2 || got[0] != 100 || got[1] < 1000 || got[1] > 1003 {
		t.Fatalf("anchors %v, want the ranking's 100, then the beta+gamma cluster at L1000-L1003", got)
	}
	// A window there holds no kept hit: it counts against a probe whose term
	// occurs in it.
	st := &step{seg: segment{s: 990, e: 1010, target: 1000, anchors: []int{1000}}}
	if p, full := h.charge(sf, st); p != "P02" && p != "P03" || full {
		t.Fatalf("charged to %q (full %v), want P02 or P03", p, full)
	}
}

func TestHalfFirstWindowBelowTheTop(t *testing.T) {
	files := map[string]string{}
	var ss []schema.RankedSurface
	for i := 0; i < fullFirstTop+2; i++ {
		p := string(rune('a'+i)) + ".go"
		files[p] = numbered(p, 1000)
		ss = append(ss, schema.RankedSurface{Path: p, Anchors: []int{500, 800}})
	}
	root := writeTree(t, files)
	res, err := Hydrate(input(ss...), opts(root, 100000))
	if err != nil {
		t.Fatal(err)
	}
	noOverlap(t, res)
	for i, sf := range ss {
		got := held(res, sf.Path)
		first := [2]int{480, 520}
		if i >= fullFirstTop {
			first = [2]int{490, 510}
		}
		if len(got) != 2 || got[0] != first || got[1] != [2]int{780, 820} {
			t.Fatalf("rank %d: chunks %v, want %v and L780-L820", i+1, got, first)
		}
		for _, c := range res.Chunks {
			if c.Path == sf.Path && c.StartLine == first[0] && i >= fullFirstTop && !strings.Contains(c.WhyIncluded, "±10 lines around L500 (half a window") {
				t.Fatalf("rank %d: why %q", i+1, c.WhyIncluded)
			}
		}
	}
}

// TestBestFileDeepFirst: the first surface in fill order takes its
// topDepth further windows before ranks 2 and 3 take theirs; the budget here
// holds about twenty windows.
func TestBestFileDeepFirst(t *testing.T) {
	in, root := longFiles(t)
	res, err := Hydrate(in, opts(root, 8000))
	if err != nil {
		t.Fatal(err)
	}
	noOverlap(t, res)
	a, b, c := held(res, "a.go"), held(res, "b.go"), held(res, "c.go")
	if len(a) != 1+topDepth || len(b) > 2 || len(c) > 2 {
		t.Fatalf("windows: a.go %d (want %d), b.go %d, c.go %d (want at most 2 each)", len(a), 1+topDepth, len(b), len(c))
	}
}
