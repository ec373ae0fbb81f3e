// Package basket builds the candidate basket (SPEC §7, stage 4): every term
// the lane may search for, each with an origin (where it came from, most
// trusted first) and a use (what it may do downstream), the pairing rule for
// generic terms, exclusions from forbidden assumptions, neighbor-only
// surfaces from known neighbors, and document-frequency weights from the
// scout's corpus statistics.
package basket

import (
	"fmt"
	"math"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/rtch/rtch/pkg/intake"
	"github.com/rtch/rtch/pkg/probe/match"
	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/scout"
)

// Origins, most trusted first (SPEC §7).
var Origins = []string{"durable_handle", "manifest_key", "explicit_seed", "local_shape", "file_path",
	"heading", "code_symbol", "json_key", "yaml_key", "ref_neighborhood", "caution", "exploratory", "noise"}

// OriginRank is the position of an origin in Origins (0 = most trusted).
var OriginRank = func() map[string]int {
	m := map[string]int{}
	for i, o := range Origins {
		m[o] = i
	}
	return m
}()

// Uses a candidate may have.
const (
	UseLocate       = "locate"
	UsePressure     = "pressure"
	UseHydrate      = "hydrate"
	UseNeighborOnly = "neighbor_only"
	UseCaution      = "caution"
	UseExclude      = "exclude"
	UseExploratory  = "exploratory"
)

// DefaultGeneric are the generic terms weak alone (SPEC §7).
var DefaultGeneric = []string{"domain", "estate", "site", "runtime", "state", "handler", "router",
	"agent", "surface", "principal"}

// ProcessWords describe a change request rather than the code it is about
// ("fix", "ensure", "incorrect"): as goal terms they are noise. Written as
// commit messages and issue titles are, goals are full of them.
var ProcessWords = []string{"fix", "fixes", "fixed", "fixing", "bug", "bugs", "bugfix", "ensure", "ensures",
	"properly", "correctly", "correct", "incorrect", "incorrectly", "wrong", "instead", "please", "thanks",
	"closes", "resolves", "resolve", "issue", "issues", "patch", "tyop", "typo", "work", "works", "working", "broken"}

// ChangeVerbs open a commit message or an issue title in the imperative
// ("Remove race conditions from screen update", "api: return structured
// error", "Avoid panic on …"): the verb says what the change does, its object
// says what it is about. As the goal's leading word a change verb is a
// process word; anywhere else it may be the topic ("screen update").
// Measured on go-commits: a leading change verb not confirmed by the shape is
// in a gold file in 3 of 12 tasks, other exploratory words in 58 %.
var ChangeVerbs = []string{"add", "adds", "allow", "avoid", "bump", "change", "clean", "cleanup", "convert",
	"delete", "deprecate", "detect", "disable", "drop", "enable", "handle", "honor", "honour", "implement",
	"improve", "introduce", "keep", "make", "move", "prevent", "refactor", "remove", "rename", "replace",
	"respect", "return", "revert", "rework", "show", "simplify", "skip", "start", "stop", "support", "treat",
	"tweak", "update", "upgrade", "use"}

// leadVerb is the byte offset of the change verb that opens the goal's first
// line (after a commit-style prefix such as "api:", "cmd, api:" or
// "fix(release):", see intake.ParseTitle), or -1.
func leadVerb(goal string) int {
	at := intake.ParseTitle(goal).Words
	n := strings.IndexFunc(goal[at:], func(r rune) bool { return !unicode.IsLetter(r) })
	if n < 0 {
		n = len(goal) - at
	}
	if n > 0 && slices.Contains(ChangeVerbs, strings.ToLower(goal[at:at+n])) {
		return at
	}
	return -1
}

// Input is everything the basket is built from.
type Input struct {
	Intake schema.Intake
	Zone   schema.Zone
	Scout  *scout.Result
	// Generic replaces DefaultGeneric when non-nil.
	Generic []string
	// Handles are the durable-handle patterns (nil: scout.DefaultHandles).
	Handles []string
}

// Output is the basket: its candidates in order and the closing record.
type Output struct {
	Candidates []schema.Candidate
	Basket     schema.Basket
}

