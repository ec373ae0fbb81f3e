package rank

import (
	"reflect"
	"testing"
)

func paths(s []Scored) []string {
	var out []string
	for _, x := range s {
		out = append(out, x.Path)
	}
	return out
}

func TestDefinitionBeatsMentions(t *testing.T) {
	terms := []Term{{Term: "computebackoff", Origin: "code_symbol", Use: "locate", IDF: 1.3}}
	files := []File{
		{Path: "retry/backoff.go", Bytes: 400, Evidence: []TermEvidence{{Term: 0, Definitions: 1, Body: 1}}},
		{Path: "retry/client.go", Bytes: 400, Evidence: []TermEvidence{{Term: 0, Body: 4}}},
	}
	got := paths(Rank(terms, files, Params{Profile: "code_path", AvgBytes: 400}))
	if want := []string{"retry/backoff.go", "retry/client.go"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestCodePathPenalties(t *testing.T) {
	terms := []Term{{Term: "parse", Origin: "exploratory", Use: "exploratory", IDF: 1}}
	ev := []TermEvidence{{Term: 0, Body: 3}}
	files := []File{
		{Path: "CHANGELOG.md", Bytes: 100, Evidence: ev},
		{Path: "parse_test.go", Bytes: 100, Evidence: ev},
		{Path: "vendor/x/parse.go", Bytes: 100, Evidence: ev},
		{Path: "parse.go", Bytes: 100, Evidence: ev},
	}
	got := paths(Rank(terms, files, Params{Profile: "code_path", AvgBytes: 100}))
	if got[0] != "parse.go" || got[len(got)-1] != "CHANGELOG.md" {
		t.Fatalf("code_path order %v: source first, changelog last", got)
	}
	// Without code_path the same evidence ties, broken by path.
	got = paths(Rank(terms, files, Params{Profile: "doctrine_chain", AvgBytes: 100}))
	if want := []string{"CHANGELOG.md", "parse.go", "parse_test.go", "vendor/x/parse.go"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestExcludedAndGenericTerms(t *testing.T) {
	terms := []Term{
		{Term: "legacy", Origin: "caution", Use: "exclude", IDF: 3},
		{Term: "state", Origin: "exploratory", Use: "exploratory", IDF: 2, Generic: true},
		{Term: "cookie", Origin: "exploratory", Use: "exploratory", IDF: 2},
	}
	files := []File{
		{Path: "a.go", Bytes: 100, Evidence: []TermEvidence{{Term: 0, Body: 5}}},
		{Path: "b.go", Bytes: 100, Evidence: []TermEvidence{{Term: 1, Body: 2}}},
		{Path: "c.go", Bytes: 100, Evidence: []TermEvidence{{Term: 2, Body: 2}}},
	}
	got := paths(Rank(terms, files, Params{AvgBytes: 100}))
	if want := []string{"c.go", "b.go"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v (an excluded term scores nothing, a generic one less)", got, want)
	}
}

func TestSaturation(t *testing.T) {
	terms := []Term{{Term: "a", Origin: "exploratory", Use: "exploratory", IDF: 1}, {Term: "b", Origin: "exploratory", Use: "exploratory", IDF: 1}}
	files := []File{
		{Path: "one-term.go", Bytes: 100, Evidence: []TermEvidence{{Term: 0, Body: 100}}},
		{Path: "two-terms.go", Bytes: 100, Evidence: []TermEvidence{{Term: 0, Body: 2}, {Term: 1, Body: 2}}},
	}
	if got := paths(Rank(terms, files, Params{AvgBytes: 100})); got[0] != "two-terms.go" {
		t.Fatalf("a hundred mentions of one term beat two terms: %v", got)
	}
}
