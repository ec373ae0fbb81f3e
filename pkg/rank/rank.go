// Package rank orders surfaces (files) by the evidence the probe pass found
// in them. The score is a BM25F-style fusion: for each term, the occurrences
// in each field (file name, directory, definition site, heading, key, body)
// are weighted and summed into one pseudo term frequency, the body part
// normalised by file length; the sum saturates (k1) so the hundredth mention
// adds little; it is multiplied by the term's rarity (IDF from the scout's
// document frequencies) and by the trust of the term's origin. File scores
// are the sum over terms, raised a little for covering more distinct terms,
// and lowered a little for tests, testdata, vendored code and docs when the
// goal is about code. Every weight lives in Weights below.
package rank

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/rtch/rtch/pkg/symbols"
)

// Weights are every tunable number of the ranking, with why each is what it is.
type Weights struct {
	// K1 saturates a term's body frequency, so a second mention counts, a
	// fiftieth hardly; a saturated term is worth K1+1. 2.0 rather than BM25's
	// usual 1.2: measured on the evaluation tasks, slower saturation helps
	// (source files that keep using a term are where it lives).
	K1 float64
	// B is the body-length normalisation: a long file mentions everything,
	// so its body counts are scaled down; 0.5 rather than BM25's 0.75,
	// measured, because the big module is often the one a fix touches.
	B float64
	// Weak fields add to the body frequency before saturation: a heading or
	// a key is worth a few mentions.
	Heading float64 // the term in a markdown heading
	Key     float64 // the term as a JSON/YAML/TOML key
	Body    float64 // any other mention
	// Strong fields are added after saturation, in units of one saturated
	// term (K1+1): a definition or a file name counts beside the mentions
	// instead of being one more of them, so it still tells when the body
	// frequency has saturated. Larger bonuses were measured and lost: many
	// goal words name common symbols.
	FileNameExact float64 // term equals the file name's stem ("command" → command.go)
	FileNamePart  float64 // term is a word of the file name ("help" → help_topics.go)
	DirName       float64 // term names a directory on the path
	Scope         float64 // a title's scope ("api: …") names the file or a directory on its path
	Definition    float64 // a definition of the term (symbol name confirmed by the scout)
	DefLine       float64 // the term inside a definition line's name ("func (c *Command) ExecuteC")
	// Phrase is the strong field of a literal the goal quotes (a quoted
	// string or an error message of two words or more) found verbatim in
	// the file's text: the string the code prints or raises ("Using config
	// file:" in cobra/cmd/root.go). It is scaled by the term's IDF like
	// every field, so a literal that occurs in few files weighs most. A
	// single quoted word gets nothing (`Use`, "template" are words), nor
	// does a phrase whose words name a path ("gh pr view" →
	// pkg/cmd/pr/view/), whose mentions in other files are usage text.
	// Measured: 1.0 lifts go-commits acc@5 80.5 → 81.0 and SWE-bench MRR
	// 74.9 → 76.0 (acc@1 52.7 → 55.0) with no acc@5 loss; 0.5 is too weak
	// to move cobra@3fed3ef5adf9. 1.5 (replayed rankings, see Default below,
	// from the main of 2026-11-30 evening): go-commits acc@5 +0.5, MRR
	// +0.1, SWE-bench MRR +0.4; 2 is about as good, 3 costs SWE-bench MRR.
	Phrase float64
	// CodeName is the same field for a qualified or dotted name found
	// verbatim (cfg.Hosts, os.RemoveAll). Half a phrase: measured at 1.0 it
	// costs SWE-bench acc@5 (75.1 → 74.0): issues' reproduction code names
	// the user's own variables and aliases (a.is_finite, np.array, u.km);
	// at 0.5 (replayed, with Phrase 1.0) it gains on both sets: go-commits
	// acc@5 +0.5, MRR +0.1; SWE-bench acc@5 +1.2, MRR +0.4.
	CodeName float64
	// HeadCap bounds how many heading and key occurrences count.
	HeadCap int
	// Trust multiplies a term's score by its origin: explicit and durable
	// names first, shape-confirmed goal terms next, plain goal words at 1.
	Trust map[string]float64
	// TrustCodePath overrides Trust under the code_path profile: headings and
	// keys confirmed in docs and fixtures say little about code, and zone
	// context (truth files, manifests) is context, not a target: it scores
	// nothing.
	TrustCodePath map[string]float64
	// Pressure caps the trust of zone context terms (truth files and
	// manifests, use "pressure"): they are in every basket whatever the goal,
	// so their names are context to list, not evidence to rank by.
	Pressure float64
	// KindTrust multiplies a goal term's score by how the goal wrote it: a
	// name spelled as code (Runnable, GH_FORCE_TTY, c.Run) was meant
	// literally, a plain word may be prose. Only a file name the goal writes
	// (root.go, help_topic.go) is raised, to 2: the file is named on
	// purpose. Replayed alone: go-commits acc@5 +0.5, MRR +0.7; SWE-bench
	// acc@5 +0.6, MRR +0.1. Every other kind was searched (word, identifier,
	// camel/snake parts, dotted, qualified, stack frame, flag, path, quoted;
	// 0.5–2) and none gained on both sets.
	KindTrust map[string]float64
	// Title multiplies terms in the first line of a multi-line goal: an issue's
	// title states the problem, its body adds reproduction steps, versions
	// and configuration that mention half the project.
	Title float64
	// Repeat adds this fraction per doubling of the term's mentions in the
	// goal (1 + Repeat·log2(count)): what the goal keeps coming back to.
	Repeat float64
	// IdeaK3 saturates the number of spellings n the goal writes of one
	// idea (restart, restarts), scored once as a group: its trust is
	// multiplied by n·(IdeaK3+1)/(n+IdeaK3), BM25's query-term frequency.
	// 0 gives every group the weight of one spelling.
	IdeaK3 float64
	// GenericAlone multiplies the score of a generic term without pairing.
	GenericAlone float64
	// Coverage raises a file's score by this fraction per additional
	// distinct matched term (relative to the number of query terms). Measured
	// on the evaluation tasks it did not help beyond BM25's sum, so it is 0.
	Coverage float64
	// Code-path penalties multiply files that are rarely where a code fix
	// lands (tests, testdata, vendored code, docs, examples, non-code files)
	// under the code_path profile. Measured on the evaluation tasks, strong
	// penalties win: a fix that lands only in a test or a doc is rare.
	TestPenalty, TestdataPenalty, VendorPenalty, DocPenalty float64
	// NonCodePenalty multiplies files in no language the scout reads
	// (YAML, JSON, build files) under code_path.
	NonCodePenalty float64
	// ChangelogPenalty multiplies changelogs and release notes under
	// code_path: they summarise every change in the goal's own words, and a
	// fix never lands there first.
	ChangelogPenalty float64
	// NeighborFactor scales known-neighbor surfaces: listed, never leading.
	NeighborFactor float64
	// DoublePenalty multiplies test doubles by name (mock_x.go, x_mock.py,
	// fake_x.go, mocks/) under code_path: a fix lands in the interface or
	// the code they stand in for. Generated code as such (DO NOT EDIT) is
	// not penalised: measured, gojq commits its generated builtin.go with
	// the change that regenerates it (3 go-commits tasks lost at 0.3).
	DoublePenalty float64
	// Spread lifts the structural neighbours of the strongest files (Spread
	// below): a file whose names one of the SpreadSources top files uses
	// (same Go package, an imported Go package or Python module; see
	// pkg/refs) gains SpreadShare of that file's score times
	// min(1, names used / SpreadSat), never more than up to SpreadCap of the
	// source's score, so it never passes the file that lifted it. Only
	// plain source code is lifted, and only among the SpreadPool best ranked
	// files (the probe reads them again for their definitions). Many fixes
	// touch two files, the second a helper the first one calls
	// (release/create/create.go and http.go, gojq's func.go and error.go).
	// Measured on the evaluation tasks (full runs, 2026-11-30): go-commits
	// acc@5 80.5 → 82.5, acc@10 88.0 → 89.0, MRR 74.2 unchanged;
	// SWE-bench acc@5 75.1 → 75.7, MRR 74.9 → 75.2. Shares 0.1–0.2,
	// saturation 2–5 and 3–5 sources land within a task of this. One
	// source only loses (go-commits acc@5 79.0); links by directory alone
	// gain nothing; without the cap a 0.2 share costs 3–8 MRR points, as do
	// multiplicative boosts: a neighbour of the top file is gold less often
	// than the files already in the top five (docs/decisions/discovery.md).
	SpreadSources, SpreadPool, SpreadSat int
	SpreadShare, SpreadCap               float64
	// SpreadLead scales SpreadShare by how far the top file leads the
	// second, top/second, at most SpreadLead (1 or less: no scaling). A
	// file that stands out is the fix's centre more surely, and so are the
	// helpers it uses; when the first files are level, a neighbour of any
	// one of them is a weaker guess. Replayed (2026-12-01, bench/rankreplay
	// on branch exp/cvw2) at 2: go-commits acc@3 +1.0 (gained on both
	// halves of a split), acc@5 +0.5 (cli/cli's release/create/http.go
	// beside create.go), MRR +0.1; SWE-bench unchanged. Exponents 0.5 and
	// 2 of the ratio, caps 1.5–3: the same or worse.
	SpreadLead float64
	// SpreadShared raises, by this fraction, a file below the second that
	// every one of the SpreadSources best files uses (at least three): the
	// helper the whole area the goal names shares, gojq's error.go or fzf's
	// result.go. Kept below the second file (SpreadCap of its score), so
	// the first two keep their places. Replayed (2026-12-01, with
	// SpreadLead 2) at 0.1: go-commits acc@5 +0.5 (fzf's result.go 6 → 5,
	// no task lost; split in halves +1 task and ±0), SWE-bench acc@10
	// 83.4 → 84.6, MRR unchanged on both sets; 0.2 the same; without
	// holding the first two in place it costs 1–10 points of MRR.
	SpreadShared float64
	// DefUnique adds, to the one file that defines a name the goal writes
	// as code (an identifier, a qualified or dotted name, a stack frame:
	// posify(x), cfg.Hosts()), this many saturated terms times the
	// definition's specificity among the DF files that mention the name,
	// ln(1 + (DF−0.5)/1.5): posify, defined once in sympy's simplify.py and
	// mentioned in 20 files, points there. A name two or more files define
	// is an interface method or an override, alternatives rather than the
	// place (cli's three Hosts() methods), and a plain word that happens to
	// name a definition (error, query, values) is prose. Measured on both
	// sets (docs/decisions/code-graph.md).
	DefUnique float64
}