// ScoutTerms lists the terms the scout should confirm and count for an
// intake: goal terms, explicit seeds, the known target and durable handles
// named in the goal.
func ScoutTerms(in schema.Intake, handles []string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(t string) {
		t = strings.TrimSpace(t)
		if t != "" && !seen[match.Fold(t)] {
			seen[match.Fold(t)] = true
			out = append(out, t)
		}
	}
	for _, s := range in.ExplicitSeeds {
		add(s)
	}
	for _, h := range goalHandles(in.Goal, handles) {
		add(h)
	}
	for _, g := range in.GoalTerms {
		add(g.Term)
		if g.File != "" {
			add(g.File)
		}
		if subj := TestSubject(g.Term); subj != "" {
			add(subj)
		}
	}
	for _, f := range in.ForbiddenAssumptions {
		if !isPathLike(f) {
			add(f)
		}
	}
	if kt := knownTargetPath(in.KnownTarget); kt != "" {
		add(kt)
	}
	return out
}

// TestSubject names the module a test file tests, by the common layouts:
// test_pycode_ast.py → pycode_ast.py (whose path may be pycode/ast.py),
// parse_test.go → parse.go, widget.test.ts → widget.ts, FooTest.java →
// Foo.java, foo_spec.rb → foo.rb. It returns "" for other names.
func TestSubject(name string) string {
	base := path.Base(name)
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	switch {
	case ext == "":
		return ""
	case strings.HasPrefix(stem, "test_") && len(stem) > 5:
		return stem[5:] + ext
	case strings.HasSuffix(stem, "_test") && len(stem) > 5:
		return strings.TrimSuffix(stem, "_test") + ext
	case strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec"):
		return stem[:len(stem)-5] + ext
	case strings.HasSuffix(stem, "_spec") && len(stem) > 5:
		return strings.TrimSuffix(stem, "_spec") + ext
	case ext == ".java" && strings.HasSuffix(stem, "Test") && len(stem) > 4:
		return strings.TrimSuffix(stem, "Test") + ext
	}
	return ""
}

func goalHandles(goal string, handles []string) []string {
	if handles == nil {
		handles = scout.DefaultHandles
	}
	var out []string
	for _, h := range handles {
		re, err := regexp.Compile(h)
		if err != nil {
			continue
		}
		out = append(out, re.FindAllString(goal, 20)...)
	}
	return out
}

func knownTargetPath(kt string) string {
	if i := strings.LastIndex(kt, ":L"); i > 0 {
		kt = kt[:i]
	}
	return strings.TrimSpace(kt)
}

// isPathLike tells a path or glob from a term or a sentence.
func isPathLike(s string) bool { return scout.IsPathPattern(s) }

