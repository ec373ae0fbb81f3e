package rank

import (
	"math"
	"path"
	"strings"

	"github.com/rtch/rtch/pkg/symbols"
)

// The strong fields of a term's evidence, in the order Rank adds them (so
// the sum, and every score, is what it was before they were kept apart).
const (
	bonusNameExact = iota
	bonusNamePart
	bonusDir
	bonusScope
	bonusDef
	bonusDefUnique
	bonusDefLine
	bonusPhrase
	bonusCodeName
	bonusKeyDecl
	nBonus
)

// Parts are a ranked file's score taken apart, and the evidence behind it:
// what a learned ranking is given beside the score (Features).
type Parts struct {
	// Sat is the saturated mentions' share (body, headings, keys), each
	// term's IDF × trust × saturated frequency, summed over terms.
	Sat float64
	// Bonus is each strong field's share, IDF × trust × weight × (K1+1).
	Bonus [nBonus]float64
	// Terms is how many terms (an idea's spellings once) have evidence
	// here; IDF and MaxIDF their IDFs' sum and largest; TitleIDF the sum
	// over those in the title of a multi-line goal; Code how many the goal
	// writes as code; Defined how many are defined here.
	Terms         int
	IDF, MaxIDF   float64
	TitleIDF      float64
	Code, Defined int
	Mentions      int     // body mentions, definitions and definition lines
	Factor        float64 // the code-path and neighbour multiplier
}

// add counts one term's evidence: sat is its saturated frequency, bp its
// strong fields' weights, unit the value of one saturated term (K1+1).
func (p *Parts) add(t Term, tr, sat float64, bp [nBonus]float64, unit float64, mentions int) {
	p.Sat += t.IDF * tr * sat
	for i, b := range bp {
		p.Bonus[i] += t.IDF * tr * b * unit
	}
	p.Terms++
	p.IDF += t.IDF
	p.MaxIDF = max(p.MaxIDF, t.IDF)
	if t.InTitle {
		p.TitleIDF += t.IDF
	}
	if writtenAsCode(t.GoalKind) {
		p.Code++
	}
	if bp[bonusDef] > 0 {
		p.Defined++
	}
	p.Mentions += mentions
}

// FeatureNames name the columns of Features, in order. A model file names
// the columns it was trained on, and a model whose names differ is refused
// (LoadModel), so the list may grow without silently shifting a model's
// inputs.
var FeatureNames = []string{
	// the hand-written score
	"score_rel", "base_rel", "spread_rel", "log_score", "log_rank",
	// its parts, relative to the first file's score
	"sat_rel", "name_exact_rel", "name_part_rel", "dir_rel", "scope_rel", "def_rel", "def_unique_rel",
	"def_line_rel", "phrase_rel", "code_name_rel", "key_decl_rel",
	// the evidence
	"terms_frac", "idf_frac", "max_idf", "title_frac", "code_frac", "defined", "log_mentions",
	// how closely it gathers: the best window's share of the query's IDF
	// and terms
	"window_idf_frac", "window_terms_frac",
	// the file
	"log_bytes", "bytes_rel", "depth", "factor", "neighbor",
	"kind_test", "kind_testdata", "kind_vendor", "kind_doc", "kind_noncode", "kind_changelog", "kind_double", "kind_example",
	"lang_go", "lang_python", "lang_javascript", "lang_typescript", "lang_rust", "lang_java", "lang_other",
	// the structure around the first files
	"is_source", "used_by", "uses_top1", "uses_max", "same_dir_top1", "log_dir_peers",
	// siblings: same-named files above, the package (the directory of the
	// nearest manifest) the goal names
	"same_base_above", "log_same_base", "pkg_named", "pkg_words", "pkg_other_named", "in_subpackage",
	// the query
	"q_terms", "q_idf", "q_title", "q_code", "q_lead", "q_log_files",
}

// Context is what the features need beyond the ranking: the goal's text
// and the packages of the tree (the directories that hold a manifest,
// Packages below).
type Context struct {
	Goal     string
	Packages []string
}