// Default are the weights in use (tuned on the go-commits and SWE-bench dev
// tasks; see docs/decisions/discovery.md). The last step (Phrase 1.5, CodeName
// 0.5, KindTrust file_name 2) is a coordinate-ascent search over every
// weight (replaying the probe's ranking inputs offline; the tool is on
// branch exp/cvw, not in main), maximising the smaller of the two
// sets' gains in acc@5+MRR; confirmed by a full run (2026-11-30): go-commits
// acc@1/3/5/10 48.0/72.5/83.0/89.5 MRR 74.4 → 49.0/73.0/84.0/89.5 MRR 75.2,
// SWE-bench 55.0/69.8/75.7/83.4 MRR 76.4 → 55.0/71.0/76.9/82.8 MRR 77.1.
// Searches that fit one set, or the sum of both, moved K1 (3–4), Title (4),
// FileNameExact (0.5–0.7) and file_path trust (1.5–1.8) and gained up to 6
// points of SWE-bench acc@5, but lost go-commits MRR (−1 to −2.6), and on a
// split-half check their picks did not carry over to the held-out half.
var Default = Weights{
	K1:            2.0,
	B:             0.5,
	Heading:       2,
	Key:           1.5,
	Body:          1,
	FileNameExact: 0.3,
	FileNamePart:  0.15,
	DirName:       0.1,
	Scope:         1,
	Definition:    0.3,
	DefLine:       0.1,
	Phrase:        1.5,
	CodeName:      0.5,
	HeadCap:       3,
	Trust: map[string]float64{
		"durable_handle": 1.6, "manifest_key": 1.4, "explicit_seed": 1.6, "local_shape": 1.2,
		"file_path": 1.3, "heading": 1.15, "code_symbol": 1.25, "json_key": 1.1, "yaml_key": 1.1,
		"ref_neighborhood": 0.3, "caution": 0, "exploratory": 1, "noise": 0,
	},
	TrustCodePath: map[string]float64{
		"heading": 1, "json_key": 1, "yaml_key": 1, "local_shape": 0, "manifest_key": 0,
	},
	KindTrust:        map[string]float64{"file_name": 2},
	Pressure:         0.15,
	Title:            2.5,
	Repeat:           0.5,
	IdeaK3:           1,
	GenericAlone:     0.4,
	Coverage:         0,
	TestPenalty:      0.1,
	TestdataPenalty:  0.2,
	VendorPenalty:    0.4,
	DocPenalty:       0.2,
	NonCodePenalty:   0.2,
	ChangelogPenalty: 0.05,
	NeighborFactor:   0.3,
	DoublePenalty:    0.3,
	SpreadSources:    3,
	SpreadPool:       30,
	SpreadSat:        3,
	SpreadShare:      0.15,
	SpreadCap:        0.95,
	SpreadLead:       2,
	SpreadShared:     0.1,
	DefUnique:        0.3,
}

