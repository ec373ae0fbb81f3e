package rank

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
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

func TestSpreadLiftsHelperOfTopFile(t *testing.T) {
	scored := []Scored{
		{File: File{Path: "release/create/create.go"}, Score: 40},
		{File: File{Path: "release/shared/fetch.go"}, Score: 23},
		{File: File{Path: "extension/http.go"}, Score: 21},
		{File: File{Path: "release/view/view.go"}, Score: 19},
		{File: File{Path: "release/upload/upload.go"}, Score: 18.5},
		{File: File{Path: "release/create/http.go"}, Score: 13},
		{File: File{Path: "release/create/create_test.go"}, Score: 12},
	}
	links := []Link{
		{From: "release/create/create.go", To: "release/create/http.go", Uses: 7},
		{From: "release/create/create.go", To: "release/create/create_test.go", Uses: 7},
	}
	got := Spread(scored, links, Default)
	if p := paths(got); !slices.Contains(p[:5], "release/create/http.go") {
		t.Fatalf("helper not lifted into the top five: %v", p)
	}
	for i, s := range got {
		if s.Path == "release/create/http.go" {
			lead := min(Default.SpreadLead, 40.0/23)
			if want := math.Round((13+Default.SpreadShare*lead*40)*10000) / 10000; s.Score != want {
				t.Errorf("lifted score %v, want %v", s.Score, want)
			}
			if len(s.Why) == 0 {
				t.Error("a lifted file says why")
			}
		}
		if s.Path == "release/create/create_test.go" && s.Score != 12 {
			t.Errorf("a test file was lifted to %v (rank %d)", s.Score, i+1)
		}
	}
}

// TestSpreadGrowsWithTheLead: the share a neighbour gains grows with how
// far the top file leads the second, up to SpreadLead times.
func TestSpreadGrowsWithTheLead(t *testing.T) {
	gain := func(second float64) float64 {
		scored := []Scored{
			{File: File{Path: "a.go"}, Score: 10},
			{File: File{Path: "b.go"}, Score: second},
			{File: File{Path: "c.go"}, Score: 1},
		}
		for _, s := range Spread(scored, []Link{{From: "a.go", To: "c.go", Uses: 9}}, Default) {
			if s.Path == "c.go" {
				return s.Score - 1
			}
		}
		t.Fatal("c.go lost")
		return 0
	}
	base := Default.SpreadShare * 10
	for _, c := range []struct{ second, want float64 }{
		{10, base},                     // level: the plain share
		{8, base * 10 / 8},             // a 25 % lead
		{2, base * Default.SpreadLead}, // a 5× lead, capped
	} {
		if got := gain(c.second); math.Abs(got-c.want) > 1e-3 {
			t.Errorf("second at %v: gain %v, want %v", c.second, got, c.want)
		}
	}
	w := Default
	w.SpreadLead = 0
	scored := []Scored{{File: File{Path: "a.go"}, Score: 10}, {File: File{Path: "b.go"}, Score: 2}, {File: File{Path: "c.go"}, Score: 1}}
	for _, s := range Spread(scored, []Link{{From: "a.go", To: "c.go", Uses: 9}}, w) {
		if s.Path == "c.go" && s.Score != 1+base {
			t.Errorf("SpreadLead 0 scales the share: %v", s.Score)
		}
	}
}