// Features are the columns of FeatureNames for the first k ranked files
// (scored after Spread; links as Spread had them). terms and p are what
// Rank was given.
func Features(terms []Term, scored []Scored, links []Link, p Params, cx Context, k int) [][]float64 {
	k = min(k, len(scored))
	if k == 0 {
		return nil
	}
	w := p.Weights
	if w.K1 == 0 {
		w = Default
	}
	q := queryOf(terms, scored, w, p.Profile)
	g := graphOf(scored[:k], links, w)
	sib := siblingsOf(scored[:k], cx)
	avg := p.AvgBytes
	if avg <= 0 {
		avg = 1
	}
	top := scored[0].Score
	if top <= 0 {
		top = 1
	}
	out := make([][]float64, k)
	for i, s := range scored[:k] {
		pt := s.Parts
		rel := pt.Factor / top
		row := make([]float64, 0, len(FeatureNames))
		row = append(row, s.Score/top, s.Base/top, (s.Score-s.Base)/top, math.Log1p(s.Score), math.Log1p(float64(i)),
			pt.Sat*rel)
		for _, b := range pt.Bonus {
			row = append(row, b*rel)
		}
		row = append(row, ratio(float64(pt.Terms), q.terms), ratio(pt.IDF, q.idf), pt.MaxIDF, ratio(pt.TitleIDF, q.title),
			ratio(float64(pt.Code), q.code), float64(pt.Defined), math.Log1p(float64(pt.Mentions)),
			ratio(s.Window, q.idf), ratio(float64(s.WindowTerms), q.terms))
		row = append(row, math.Log1p(float64(s.Bytes)), float64(s.Bytes)/avg, float64(strings.Count(s.Path, "/")), pt.Factor, flag(s.Neighbor))
		kind := pathKind(w, s.Path)
		for _, k := range []string{"test", "testdata", "vendor", "doc", "noncode", "changelog", "double", "example"} {
			row = append(row, flag(kind == k))
		}
		lang := symbols.Lang(s.Path)
		known := false
		for _, l := range []string{"go", "python", "javascript", "typescript", "rust", "java"} {
			row = append(row, flag(lang == l))
			known = known || lang == l
		}
		row = append(row, flag(lang != "" && !known))
		row = append(row, flag(i < w.SpreadSources), float64(g.usedBy[s.Path]), float64(g.usesTop1[s.Path]), float64(g.usesMax[s.Path]),
			flag(i > 0 && path.Dir(s.Path) == path.Dir(scored[0].Path)), math.Log1p(float64(g.dirPeers[path.Dir(s.Path)]-1)))
		row = append(row, sib.row(i)...)
		row = append(row, q.terms, q.idf, flag(q.title > 0), q.code, q.lead, math.Log1p(float64(len(scored))))
		out[i] = row
	}
	return out
}

// query are the query-level features: the active terms (a positive trust
// and IDF), their IDF, the IDF of those in a multi-line goal's title, how
// many the goal writes as code, the first file's lead over the second.
type query struct {
	terms, idf, title, code, lead float64
}

func queryOf(terms []Term, scored []Scored, w Weights, profile string) query {
	var q query
	for _, t := range terms {
		if trust(w, t, profile) <= 0 || t.IDF <= 0 {
			continue
		}
		q.terms++
		q.idf += t.IDF
		if t.InTitle {
			q.title += t.IDF
		}
		if writtenAsCode(t.GoalKind) {
			q.code++
		}
	}
	q.lead = 1
	if len(scored) > 1 && scored[1].Score > 0 {
		q.lead = scored[0].Score / scored[1].Score
	}
	return q
}

// graph is what the links say of each file among the first k: how many of
// the first files (Spread's sources) use its names, how many of them the
// first file uses, the most any source uses; and how many of the k share
// each directory.
type graph struct {
	usedBy, usesTop1, usesMax map[string]int
	dirPeers                  map[string]int
}

func graphOf(scored []Scored, links []Link, w Weights) graph {
	g := graph{usedBy: map[string]int{}, usesTop1: map[string]int{}, usesMax: map[string]int{}, dirPeers: map[string]int{}}
	for _, s := range scored {
		g.dirPeers[path.Dir(s.Path)]++
	}
	first := scored[0].Path
	for _, l := range links {
		if l.From == l.To || l.Uses <= 0 {
			continue
		}
		g.usedBy[l.To]++
		g.usesMax[l.To] = max(g.usesMax[l.To], l.Uses)
		if l.From == first {
			g.usesTop1[l.To] = l.Uses
		}
	}
	return g
}

// pathKind is the code-path class of a path: "" for plain source code.
func pathKind(w Weights, p string) string {
	_, why := codePathFactor(w, p)
	switch {
	case why == "":
		return ""
	case strings.HasPrefix(why, "changelog"):
		return "changelog"
	case strings.HasPrefix(why, "bundled"), strings.HasPrefix(why, "vendored"):
		return "vendor"
	case strings.HasPrefix(why, "test data"):
		return "testdata"
	case strings.HasPrefix(why, "test file"):
		return "test"
	case strings.HasPrefix(why, "mock"):
		return "double"
	case strings.HasPrefix(why, "docs or examples"):
		return "example"
	case strings.HasPrefix(why, "not source"):
		return "noncode"
	}
	return "doc"
}

func ratio(a, b float64) float64 {
	if b <= 0 {
		return 0
	}
	return a / b
}

func flag(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