// Term is one basket term as the ranking sees it.
type Term struct {
	Term    string
	Origin  string
	Use     string
	IDF     float64
	Generic bool // generic and unpaired (in generic_alone_warnings)
	// GoalKind is the intake's kind of the goal term ("" when not from the goal).
	GoalKind string
	// GoalCount is how often the goal mentions the term; InTitle that the
	// term is in the first line of a multi-line goal.
	GoalCount int
	InTitle   bool
	// DF is the number of files holding the term; DefFiles how many of
	// them define it as code (the scout's symbol confirmations; 0 unknown).
	DF, DefFiles int
	// Group is the idea the term spells with other terms ("" for none),
	// GroupIDF the IDF of the files holding any of its spellings: a group
	// is scored as one term (groupIdeas).
	Group    string
	GroupIDF float64
}

// TermEvidence is what one file holds of one term, by field.
type TermEvidence struct {
	Term          int // index into the terms
	FileNameExact bool
	FileNamePart  bool
	DirName       bool
	Definitions   int // confirmed definitions in this file
	DefLines      int // definition-line name matches
	Headings      int
	Keys          int
	Body          int // all other mentions
}

// File is one surface with its evidence.
type File struct {
	Path     string
	Bytes    int64
	Evidence []TermEvidence
	// Anchors are candidate lines for hydration, best first.
	Anchors []int
	// Neighbor marks a known-neighbor surface.
	Neighbor bool
	// Window is the most IDF of distinct terms found within a few lines
	// of one another (the best anchor's window), WindowTerms how many
	// terms that is: how closely the file's evidence gathers.
	Window      float64
	WindowTerms int
}