// TestSpreadSharedHelper: a file each of the three best files uses is
// raised, never above the second file; one that only two of them use, or a
// test file, is not.
func TestSpreadSharedHelper(t *testing.T) {
	scored := []Scored{
		{File: File{Path: "a.go"}, Score: 10},
		{File: File{Path: "b.go"}, Score: 9.9},
		{File: File{Path: "c.go"}, Score: 9.8},
		{File: File{Path: "d.go"}, Score: 5},
		{File: File{Path: "shared.go"}, Score: 4.9},
		{File: File{Path: "two.go"}, Score: 4.95},
		{File: File{Path: "shared_test.go"}, Score: 4.8},
	}
	var links []Link
	for _, src := range []string{"a.go", "b.go", "c.go"} {
		links = append(links, Link{From: src, To: "shared.go", Uses: 1}, Link{From: src, To: "shared_test.go", Uses: 1})
	}
	links = append(links, Link{From: "a.go", To: "two.go", Uses: 1}, Link{From: "b.go", To: "two.go", Uses: 1})
	w := Default
	w.SpreadShare = 0.0001 // isolate the shared-helper rule
	got := paths(Spread(scored, links, w))
	if want := []string{"a.go", "b.go", "c.go", "shared.go", "d.go", "two.go", "shared_test.go"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
	// Never above the second file.
	scored = []Scored{
		{File: File{Path: "a.go"}, Score: 10},
		{File: File{Path: "b.go"}, Score: 5},
		{File: File{Path: "c.go"}, Score: 4.7},
		{File: File{Path: "shared.go"}, Score: 4.6},
	}
	links = nil
	for _, src := range []string{"a.go", "b.go", "c.go"} {
		links = append(links, Link{From: src, To: "shared.go", Uses: 1})
	}
	w.SpreadShare = 0.0001
	w.SpreadLead = 0
	out := Spread(scored, links, w)
	if out[1].Path != "b.go" || out[2].Path != "shared.go" || math.Abs(out[2].Score-w.SpreadCap*5) > 1e-3 {
		t.Fatalf("shared helper passed the second file: %v", out)
	}
}

func TestSpreadNeverPassesItsSource(t *testing.T) {
	scored := []Scored{
		{File: File{Path: "a.go"}, Score: 10},
		{File: File{Path: "b.go"}, Score: 9.8},
		{File: File{Path: "c.go"}, Score: 1},
	}
	got := Spread(scored, []Link{{From: "a.go", To: "b.go", Uses: 5}, {From: "c.go", To: "b.go", Uses: 5}}, Default)
	if p := paths(got); !reflect.DeepEqual(p, []string{"a.go", "b.go", "c.go"}) {
		t.Fatalf("order %v", p)
	}
	if got[1].Score != 9.8 {
		t.Fatalf("b.go is already within the cap of its source: score %v, want 9.8", got[1].Score)
	}
	// A source outside the strongest few lifts nothing.
	scored = []Scored{
		{File: File{Path: "a.go"}, Score: 10}, {File: File{Path: "b.go"}, Score: 9},
		{File: File{Path: "c.go"}, Score: 8}, {File: File{Path: "d.go"}, Score: 7}, {File: File{Path: "e.go"}, Score: 1},
	}
	got = Spread(scored, []Link{{From: "d.go", To: "e.go", Uses: 9}}, Default)
	if got[4].Path != "e.go" || got[4].Score != 1 {
		t.Fatalf("lifted from rank 4: %v", got[4])
	}
}

func TestVerbatimPhrase(t *testing.T) {
	terms := []Term{
		{Term: "completion", Origin: "exploratory", Use: "exploratory", IDF: 1.5, InTitle: true},
		{Term: "using config file:", Origin: "exploratory", Use: "exploratory", IDF: 2.9, GoalKind: "quoted"},
	}
	files := []File{
		{Path: "completions.go", Bytes: 400, Evidence: []TermEvidence{{Term: 0, Body: 200, FileNamePart: true}}},
		{Path: "cmd/root.go", Bytes: 400, Evidence: []TermEvidence{{Term: 0, Body: 2}, {Term: 1, Body: 1}}},
	}
	got := Rank(terms, files, Params{Profile: "code_path", AvgBytes: 400})
	if got[0].Path != "cmd/root.go" {
		t.Fatalf("the file holding the quoted message verbatim should lead: %v", paths(got))
	}
	// Without the phrase field the title word wins: the field is what moves it.
	w := Default
	w.Phrase = 0
	if got := paths(Rank(terms, files, Params{Profile: "code_path", AvgBytes: 400, Weights: w})); got[0] != "completions.go" {
		t.Fatalf("test setup: without the phrase field completions.go should lead, got %v", got)
	}
}

func TestLiteralKind(t *testing.T) {
	for term, want := range map[Term]string{
		{Term: "using config file:", GoalKind: "quoted"}:               "phrase",
		{Term: "none is not a valid unit", GoalKind: "error_fragment"}: "phrase",
		{Term: "p.new in sentinels", GoalKind: "quoted"}:               "phrase",
		{Term: "use", GoalKind: "quoted"}:                              "", // one quoted word is a word
		{Term: "template", GoalKind: "quoted"}:                         "",
		{Term: "<nil>", GoalKind: "quoted"}:                            "",
		{Term: "0.5", GoalKind: "quoted"}:                              "", // no two words with letters
		{Term: "cfg.hosts", GoalKind: "qualified"}:                     "code name",
		{Term: "invalid memory address", GoalKind: "word"}:             "",
		{Term: "using config file:", GoalKind: ""}:                     "",
	} {
		if got := literalKind(term); got != want {
			t.Errorf("literalKind(%q, %s) = %q, want %q", term.Term, term.GoalKind, got, want)
		}
	}
}

func TestSingleQuotedWordNotTrusted(t *testing.T) {
	// A quoted single word scores exactly as the same word unquoted.
	quoted := []Term{{Term: "template", Origin: "exploratory", Use: "exploratory", IDF: 2, GoalKind: "quoted"}}
	plain := []Term{{Term: "template", Origin: "exploratory", Use: "exploratory", IDF: 2, GoalKind: "word"}}
	files := []File{{Path: "a.go", Bytes: 100, Evidence: []TermEvidence{{Term: 0, Body: 1}}}}
	a := Rank(quoted, files, Params{Profile: "code_path", AvgBytes: 100})
	b := Rank(plain, files, Params{Profile: "code_path", AvgBytes: 100})
	if a[0].Score != b[0].Score {
		t.Fatalf("quoted single word %v, plain %v: a quoted word must not be over-trusted", a[0].Score, b[0].Score)
	}
}

func TestPathPhraseGetsNoVerbatimBonus(t *testing.T) {
	// "gh pr view" names pkg/cmd/pr/view/: its mention in help text is usage, not evidence.
	terms := []Term{{Term: "gh pr view", Origin: "exploratory", Use: "exploratory", IDF: 3, GoalKind: "quoted"}}
	files := []File{
		{Path: "pkg/cmd/pr/view/view.go", Bytes: 400, Evidence: []TermEvidence{{Term: 0, FileNameExact: true}}},
		{Path: "pkg/cmd/root/help_topic.go", Bytes: 400, Evidence: []TermEvidence{{Term: 0, Body: 1}}},
	}
	got := Rank(terms, files, Params{Profile: "code_path", AvgBytes: 400})
	for _, s := range got {
		for _, why := range s.Why {
			if strings.Contains(why, "verbatim phrase") {
				t.Fatalf("%s: a phrase that names a path got the verbatim bonus: %v", s.Path, s.Why)
			}
		}
	}
}

func TestManifestRegistryKeyIsDeclaration(t *testing.T) {
	terms := []Term{{Term: "retry_limit", Origin: "json_key", Use: "locate", IDF: 2}}
	files := []File{
		{Path: "lib/Service.java", Bytes: 100, Evidence: []TermEvidence{{Term: 0, DefLines: 1}}},
		{Path: "config/settings.json", Bytes: 100, Evidence: []TermEvidence{{Term: 0, Keys: 1}}},
	}
	code := Rank(terms, files, Params{Profile: "code_path", AvgBytes: 100})
	reg := Rank(terms, files, Params{Profile: "manifest_registry", AvgBytes: 100})
	if reg[0].Path != "config/settings.json" {
		t.Fatalf("manifest_registry: %v first, want the file that declares the key", paths(reg))
	}
	var codeJSON float64
	for _, s := range code {
		if s.Path == "config/settings.json" {
			codeJSON = s.Score
		}
	}
	regJSON := reg[0].Score
	if codeJSON == 0 || regJSON <= codeJSON {
		t.Fatalf("the key declaration adds nothing under manifest_registry: %v vs %v", regJSON, codeJSON)
	}
}

func TestTestDoublesPenalised(t *testing.T) {
	for p, want := range map[string]bool{
		"pkg/extensions/extension_mock.go":                  true,
		"pkg/cmd/attestation/verification/mock_verifier.go": true,
		"internal/mocks/client.go":                          true,
		"lib/fake_server.py":                                true,
		"pkg/cmd/attestation/verification/attestation.go":   false,
		"src/mockery.go":                                    false,
		"pkg/fakeroot/root.go":                              false,
	} {
		f, why := codePathFactor(Default, p)
		if got := f == Default.DoublePenalty && why == "mock or fake (code_path)"; got != want {
			t.Errorf("%s: factor %v (%s), test double %v", p, f, why, want)
		}
	}
}

func TestGoalFileNameTrusted(t *testing.T) {
	// The same evidence for a file name the goal wrote and for a plain
	// word: the file name weighs more (KindTrust file_name).
	terms := []Term{
		{Term: "root.go", Origin: "file_path", Use: "locate", IDF: 1, GoalKind: "file_name"},
		{Term: "root", Origin: "file_path", Use: "locate", IDF: 1, GoalKind: "word"},
	}
	files := []File{
		{Path: "a.go", Bytes: 100, Evidence: []TermEvidence{{Term: 0, Body: 1}}},
		{Path: "b.go", Bytes: 100, Evidence: []TermEvidence{{Term: 1, Body: 1}}},
	}
	s := Rank(terms, files, Params{Profile: "code_path", AvgBytes: 100})
	if len(s) != 2 || s[0].Path != "a.go" || s[0].Score < 1.9*s[1].Score {
		t.Fatalf("goal file name not trusted over a word: %+v", s)
	}
}

func TestVerbatimCodeName(t *testing.T) {
	// A dotted name found verbatim earns the CodeName bonus, half a phrase.
	terms := []Term{{Term: "cfg.Hosts", Origin: "code_symbol", Use: "locate", IDF: 1, GoalKind: "dotted"}}
	files := []File{{Path: "config.go", Bytes: 100, Evidence: []TermEvidence{{Term: 0, Body: 1}}}}
	with := Rank(terms, files, Params{Profile: "code_path", AvgBytes: 100})
	w := Default
	w.CodeName = 0
	without := Rank(terms, files, Params{Profile: "code_path", AvgBytes: 100, Weights: w})
	if Default.CodeName <= 0 || with[0].Score <= without[0].Score || !strings.Contains(strings.Join(with[0].Why, ";"), "verbatim code name") {
		t.Fatalf("code name bonus missing: %v vs %v", with[0], without[0])
	}
}

// TestExplainOnlyTheBest checks that Params.Explain limits the reasons to
// the first files and leaves scores and order alone.
func TestExplainOnlyTheBest(t *testing.T) {
	terms := []Term{{Term: "alpha", Origin: "code_symbol", IDF: 2}, {Term: "beta", Origin: "exploratory", IDF: 1}}
	var files []File
	for i := range 6 {
		files = append(files, File{Path: fmt.Sprintf("f%d.go", i), Bytes: 100, Evidence: []TermEvidence{
			{Term: 0, Body: i + 1, Definitions: i % 2}, {Term: 1, Body: 1}}})
	}
	all := Rank(terms, files, Params{Profile: "code_path", AvgBytes: 100})
	two := Rank(terms, files, Params{Profile: "code_path", AvgBytes: 100, Explain: 2})
	if len(all) != 6 || len(two) != 6 {
		t.Fatalf("ranked %d and %d files, want 6", len(all), len(two))
	}
	for i := range all {
		if all[i].Path != two[i].Path || all[i].Score != two[i].Score {
			t.Errorf("#%d: %s %v vs %s %v", i, all[i].Path, all[i].Score, two[i].Path, two[i].Score)
		}
		if len(all[i].Why) == 0 {
			t.Errorf("#%d %s: no reasons with Explain 0", i, all[i].Path)
		}
		if i < 2 && strings.Join(two[i].Why, "|") != strings.Join(all[i].Why, "|") {
			t.Errorf("#%d: reasons %q, want %q", i, two[i].Why, all[i].Why)
		}
		if i >= 2 && two[i].Why != nil {
			t.Errorf("#%d: reasons %q past Explain", i, two[i].Why)
		}
	}
	if got := all[0].Why[0]; got != "alpha (code_symbol, definition, body×7)" {
		t.Errorf("top reason %q", got)
	}
}

func TestScopeNamesThePlace(t *testing.T) {
	// "api: return structured error": a file under api/ with few mentions
	// passes a file elsewhere that mentions api often; as a plain word the
	// directory counts for little and the mentions win.
	files := []File{
		{Path: "api/client.go", Bytes: 100, Evidence: []TermEvidence{{Term: 0, DirName: true, Body: 2}}},
		{Path: "command/issue.go", Bytes: 100, Evidence: []TermEvidence{{Term: 0, Body: 40}}},
	}
	for kind, first := range map[string]string{"scope": "api/client.go", "word": "command/issue.go"} {
		terms := []Term{{Term: "api", Origin: "file_path", Use: "locate", IDF: 1, GoalKind: kind}}
		s := Rank(terms, files, Params{Profile: "code_path", AvgBytes: 100})
		if len(s) != 2 || s[0].Path != first {
			t.Errorf("goal kind %s: %+v, want %s first", kind, s, first)
		}
		if got := strings.Contains(strings.Join(s[0].Why, ";"), "scope"); got != (kind == "scope") {
			t.Errorf("goal kind %s: reasons %q", kind, s[0].Why)
		}
	}
}

func TestUniqueDefinitionOfACodeName(t *testing.T) {
	// posify(x) in a sympy issue: one file of the twenty mentioning it
	// defines it; a file that mentions the other goal word more ranks
	// first without the signal.
	terms := []Term{
		{Term: "posify", Origin: "code_symbol", Use: "locate", IDF: 2, GoalKind: "identifier", DF: 20, DefFiles: 1},
		{Term: "finite", Origin: "code_symbol", Use: "locate", IDF: 2, GoalKind: "word", DF: 20, DefFiles: 1},
	}
	files := []File{
		{Path: "simplify/simplify.py", Bytes: 400, Evidence: []TermEvidence{{Term: 0, Definitions: 1, Body: 2}}},
		{Path: "assumptions/ask.py", Bytes: 400, Evidence: []TermEvidence{{Term: 0, Body: 3}, {Term: 1, Definitions: 1, Body: 3}}},
	}
	without := Default
	without.DefUnique = 0
	if got := paths(Rank(terms, files, Params{Profile: "code_path", AvgBytes: 400, Weights: without})); got[0] != "assumptions/ask.py" {
		t.Fatalf("without the signal: %v, want ask.py first", got)
	}
	got := Rank(terms, files, Params{Profile: "code_path", AvgBytes: 400})
	if got[0].Path != "simplify/simplify.py" || !strings.Contains(strings.Join(got[0].Why, " "), "the one definition (of 20 files mentioning it)") {
		t.Fatalf("with the signal: %v %v, want simplify.py first, said why", paths(got), got[0].Why)
	}
	// finite is a word: its one definition in ask.py earns nothing more.
	if strings.Contains(strings.Join(got[1].Why, " "), "the one definition") {
		t.Fatalf("a plain word got the unique-definition bonus: %v", got[1].Why)
	}
}

func TestUniqueDefinitionNeedsOneDefiner(t *testing.T) {
	for _, tc := range []struct {
		t    Term
		want bool
	}{
		{Term{GoalKind: "identifier", DF: 20, DefFiles: 1}, true},
		{Term{GoalKind: "qualified", DF: 5, DefFiles: 1}, true},
		{Term{GoalKind: "identifier", DF: 20, DefFiles: 2}, false}, // alternatives: an interface method, overrides
		{Term{GoalKind: "identifier", DF: 20, DefFiles: 0}, false}, // unknown: the scout's list was capped
		{Term{GoalKind: "word", DF: 20, DefFiles: 1}, false},
		{Term{GoalKind: "", DF: 20, DefFiles: 1}, false},
	} {
		if got := uniqueDefinition(tc.t) > 0; got != tc.want {
			t.Errorf("%+v: bonus %v, want %v", tc.t, got, tc.want)
		}
	}
	if a, b := uniqueDefinition(Term{GoalKind: "identifier", DF: 200, DefFiles: 1}), uniqueDefinition(Term{GoalKind: "identifier", DF: 3, DefFiles: 1}); a <= b {
		t.Errorf("one definer among 200 mentions (%v) should weigh more than among 3 (%v)", a, b)
	}
}