// IDF is the probabilistic inverse document frequency used everywhere:
// ln(1 + (N - df + 0.5) / (df + 0.5)).
func IDF(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

type cand struct {
	schema.Candidate
	order int
}

// Build classifies every term.
func Build(in Input) Output {
	generic := in.Generic
	if generic == nil {
		generic = DefaultGeneric
	}
	isGeneric := map[string]bool{}
	for _, g := range generic {
		isGeneric[match.Fold(g)] = true
	}
	n := 0
	if in.Scout != nil {
		n = in.Scout.Shape.Corpus.Docs
	}
	stats := func(t string) *scout.TermStats {
		if in.Scout == nil {
			return nil
		}
		return in.Scout.Terms[match.Fold(t)]
	}
	byTerm := map[string]*cand{}
	var order []string
	put := func(c schema.Candidate) *cand {
		k := match.Fold(c.Term)
		if old, ok := byTerm[k]; ok {
			// Keep the more trusted classification; merge notes.
			if OriginRank[c.Origin] < OriginRank[old.Origin] {
				c.Notes = joinNotes(c.Notes, old.Notes)
				old.Candidate = c
			}
			return old
		}
		cc := &cand{Candidate: c, order: len(order)}
		byTerm[k] = cc
		order = append(order, k)
		return cc
	}
	fill := func(c *schema.Candidate) {
		c.Generic = isGeneric[match.Fold(c.Term)]
		if st := stats(c.Term); st != nil {
			c.DF = st.DF
		}
		c.IDF = round(IDF(n, c.DF))
		if c.PairedWith == nil {
			c.PairedWith = []string{}
		}
	}

	// Exclusions and cautions from forbidden assumptions.
	var exclusions []string
	excludedTerm := map[string]bool{}
	for _, f := range in.Intake.ForbiddenAssumptions {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		exclusions = append(exclusions, f)
		if isPathLike(f) {
			c := schema.Candidate{Term: f, Origin: "caution", Use: UseExclude,
				ExpectedSignal: "none: files matching this pattern are excluded from probing and ranking",
				Notes:          "forbidden_assumptions path pattern"}
			fill(&c)
			put(c)
			continue
		}
		excludedTerm[match.Fold(f)] = true
		c := schema.Candidate{Term: f, Origin: "caution", Use: UseExclude,
			ExpectedSignal: "none: the term is never used to locate and files are not ranked on it",
			Notes:          "forbidden_assumptions term"}
		fill(&c)
		put(c)
	}

	// Known neighbors: neighbor_only surfaces.
	var neighbors []string
	for _, nb := range in.Intake.KnownNeighborSurfaces {
		nb = strings.TrimSpace(nb)
		if nb == "" {
			continue
		}
		neighbors = append(neighbors, nb)
		c := schema.Candidate{Term: nb, Origin: "ref_neighborhood", Use: UseNeighborOnly,
			ExpectedSignal: "references to or from the neighbor surface; never evidence for a claim",
			Notes:          "known_neighbor_surfaces"}
		fill(&c)
		put(c)
	}

	// Explicit seeds.
	for _, s := range in.Intake.ExplicitSeeds {
		if strings.TrimSpace(s) == "" {
			continue
		}
		c := schema.Candidate{Term: strings.TrimSpace(s), Origin: "explicit_seed", Use: UseLocate,
			PairedWith: []string{"seed"}, ExpectedSignal: "every place the seed occurs; source-bearing",
			Notes: "explicit seed from the intake"}
		addLocations(&c, stats(s))
		fill(&c)
		put(c)
	}
	// Durable handles named in the goal.
	for _, h := range goalHandles(in.Intake.Goal, in.Handles) {
		c := schema.Candidate{Term: h, Origin: "durable_handle", Use: UseLocate, PairedWith: []string{"goal"},
			ExpectedSignal: "the record or document that defines the handle, and its references",
			Notes:          "durable handle named in the goal"}
		addLocations(&c, stats(h))
		fill(&c)
		put(c)
	}
	// Known target.
	if kt := knownTargetPath(in.Intake.KnownTarget); kt != "" {
		c := schema.Candidate{Term: kt, Origin: "file_path", Use: UseHydrate, PairedWith: []string{"known_target"},
			ExpectedSignal: "the surface the caller already suspects", Notes: "known_target from the intake"}
		addLocations(&c, stats(kt))
		fill(&c)
		put(c)
	}
	// Truth files and manifests of the zone.
	for _, tf := range in.Zone.TruthFiles {
		c := schema.Candidate{Term: tf, Origin: "local_shape", Use: UsePressure, PairedWith: []string{"zone:truth_file"},
			ExpectedSignal: "project doctrine that may constrain the answer", Notes: "truth file at the zone root"}
		fill(&c)
		put(c)
	}
	for _, mf := range in.Zone.Manifests {
		c := schema.Candidate{Term: mf, Origin: "manifest_key", Use: UsePressure, PairedWith: []string{"zone:manifest"},
			ExpectedSignal: "the manifest or registry entry that declares the surface", Notes: "manifest at the zone root"}
		fill(&c)
		put(c)
	}

	// Goal terms, promoted by the shape or left exploratory.
	var generics []string
	process := map[string]bool{}
	for _, w := range ProcessWords {
		process[w] = true
	}
	lead := leadVerb(in.Intake.Goal)
	seedSet := map[string]bool{}
	for _, s := range in.Intake.ExplicitSeeds {
		seedSet[match.Fold(s)] = true
	}
	hasTruthPhrase := false
	if in.Scout != nil {
		for _, sc := range in.Scout.Shape.ShapeInventory {
			if sc.Scan == scout.ScanTruthPhrases && sc.Hits > 0 {
				hasTruthPhrase = true
			}
		}
	}
	for _, g := range in.Intake.GoalTerms {
		t := strings.TrimSpace(g.Term)
		if t == "" {
			continue
		}
		k := match.Fold(t)
		if excludedTerm[k] {
			continue // already an exclusion
		}
		if _, ok := byTerm[k]; ok && seedSet[k] {
			continue
		}
		st := stats(t)
		if g.File != "" {
			if fs := stats(g.File); fs != nil && fs.ConfirmCount["path"]+fs.ConfirmCount["file_name"] > 0 {
				st = fs
				t = g.File
				// A frame's path outside the tree names the walked file it ends with.
				if len(fs.Confirmations) > 0 && fs.ConfirmCount["path"]+fs.ConfirmCount["file_name"] == 1 {
					t = fs.Confirmations[0].Path
				}
			}
		}
		c := schema.Candidate{Term: t, GoalKind: g.Kind, GoalCount: g.Count, InTitle: inTitle(in.Intake.Goal, g)}
		if !hasAlnum(t) {
			c.Origin, c.Use = "noise", UseExploratory
			c.Notes = fmt.Sprintf("goal term (%s) without a letter or digit: punctuation, not a name", g.Kind)
			c.ExpectedSignal = "none expected: no letter or digit"
			fill(&c)
			put(c)
			continue
		}
		origin, paired, why := promote(st)
		generic := isGeneric[k]
		if generic {
			// Pairing rule: a generic term needs a seed, handle, heading, truth
			// marker, ref or local file shape beside it.
			var pairs []string
			for _, p := range paired {
				if strings.HasPrefix(p, "heading:") || strings.HasPrefix(p, "file:") || strings.HasPrefix(p, "dir:") || strings.HasPrefix(p, "path:") {
					pairs = append(pairs, p)
				}
			}
			if len(goalHandles(in.Intake.Goal, in.Handles)) > 0 {
				pairs = append(pairs, "durable_handle:goal")
			}
			if len(pairs) == 0 {
				c.Origin, c.Use = "exploratory", UseExploratory
				c.Notes = "generic term without pairing: weak alone, never supports a claim"
				if hasTruthPhrase {
					c.Notes += " (source-of-truth phrases exist in the tree but not beside this term)"
				}
				generics = append(generics, t)
				c.PairedWith = []string{}
				c.ExpectedSignal = "weak: hits locate only"
				fill(&c)
				put(c)
				continue
			}
			paired = pairs
		}
		switch {
		case lead >= 0 && g.Offset == lead && g.Count == 1 && g.Kind == "word":
			c.Origin, c.Use = "noise", UseExploratory
			c.Notes = "goal term (word) that opens the goal as a change verb: it says what the change does, not where"
			c.ExpectedSignal = "none expected: a process word"
		case process[k] && origin == "":
			c.Origin, c.Use = "noise", UseExploratory
			c.Notes = fmt.Sprintf("goal term (%s) that describes the change request, not the code", g.Kind)
			c.ExpectedSignal = "none expected: a process word"
		case origin != "":
			c.Origin, c.Use, c.PairedWith = origin, UseLocate, paired
			c.Notes = fmt.Sprintf("goal term (%s) confirmed by shape: %s", g.Kind, why)
			c.ExpectedSignal = expectedSignal(origin)
		case st != nil && st.DF == 0:
			c.Origin, c.Use = "noise", UseExploratory
			c.Notes = fmt.Sprintf("goal term (%s) that no walked file contains", g.Kind)
			c.ExpectedSignal = "none expected: absent from the tree"
		default:
			c.Origin, c.Use = "exploratory", UseExploratory
			c.Notes = fmt.Sprintf("goal term (%s) not confirmed by shape", g.Kind)
			c.ExpectedSignal = "body mentions; locates only"
		}
		addLocations(&c, st)
		fill(&c)
		put(c)
	}

	// Modules under test of test files named in the goal.
	for _, g := range in.Intake.GoalTerms {
		subj := TestSubject(g.Term)
		st := stats(subj)
		if subj == "" || st == nil {
			continue
		}
		n := 0
		for _, cf := range st.Confirmations {
			if (cf.Kind != "path" && cf.Kind != "file_name") || n >= 3 {
				continue
			}
			n++
			c := schema.Candidate{Term: cf.Path, Origin: "file_path", Use: UseLocate, PairedWith: []string{"tested_by:" + g.Term},
				ExpectedSignal: "the module the named test exercises; source-bearing",
				Notes:          fmt.Sprintf("module under test of %s, named in the goal", g.Term)}
			fill(&c)
			put(c)
		}
	}

	// Order: origin trust, then the order terms were met.
	cs := make([]*cand, 0, len(order))
	for _, k := range order {
		cs = append(cs, byTerm[k])
	}
	sort.SliceStable(cs, func(i, j int) bool {
		ri, rj := OriginRank[cs[i].Origin], OriginRank[cs[j].Origin]
		if ri != rj {
			return ri < rj
		}
		return cs[i].order < cs[j].order
	})
	var out Output
	var ids []string
	for _, c := range cs {
		c.Envelope = record.Env(schema.KindCandidate, schema.V1, c.Term, c.Origin, c.Use)
		out.Candidates = append(out.Candidates, c.Candidate)
		ids = append(ids, c.Term+"\x00"+c.Origin+"\x00"+c.Use)
	}
	sort.Strings(generics)
	if generics == nil {
		generics = []string{}
	}
	if exclusions == nil {
		exclusions = []string{}
	}
	if neighbors == nil {
		neighbors = []string{}
	}
	bid := record.ID(schema.KindBasket, ids...)
	out.Basket = schema.Basket{Envelope: record.Env(schema.KindBasket, schema.V1, bid), BasketID: "basket_" + bid[:12],
		TermCount: len(out.Candidates), GenericAloneWarnings: generics, Exclusions: exclusions,
		NeighborSurfaces: neighbors, CorpusDocs: n}
	return out
}

// inTitle tells whether a goal term occurs in the first line of a goal that
// has more than one line.
func inTitle(goal string, g schema.GoalTerm) bool {
	first, rest, ok := strings.Cut(strings.TrimSpace(goal), "\n")
	if !ok || strings.TrimSpace(rest) == "" {
		return false
	}
	if g.Offset+g.Length <= len(first) && g.Length > 0 {
		return true
	}
	return strings.Contains(strings.ToLower(first), strings.ToLower(g.Term))
}

// hasAlnum tells whether s holds a letter or a digit.
func hasAlnum(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}

// promote picks the most trusted origin the shape confirms for a goal term.
func promote(st *scout.TermStats) (origin string, paired []string, why string) {
	if st == nil {
		return "", nil, ""
	}
	kinds := map[string]string{"path": "file_path", "file_name": "file_path", "dir_name": "file_path",
		"heading": "heading", "code_symbol": "code_symbol", "json_key": "json_key", "yaml_key": "yaml_key",
		"toml_key": "yaml_key", "frontmatter_key": "yaml_key"}
	prefix := map[string]string{"path": "path", "file_name": "file", "dir_name": "dir", "heading": "heading",
		"code_symbol": "symbol", "json_key": "json_key", "yaml_key": "yaml_key", "toml_key": "toml_key", "frontmatter_key": "frontmatter_key"}
	best := ""
	var whys []string
	for _, c := range st.Confirmations {
		o := kinds[c.Kind]
		if o == "" {
			continue
		}
		if best == "" || OriginRank[o] < OriginRank[best] {
			best = o
		}
		loc := c.Path
		if c.Line > 0 {
			loc = fmt.Sprintf("%s:%d", c.Path, c.Line)
		}
		if len(paired) < 8 {
			paired = append(paired, prefix[c.Kind]+":"+loc)
		}
	}
	for _, k := range []string{"path", "file_name", "dir_name", "heading", "code_symbol", "json_key", "yaml_key", "toml_key", "frontmatter_key"} {
		if n := st.ConfirmCount[k]; n > 0 {
			whys = append(whys, fmt.Sprintf("%d %s", n, k))
		}
	}
	return best, paired, strings.Join(whys, ", ")
}

func expectedSignal(origin string) string {
	switch origin {
	case "file_path":
		return "the file or directory named by the term; source-bearing"
	case "heading":
		return "the section under the heading; source-bearing"
	case "code_symbol":
		return "the definition of the symbol and its uses; source-bearing"
	case "json_key", "yaml_key":
		return "the configuration entry under the key"
	}
	return "mentions of the term"
}

// addLocations copies the scout's confirmations (capped) as path:line.
func addLocations(c *schema.Candidate, st *scout.TermStats) {
	if st == nil {
		return
	}
	for _, cf := range st.Confirmations {
		loc := cf.Path
		if cf.Line > 0 {
			loc = fmt.Sprintf("%s:%d", cf.Path, cf.Line)
		}
		c.Locations = append(c.Locations, cf.Kind+":"+loc)
	}
}

func joinNotes(a, b string) string {
	if a == "" {
		return b
	}
	if b == "" || a == b {
		return a
	}
	return a + "; " + b
}

func round(f float64) float64 { return math.Round(f*10000) / 10000 }
