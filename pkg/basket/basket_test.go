package basket

import (
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/scout"
)

func stats(df int, cs ...scout.Confirmation) *scout.TermStats {
	ts := &scout.TermStats{DF: df, ConfirmCount: map[string]int{}}
	for _, c := range cs {
		ts.Confirmations = append(ts.Confirmations, c)
		ts.ConfirmCount[c.Kind]++
	}
	return ts
}

func TestBuild(t *testing.T) {
	in := schema.Intake{IntakeFields: schema.IntakeFields{
		Goal:                  "ComputeBackoff in ADR-12 ignores the Retry heading; the handler state is stale; fix it",
		ExplicitSeeds:         []string{"retry_limit"},
		ForbiddenAssumptions:  []string{"legacy/**", "cache"},
		KnownNeighborSurfaces: []string{"docs/retries.md"},
	}, GoalTerms: []schema.GoalTerm{
		{Term: "ComputeBackoff", Kind: "identifier"}, {Term: "retry", Kind: "word"}, {Term: "handler", Kind: "word"},
		{Term: "state", Kind: "word"}, {Term: "stale", Kind: "word"}, {Term: "fix", Kind: "word"}, {Term: "cache", Kind: "word"},
		{Term: "____", Kind: "identifier"},
	}}
	res := &scout.Result{Terms: map[string]*scout.TermStats{
		"computebackoff": stats(2, scout.Confirmation{Kind: "code_symbol", Path: "retry/backoff.go", Line: 12}),
		"retry":          stats(5, scout.Confirmation{Kind: "heading", Path: "README.md", Line: 3}, scout.Confirmation{Kind: "dir_name", Path: "retry"}),
		"handler":        stats(4, scout.Confirmation{Kind: "code_symbol", Path: "server/handler.go", Line: 6}),
		"state":          stats(3),
		"stale":          stats(0),
		"fix":            stats(9),
		"retry_limit":    stats(1),
		"adr-12":         stats(1),
		"____":           stats(3),
	}}
	res.Shape.Corpus.Docs = 10
	out := Build(Input{Intake: in, Scout: res})
	got := map[string]string{}
	for _, c := range out.Candidates {
		got[c.Term] = c.Origin + "/" + c.Use
	}
	want := map[string]string{
		"retry_limit":     "explicit_seed/locate",
		"ADR-12":          "durable_handle/locate",
		"ComputeBackoff":  "code_symbol/locate",
		"retry":           "file_path/locate",   // a directory outranks a heading
		"handler":         "code_symbol/locate", // paired by the durable handle in the goal
		"____":            "noise/exploratory",
		"state":           "exploratory/exploratory",
		"stale":           "noise/exploratory",
		"fix":             "noise/exploratory",
		"legacy/**":       "caution/exclude",
		"cache":           "caution/exclude",
		"docs/retries.md": "ref_neighborhood/neighbor_only",
	}
	for term, w := range want {
		if got[term] != w {
			t.Errorf("%s: got %q, want %q", term, got[term], w)
		}
	}
	// A durable handle in the goal pairs generic terms.
	if ws := strings.Join(out.Basket.GenericAloneWarnings, ","); ws != "" {
		t.Errorf("generic warnings %q, want none: the goal names a durable handle", ws)
	}
	if len(out.Candidates) != out.Basket.TermCount {
		t.Errorf("term_count %d, candidates %d", out.Basket.TermCount, len(out.Candidates))
	}
	// Most trusted origin first.
	for i := 1; i < len(out.Candidates); i++ {
		if OriginRank[out.Candidates[i].Origin] < OriginRank[out.Candidates[i-1].Origin] {
			t.Fatalf("candidates out of trust order at %d: %s after %s", i, out.Candidates[i].Origin, out.Candidates[i-1].Origin)
		}
	}
	if c := find(out.Candidates, "ComputeBackoff"); c.IDF <= find(out.Candidates, "retry").IDF || c.DF != 2 {
		t.Errorf("df/idf: ComputeBackoff df %d idf %v, retry idf %v", c.DF, c.IDF, find(out.Candidates, "retry").IDF)
	}
}

func TestPairingWithoutHandle(t *testing.T) {
	in := schema.Intake{IntakeFields: schema.IntakeFields{Goal: "the handler state is stale"},
		GoalTerms: []schema.GoalTerm{{Term: "handler", Kind: "word"}, {Term: "state", Kind: "word"}}}
	res := &scout.Result{Terms: map[string]*scout.TermStats{
		"handler": stats(4, scout.Confirmation{Kind: "file_name", Path: "server/handler.go"}),
		"state":   stats(3, scout.Confirmation{Kind: "code_symbol", Path: "x.go", Line: 2}),
	}}
	out := Build(Input{Intake: in, Scout: res})
	if w := strings.Join(out.Basket.GenericAloneWarnings, ","); w != "state" {
		t.Fatalf("generic_alone_warnings %q, want state (a file name pairs handler, a symbol does not pair state)", w)
	}
	if c := find(out.Candidates, "handler"); c.Origin != "file_path" {
		t.Errorf("handler origin %q, want file_path", c.Origin)
	}
}

func TestTestSubject(t *testing.T) {
	for in, want := range map[string]string{"test_pycode_ast.py": "pycode_ast.py", "tests/test_models.py": "models.py",
		"parse_test.go": "parse.go", "widget.test.ts": "widget.ts", "FooTest.java": "Foo.java", "foo_spec.rb": "foo.rb",
		"models.py": "", "test_": "", "latest.go": ""} {
		if got := TestSubject(in); got != want {
			t.Errorf("TestSubject(%q) = %q, want %q", in, got, want)
		}
	}
}

