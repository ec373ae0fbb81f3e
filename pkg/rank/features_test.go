package rank

import (
	"math"
	"testing"
)

// featureCase is a small ranking with every kind of evidence.
func featureCase() ([]Term, []File) {
	terms := []Term{
		{Term: "router", Origin: "code_symbol", Use: "locate", IDF: 1.5, GoalKind: "word", InTitle: true, GoalCount: 2, DF: 3, DefFiles: 1},
		{Term: "NewRouter", Origin: "code_symbol", Use: "locate", IDF: 2.5, GoalKind: "identifier", DF: 2, DefFiles: 1},
		{Term: "no route matched", Origin: "exploratory", Use: "exploratory", IDF: 3, GoalKind: "quoted"},
		{Term: "api", Origin: "file_path", Use: "locate", IDF: 1, GoalKind: "scope", InTitle: true},
	}
	files := []File{
		{Path: "api/router.go", Bytes: 900, Evidence: []TermEvidence{{Term: 0, FileNameExact: true, Definitions: 1, Body: 7},
			{Term: 1, Definitions: 1, Body: 2}, {Term: 2, Body: 1}, {Term: 3, DirName: true}}, Window: 4, WindowTerms: 2},
		{Path: "api/server.go", Bytes: 400, Evidence: []TermEvidence{{Term: 0, Body: 3}, {Term: 1, DefLines: 1, Body: 1}, {Term: 3, DirName: true}}},
		{Path: "api/router_test.go", Bytes: 600, Evidence: []TermEvidence{{Term: 0, FileNamePart: true, Body: 9}, {Term: 2, Body: 1}}},
		{Path: "docs/routing.md", Bytes: 300, Evidence: []TermEvidence{{Term: 0, Headings: 2, Body: 4}}},
	}
	return terms, files
}

// The parts Rank keeps add up to the score it gives: the features start
// exactly where the hand-written ranking is.
func TestPartsAddUpToTheScore(t *testing.T) {
	terms, files := featureCase()
	for _, s := range Rank(terms, files, Params{Profile: "code_path", AvgBytes: 500}) {
		sum := s.Parts.Sat
		for _, b := range s.Parts.Bonus {
			sum += b
		}
		if got := sum * s.Parts.Factor; math.Abs(got-s.Base) > 1e-4 || s.Base != s.Score {
			t.Errorf("%s: parts × factor = %.5f, base %.5f, score %.5f", s.Path, got, s.Base, s.Score)
		}
		if s.Parts.Terms == 0 || s.Parts.IDF <= 0 {
			t.Errorf("%s: parts count no term: %+v", s.Path, s.Parts)
		}
	}
}

func TestFeatures(t *testing.T) {
	terms, files := featureCase()
	p := Params{Profile: "code_path", AvgBytes: 500}
	scored := Rank(terms, files, p)
	links := []Link{{From: "api/router.go", To: "api/server.go", Uses: 2}}
	scored = Spread(scored, links, Default)
	rows := Features(terms, scored, links, p, Context{Goal: "api: fix the router"}, 10)
	if len(rows) != len(scored) {
		t.Fatalf("%d rows for %d files", len(rows), len(scored))
	}
	col := map[string]int{}
	for i, n := range FeatureNames {
		col[n] = i
	}
	at := map[string][]float64{}
	for i, r := range rows {
		if len(r) != len(FeatureNames) {
			t.Fatalf("row %d has %d columns, want %d", i, len(r), len(FeatureNames))
		}
		for j, v := range r {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Errorf("%s: %s = %v", scored[i].Path, FeatureNames[j], v)
			}
		}
		at[scored[i].Path] = r
	}
	top := at[scored[0].Path]
	if top[col["score_rel"]] != 1 || top[col["log_rank"]] != 0 || top[col["is_source"]] != 1 {
		t.Errorf("first file: score_rel %v log_rank %v is_source %v", top[col["score_rel"]], top[col["log_rank"]], top[col["is_source"]])
	}
	r := at["api/router.go"]
	if r[col["name_exact_rel"]] <= 0 || r[col["def_rel"]] <= 0 || r[col["def_unique_rel"]] <= 0 || r[col["phrase_rel"]] <= 0 ||
		r[col["scope_rel"]] <= 0 || r[col["terms_frac"]] != 1 || r[col["lang_go"]] != 1 || r[col["q_title"]] != 1 ||
		r[col["window_idf_frac"]] != 0.5 || r[col["window_terms_frac"]] != 0.5 {
		t.Errorf("api/router.go features: %v", named(r))
	}
	if s := at["api/server.go"]; s[col["used_by"]] != 1 || s[col["uses_top1"]] != 2 || s[col["spread_rel"]] <= 0 || s[col["def_line_rel"]] <= 0 {
		t.Errorf("api/server.go features: %v", named(s))
	}
	if s := at["api/router_test.go"]; s[col["kind_test"]] != 1 || s[col["factor"]] != Default.TestPenalty {
		t.Errorf("test file features: %v", named(s))
	}
	if s := at["docs/routing.md"]; s[col["kind_doc"]] != 1 || s[col["lang_go"]] != 0 || s[col["lang_other"]] != 0 {
		t.Errorf("doc features: %v", named(s))
	}
}

// Same-named files of sibling packages: the goal naming one package sets
// pkg_named on its file and pkg_other_named on the other's.
func TestSiblingFeatures(t *testing.T) {
	pkgs := Packages([]string{"Cargo.toml", "axum-core/Cargo.toml", "axum-core/src/from_ref.rs", "axum-macros/Cargo.toml",
		"axum-macros/src/from_ref.rs", "axum-macros/src/lib.rs"})
	if len(pkgs) != 2 || pkgs[0] != "axum-core" || pkgs[1] != "axum-macros" {
		t.Fatalf("packages %v", pkgs)
	}
	scored := []Scored{{File: File{Path: "axum-core/src/from_ref.rs"}, Score: 2}, {File: File{Path: "axum-macros/src/from_ref.rs"}, Score: 1.9},
		{File: File{Path: "src/lib.rs"}, Score: 1}}
	sb := siblingsOf(scored, Context{Goal: "Fix #[derive(FromRef)] in axum-macros for generic states", Packages: pkgs})
	core, macros, root := sb.row(0), sb.row(1), sb.row(2)
	// same_base_above, log_same_base, pkg_named, pkg_words, pkg_other_named, in_subpackage
	if macros[0] != 1 || macros[2] != 1 || macros[3] != 1 || macros[4] != 0 || macros[5] != 1 {
		t.Errorf("axum-macros/src/from_ref.rs: %v", macros)
	}
	if core[0] != 0 || core[2] != 0 || core[3] != 0.5 || core[4] != 1 {
		t.Errorf("axum-core/src/from_ref.rs: %v", core)
	}
	if root[5] != 0 || root[2] != 0 {
		t.Errorf("a file outside every package: %v", root)
	}
	if namedIn("fix axum-macros-extra", "axum-macros") || !namedIn("(axum-macros)", "axum-macros") {
		t.Error("namedIn matched inside a longer name, or missed a parenthesised one")
	}
}

func named(r []float64) map[string]float64 {
	m := map[string]float64{}
	for i, v := range r {
		if v != 0 {
			m[FeatureNames[i]] = v
		}
	}
	return m
}
