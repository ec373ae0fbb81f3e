package rank

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// A goal that spells one idea twice (restart, restarts) against one that
// names two ideas: grouped, the idea counts once, with the group's IDF and
// the saturated number of spellings, so the file that holds the second
// idea wins; ungrouped, the two spellings outweigh it.
func TestIdeaCountsOnce(t *testing.T) {
	terms := []Term{
		{Term: "restart", Origin: "exploratory", Use: "exploratory", IDF: 2, Group: "restart", GroupIDF: 1.9},
		{Term: "restarts", Origin: "exploratory", Use: "exploratory", IDF: 2.2, Group: "restart", GroupIDF: 1.9},
		{Term: "policy", Origin: "exploratory", Use: "exploratory", IDF: 2},
	}
	files := []File{
		{Path: "a.go", Bytes: 100, Evidence: []TermEvidence{{Term: 0, Body: 4}, {Term: 1, Body: 3}}},
		{Path: "b.go", Bytes: 100, Evidence: []TermEvidence{{Term: 0, Body: 2}, {Term: 2, Body: 2}}},
	}
	got := Rank(terms, files, Params{Profile: "code_path", AvgBytes: 100})
	if want := []string{"b.go", "a.go"}; !reflect.DeepEqual(paths(got), want) {
		t.Fatalf("grouped: got %v, want %v", paths(got), want)
	}
	a := got[1]
	// One term: the group's IDF, the spellings' mentions saturated once
	// (4 + 3), trust 1 times n(k3+1)/(n+k3) = 2·2/3.
	k1 := Default.K1
	want := 1.9 * (2.0 * 2 / 3) * (7 * (k1 + 1) / (7 + k1))
	if math.Abs(a.Score-want) > 1e-3 {
		t.Fatalf("a.go score %v, want %v", a.Score, want)
	}
	if !strings.HasPrefix(a.Why[0], "restart / restarts (exploratory") {
		t.Fatalf("a.go why %q: want the matched spellings", a.Why)
	}
	if !slices.Equal(a.Terms, []string{"restart", "restarts"}) {
		t.Fatalf("a.go terms %v", a.Terms)
	}
	// b.go matched one spelling: its reason names that spelling alone.
	if !slices.Contains(got[0].Why, "restart (exploratory, body×2)") {
		t.Fatalf("b.go why %q", got[0].Why)
	}
	for i := range terms {
		terms[i].Group = ""
	}
	if got := paths(Rank(terms, files, Params{Profile: "code_path", AvgBytes: 100})); got[0] != "a.go" {
		t.Fatalf("ungrouped: got %v, want a.go first (the case the groups change)", got)
	}
}

// A group's fields are the union of its spellings': a definition of one
// and a file name of another both count, once; the mentions add up.
func TestIdeaEvidenceIsTheUnion(t *testing.T) {
	ts := []Term{
		{Term: "backoff", Origin: "code_symbol", Use: "locate", IDF: 2, Group: "backoff"},
		{Term: "back-off", Origin: "exploratory", Use: "exploratory", IDF: 3, Group: "backoff"},
	}
	files := []File{{Path: "retry/backoff.go", Bytes: 100, Evidence: []TermEvidence{
		{Term: 0, Definitions: 1, Body: 2, FileNameExact: true}, {Term: 1, Body: 1, Headings: 1}}}}
	got := Rank(ts, files, Params{Profile: "code_path", AvgBytes: 100})
	why := got[0].Why[0]
	for _, f := range []string{"backoff / back-off (code_symbol", "file name", "definition", "heading", "body×4"} {
		if !strings.Contains(why, f) {
			t.Fatalf("why %q lacks %q", why, f)
		}
	}
	if len(got[0].Why) != 1 {
		t.Fatalf("one idea, one reason: %q", got[0].Why)
	}
	// Without a GroupIDF the commonest spelling's IDF stands for the group.
	w := Default
	w.FileNameExact, w.Definition, w.DefUnique, w.Heading = 0, 0, 0, 0
	plain := Rank(ts[:1], []File{{Path: "x.go", Bytes: 100, Evidence: []TermEvidence{{Term: 0, Body: 2}}}}, Params{Profile: "code_path", AvgBytes: 100, Weights: w})
	grouped := Rank(ts, []File{{Path: "x.go", Bytes: 100, Evidence: []TermEvidence{{Term: 0, Body: 2}, {Term: 1, Body: 1}}}}, Params{Profile: "code_path", AvgBytes: 100, Weights: w})
	sat := func(tf float64) float64 { return tf * (w.K1 + 1) / (tf + w.K1) }
	if r, want := grouped[0].Score/plain[0].Score, 4.0/3*sat(3)/sat(2); math.Abs(r-want) > 1e-3 {
		t.Fatalf("grouped / plain = %v, want %v (the same IDF, 2 + 1 mentions saturated once, two spellings)", r, want)
	}
}