func find(cs []schema.Candidate, term string) schema.Candidate {
	for _, c := range cs {
		if c.Term == term {
			return c
		}
	}
	return schema.Candidate{}
}

func TestLeadVerb(t *testing.T) {
	for goal, want := range map[string]int{
		"Remove race conditions from screen update":     0,
		"api: return structured error for failed calls": 5,
		"fix(release): use the tag name":                14,
		"cmd, api: remove the old client":               10,
		"  * Avoid panic on length mismatch":            4,
		"Fix `release download`":                        -1, // fix is a process word of its own
		"screen update is racy":                         -1,
		"Unicode method names cause UnicodeDecodeError": -1,
		"": -1,
	} {
		if got := leadVerb(goal); got != want {
			t.Errorf("leadVerb(%q) = %d, want %d", goal, got, want)
		}
	}
}

func TestLeadChangeVerbIsProcess(t *testing.T) {
	goal := "Add detail to the update message\n\nThe add command fails"
	in := schema.Intake{IntakeFields: schema.IntakeFields{Goal: "Remove race conditions from screen update"},
		GoalTerms: []schema.GoalTerm{{Term: "remove", Kind: "word", Offset: 0, Length: 6, Count: 1},
			{Term: "update", Kind: "word", Offset: 35, Length: 6, Count: 1}}}
	res := &scout.Result{Terms: map[string]*scout.TermStats{"remove": stats(4), "update": stats(3)}}
	out := Build(Input{Intake: in, Scout: res})
	if c := find(out.Candidates, "remove"); c.Origin != "noise" {
		t.Errorf("leading change verb: origin %q, want noise", c.Origin)
	}
	if c := find(out.Candidates, "update"); c.Origin != "exploratory" {
		t.Errorf("the same kind of verb as the object (screen update): origin %q, want exploratory", c.Origin)
	}
	// A leading verb the goal repeats elsewhere is a topic too; one that
	// names a directory by chance (pkg/cmd/ssh-key/add) is still the verb.
	in = schema.Intake{IntakeFields: schema.IntakeFields{Goal: goal},
		GoalTerms: []schema.GoalTerm{{Term: "add", Kind: "word", Offset: 0, Length: 3, Count: 2},
			{Term: "detail", Kind: "word", Offset: 4, Length: 6, Count: 1}}}
	res = &scout.Result{Terms: map[string]*scout.TermStats{"add": stats(4, scout.Confirmation{Kind: "dir_name", Path: "cmd/add"}), "detail": stats(2)}}
	if c := find(Build(Input{Intake: in, Scout: res}).Candidates, "add"); c.Origin != "file_path" {
		t.Errorf("repeated leading verb: origin %q, want file_path", c.Origin)
	}
	in.GoalTerms[0].Count = 1
	if c := find(Build(Input{Intake: in, Scout: res}).Candidates, "add"); c.Origin != "noise" {
		t.Errorf("leading verb that names a directory: origin %q, want noise", c.Origin)
	}
}

func TestIssueIsProcessUnlessShaped(t *testing.T) {
	in := schema.Intake{IntakeFields: schema.IntakeFields{Goal: "added fix for empty body in issue preview"},
		GoalTerms: []schema.GoalTerm{{Term: "issue", Kind: "word", Offset: 29, Length: 5, Count: 1},
			{Term: "issues", Kind: "word", Offset: 40, Length: 6, Count: 1}}}
	res := &scout.Result{Terms: map[string]*scout.TermStats{"issue": stats(4, scout.Confirmation{Kind: "dir_name", Path: "pkg/cmd/issue"}), "issues": stats(3)}}
	out := Build(Input{Intake: in, Scout: res})
	if c := find(out.Candidates, "issue"); c.Origin != "file_path" {
		t.Errorf("issue naming a directory: origin %q, want file_path", c.Origin)
	}
	if c := find(out.Candidates, "issues"); c.Origin != "noise" {
		t.Errorf("issues without shape: origin %q, want noise", c.Origin)
	}
}

// TestAbbreviationNeedsANameInTheTree: the short form of a goal word is
// searched only where the tree names something with it; one found in body
// text alone is noise, never probed.
func TestAbbreviationNeedsANameInTheTree(t *testing.T) {
	in := schema.Intake{IntakeFields: schema.IntakeFields{Goal: "the parser rejects valid options in a request"},
		GoalTerms: []schema.GoalTerm{{Term: "options", Kind: "word", Offset: 24, Length: 7, Count: 1},
			{Term: "opts", Kind: "abbreviation", Offset: 24, Length: 7, Count: 1, Parent: "options"},
			{Term: "req", Kind: "abbreviation", Offset: 37, Length: 7, Count: 1, Parent: "request"}}}
	res := &scout.Result{Terms: map[string]*scout.TermStats{
		"options": stats(9), "req": stats(40),
		"opts": stats(6, scout.Confirmation{Kind: "code_symbol", Path: "parse/opts.go", Line: 3}),
	}}
	out := Build(Input{Intake: in, Scout: res})
	if c := find(out.Candidates, "opts"); c.Origin != "code_symbol" {
		t.Errorf("abbreviation defined in the tree: origin %q, want code_symbol", c.Origin)
	}
	if c := find(out.Candidates, "req"); c.Origin != "noise" || !strings.Contains(c.Notes, `abbreviation of the goal word "request"`) {
		t.Errorf("abbreviation in body text only: origin %q (%s), want noise", c.Origin, c.Notes)
	}
	if c := find(out.Candidates, "options"); c.Origin != "exploratory" {
		t.Errorf("the goal word itself: origin %q, want exploratory", c.Origin)
	}
}