// Scored is a ranked file. Why holds up to five term reasons, strongest
// first, then the code-path and neighbour notes; Rank fills it for the first
// Params.Explain files only.
type Scored struct {
	File
	Score float64
	// Base is the score Rank gave, before Spread raised it.
	Base float64
	// Parts are the score's parts by field and the evidence behind it,
	// the features a learned ranking starts from (features.go).
	Parts Parts
	Why   []string
	Terms []string
	// reasons are the strongest contributions, explained after sorting.
	reasons []contrib
}

// Params are the query-level settings.
type Params struct {
	// Profile is the intake's target_profile.
	Profile string
	// AvgBytes is the mean file size over the corpus.
	AvgBytes float64
	Weights  Weights
	// Explain is how many of the best files get their reasons (Why); 0
	// means all.
	Explain int
}

// Rank scores and orders files; files with a zero score are dropped. Ties
// break by path, so the order is deterministic.
func Rank(terms []Term, files []File, p Params) []Scored {
	r := newScorer(terms, files, p)
	out := make([]Scored, 0, len(files))
	for _, f := range files {
		if s, ok := r.file(f); ok {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, byScore)
	explain(out, p.Explain)
	return out
}

// scorer holds what Rank settles once per query before it scores any file.
type scorer struct {
	w      Weights
	p      Params
	avg    float64 // the mean file size, at least 1
	terms  []Term  // the terms, then one per idea (groupIdeas)
	trusts []float64
	id     ideas
	// active is how many terms can score: the coverage step's denominator.
	active int
	// pathPhrase marks the terms that name a path somewhere.
	pathPhrase []bool
}

// newScorer settles the weights (Default when none are given), each term's
// trust, the ideas scored as one term, and the terms that name paths.
func newScorer(terms []Term, files []File, p Params) *scorer {
	r := &scorer{w: p.Weights, p: p, avg: p.AvgBytes}
	if r.w.K1 == 0 {
		r.w = Default
	}
	if r.avg <= 0 {
		r.avg = 1
	}
	trusts := make([]float64, len(terms))
	for i, t := range terms {
		trusts[i] = trust(r.w, t, p.Profile)
	}
	r.terms, r.trusts, r.id = groupIdeas(terms, trusts, r.w)
	r.active = activeTerms(r.terms, r.trusts, r.id)
	r.pathPhrase = pathPhrases(len(r.terms), files)
	return r
}

// activeTerms counts the terms that can score: trusted, with an IDF, and
// not a spelling that its idea's group term stands for.
func activeTerms(terms []Term, trusts []float64, id ideas) int {
	active := 0
	for i, t := range terms {
		if trusts[i] > 0 && t.IDF > 0 && (i >= id.base || id.of[i] < 0) {
			active++
		}
	}
	return active
}

// pathPhrases marks the terms some file's name or directory holds. A phrase
// whose words name a path somewhere ("gh pr view" → pkg/cmd/pr/view/) is a
// command or a place, not a printed literal: its mentions in other files'
// text (usage lines, help) are no evidence.
func pathPhrases(n int, files []File) []bool {
	pathPhrase := make([]bool, n)
	for _, f := range files {
		for _, e := range f.Evidence {
			if e.FileNameExact || e.FileNamePart || e.DirName {
				pathPhrase[e.Term] = true
			}
		}
	}
	return pathPhrase
}

// file scores one file: the sum of its terms' contributions, raised for
// coverage, scaled by the code-path and neighbour factors, rounded to four
// places. ok is false for a file that scores nothing.
func (r *scorer) file(f File) (s Scored, ok bool) {
	s = Scored{File: f}
	cs := r.contribs(f, &s.Parts)
	if len(cs) == 0 {
		return s, false
	}
	r.sum(&s, cs)
	r.factors(&s)
	s.Score = math.Round(s.Score*10000) / 10000
	s.Base = s.Score
	if s.Score <= 0 {
		return s, false
	}
	sort.Strings(s.Terms)
	return s, true
}

// contribs are the file's scoring terms' contributions in evidence order;
// each is also counted into parts.
func (r *scorer) contribs(f File, parts *Parts) []contrib {
	lenNorm := 1 - r.w.B + r.w.B*float64(f.Bytes)/r.avg
	var cs []contrib
	evidence, matched := r.id.merge(f.Evidence)
	for _, e := range evidence {
		if c, ok := r.contrib(f.Path, e, lenNorm, matched, parts); ok {
			cs = append(cs, c)
		}
	}
	return cs
}

// contrib is one term's BM25F score in one file: the weak fields' frequency
// saturated by K1, plus the strong fields' bonuses in saturated terms, times
// IDF and trust. ok is false for an untrusted term or one with no evidence
// that counts.
func (r *scorer) contrib(path string, e TermEvidence, lenNorm float64, matched map[int][]int, parts *Parts) (contrib, bool) {
	w := r.w
	t := r.terms[e.Term]
	tr := r.trusts[e.Term]
	if tr == 0 {
		return contrib{}, false
	}
	body := e.Body + max(e.Definitions, 0) + e.DefLines
	bp, fields := r.strongFields(path, t, e)
	tf, fields := r.weakFields(e, body, lenNorm, &bp, fields)
	bonus := 0.0
	for _, b := range bp {
		bonus += b
	}
	if tf == 0 && bonus == 0 {
		return contrib{}, false
	}
	sc := t.IDF * tr * (tf*(w.K1+1)/(tf+w.K1) + bonus*(w.K1+1))
	parts.add(t, tr, tf*(w.K1+1)/(tf+w.K1), bp, w.K1+1, body)
	c := contrib{term: t.Term, origin: t.Origin, score: sc, fields: fields, body: body}
	if e.Term >= r.id.base {
		c.spelled = matched[e.Term-r.id.base]
		c.term = spellings(r.terms, c.spelled)
	}
	return c, true
}

// strongFields are the bonuses a term earns where it stands rather than how
// often: its file or directory name, the title's scope, a definition (the
// one definition of a code name most), a definition line, a quoted phrase
// or code name found verbatim. fields names each for the reasons.
func (r *scorer) strongFields(path string, t Term, e TermEvidence) (bp [nBonus]float64, fields []string) {
	w := r.w
	if e.FileNameExact {
		bp[bonusNameExact] = w.FileNameExact
		fields = append(fields, "file name")
	} else if e.FileNamePart {
		bp[bonusNamePart] = w.FileNamePart
		fields = append(fields, "file name part")
	}
	if e.DirName {
		bp[bonusDir] = w.DirName
		fields = append(fields, "directory")
	}
	if t.GoalKind == "scope" && (e.DirName || e.FileNameExact || e.FileNamePart) {
		bp[bonusScope] = w.Scope
		fields = append(fields, "scope")
	}
	if e.Definitions > 0 {
		bp[bonusDef] = w.Definition
		fields = append(fields, "definition")
		if sp := uniqueDefinition(t); w.DefUnique > 0 && sp > 0 && symbols.Lang(path) != "" {
			bp[bonusDefUnique] = w.DefUnique * sp
			fields = append(fields, fmt.Sprintf("the one definition (of %d files mentioning it)", t.DF))
		}
	} else if e.DefLines > 0 {
		bp[bonusDefLine] = w.DefLine
		fields = append(fields, "definition line")
	}
	if verbatim := e.Body + e.Definitions + e.DefLines + e.Headings + e.Keys; verbatim > 0 && !r.pathPhrase[e.Term] {
		switch literalKind(t) {
		case "phrase":
			if w.Phrase > 0 {
				bp[bonusPhrase] = w.Phrase
				fields = append(fields, "verbatim phrase")
			}
		case "code name":
			if w.CodeName > 0 {
				bp[bonusCodeName] = w.CodeName
				fields = append(fields, "verbatim code name")
			}
		}
	}
	return bp, fields
}

// weakFields is the term's pseudo frequency before saturation: capped
// headings and keys, and the body mentions (plain, definitions and
// definition lines) normalised by file length. Under
// the manifest_registry profile a key is also the setting's declaration, a
// strong field set in bp. fields goes on naming what counted.
func (r *scorer) weakFields(e TermEvidence, body int, lenNorm float64, bp *[nBonus]float64, fields []string) (float64, []string) {
	w := r.w
	tf := 0.0
	if e.Headings > 0 {
		tf += w.Heading * float64(min(e.Headings, w.HeadCap))
		fields = append(fields, "heading")
	}
	if e.Keys > 0 {
		tf += w.Key * float64(min(e.Keys, w.HeadCap))
		fields = append(fields, "key")
		if r.p.Profile == "manifest_registry" && e.Definitions == 0 {
			// A setting is declared by its key: under this profile
			// the key is the definition site.
			bp[bonusKeyDecl] = w.Definition
			fields = append(fields, "key declaration")
		}
	}
	if body > 0 {
		tf += w.Body * float64(body) / lenNorm
	}
	return tf, fields
}

// sum adds the contributions, strongest first, into the file's score and
// terms (an idea's matched spellings each by name), keeps the five strongest
// as its reasons, and raises the score by the coverage weight for each
// further distinct term.
func (r *scorer) sum(s *Scored, cs []contrib) {
	slices.SortStableFunc(cs, func(a, b contrib) int { return cmp.Compare(b.score, a.score) })
	for _, c := range cs {
		s.Score += c.score
		if c.spelled == nil {
			s.Terms = append(s.Terms, c.term)
		}
		for _, m := range c.spelled {
			s.Terms = append(s.Terms, r.terms[m].Term)
		}
	}
	s.reasons = cs[:min(len(cs), 5)]
	if r.active > 1 {
		s.Score *= 1 + r.w.Coverage*float64(len(cs)-1)/float64(r.active-1)
	}
}

// factors scales the score by the code-path factor of the file's kind
// (tests, docs, vendored code) under code_path and by the neighbour factor
// of a known-neighbor surface, noting each in Why and Parts.Factor.
func (r *scorer) factors(s *Scored) {
	s.Parts.Factor = 1
	if r.p.Profile == "code_path" {
		if cf, why := codePathFactor(r.w, s.Path); cf != 1 {
			s.Score *= cf
			s.Parts.Factor = cf
			s.Why = append(s.Why, why)
		}
	}
	if s.Neighbor {
		s.Score *= r.w.NeighborFactor
		s.Parts.Factor *= r.w.NeighborFactor
		s.Why = append(s.Why, "known neighbor surface: neighbor only")
	}
}

// explain writes the reasons of the first n ranked files (every file when n
// is 0 or less) ahead of their notes in Why, and drops the others' Why: only
// the files that will be shown are explained, since writing the reasons of
// every file with evidence cost more than scoring them.
func explain(out []Scored, n int) {
	for i := range out {
		if n <= 0 || i < n {
			why := make([]string, 0, len(out[i].reasons)+len(out[i].Why))
			for _, c := range out[i].reasons {
				why = append(why, c.String())
			}
			out[i].Why = append(why, out[i].Why...)
		} else {
			out[i].Why = nil
		}
		out[i].reasons = nil
	}
}

// uniqueDefinition is the specificity of a goal term written as code that
// exactly one file defines, ln(1 + (DF−0.5)/1.5), and 0 for any other term.
func uniqueDefinition(t Term) float64 {
	if t.DefFiles != 1 || t.DF < 1 || !writtenAsCode(t.GoalKind) {
		return 0
	}
	return math.Log(1 + (float64(t.DF)-0.5)/1.5)
}

// writtenAsCode: the intake's kinds of a name the goal spells as code.
func writtenAsCode(kind string) bool {
	switch kind {
	case "identifier", "qualified", "dotted", "stack_frame":
		return true
	}
	return false
}

// contrib is one term's share of a file's score and the fields it came
// from, for the file's reasons.
type contrib struct {
	term, origin string
	score        float64
	fields       []string
	body         int
	// spelled are the matched spellings of a group (their term indices),
	// nil for a plain term.
	spelled []int
}

// String is the reason as the rank record writes it:
// "term (origin, field, …, body×N)".
func (c contrib) String() string {
	var b strings.Builder
	b.WriteString(c.term)
	b.WriteString(" (")
	b.WriteString(c.origin)
	for _, f := range c.fields {
		b.WriteString(", ")
		b.WriteString(f)
	}
	if c.body > 0 {
		b.WriteString(", body×")
		b.WriteString(strconv.Itoa(c.body))
	}
	b.WriteString(")")
	return b.String()
}

// byScore orders ranked files best first, ties by path. Paths are unique, so
// the order is total.
func byScore(a, b Scored) int {
	if a.Score != b.Score {
		return cmp.Compare(b.Score, a.Score)
	}
	return strings.Compare(a.Path, b.Path)
}

// literalKind tells whether a goal term is a quoted phrase of two words or
// more ("phrase"), a qualified or dotted name ("code name"), or neither ("").
// A single quoted word is neither: `Use` or "template" is a word like any
// other.
func literalKind(t Term) string {
	switch t.GoalKind {
	case "quoted", "error_fragment":
		words := 0
		for _, f := range strings.FieldsFunc(t.Term, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }) {
			if strings.IndexFunc(f, unicode.IsLetter) >= 0 {
				words++
			}
		}
		if words >= 2 {
			return "phrase"
		}
	case "qualified", "dotted":
		return "code name"
	}
	return ""
}

func trust(w Weights, t Term, profile string) float64 {
	if t.Use == "exclude" || t.Use == "caution" {
		return 0
	}
	tr, ok := w.Trust[t.Origin]
	if !ok {
		tr = 1
	}
	if profile == "code_path" {
		if c, ok := w.TrustCodePath[t.Origin]; ok {
			tr = c
		}
	}
	if t.Use == "pressure" {
		tr = min(tr, w.Pressure)
	}
	if k, ok := w.KindTrust[t.GoalKind]; ok {
		tr *= k
	}
	if t.InTitle && w.Title > 0 {
		tr *= w.Title
	}
	if t.GoalCount > 1 {
		tr *= 1 + w.Repeat*math.Log2(float64(t.GoalCount))
	}
	if t.Generic {
		tr *= w.GenericAlone
	}
	return tr
}
