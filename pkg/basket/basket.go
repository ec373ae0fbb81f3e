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
	"github.com/rtch/rtch/pkg/match"
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

// ScoutNameParts are the goal's abbreviations, for the scout's
// Options.NameParts: each enters the basket only when the tree names
// something with it.
func ScoutNameParts(in schema.Intake) []string {
	var out []string
	for _, g := range in.GoalTerms {
		if g.Kind == intake.KindAbbreviation {
			out = append(out, g.Term)
		}
	}
	return out
}

// ScoutGroups maps each folded goal term that spells an idea with others
// to its group (schema.GoalTerm's Group), for the scout's Options.Groups;
// nil when the intake groups nothing.
func ScoutGroups(in schema.Intake) map[string]string {
	var out map[string]string
	for _, g := range in.GoalTerms {
		if g.Group == "" {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[match.Fold(strings.TrimSpace(g.Term))] = g.Group
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
	b := newBuilder(in)
	b.forbidden()
	b.knownNeighbors()
	b.seeds()
	b.goalHandles()
	b.knownTarget()
	b.zoneFiles()
	b.goalTerms()
	b.testSubjects()
	return b.output()
}

// builder is the state of one basket's build.
type builder struct {
	in         Input
	isGeneric  map[string]bool
	n          int // corpus documents
	byTerm     map[string]*cand
	order      []string
	exclusions []string
	excluded   map[string]bool // folded terms of forbidden assumptions
	neighbors  []string
	generics   []string // generic terms left without a pairing
}

func newBuilder(in Input) *builder {
	generic := in.Generic
	if generic == nil {
		generic = DefaultGeneric
	}
	b := &builder{in: in, isGeneric: map[string]bool{}, byTerm: map[string]*cand{}, excluded: map[string]bool{}}
	for _, g := range generic {
		b.isGeneric[match.Fold(g)] = true
	}
	if in.Scout != nil {
		b.n = in.Scout.Shape.Corpus.Docs
	}
	return b
}

// stats are the scout's stats of a term, or nil.
func (b *builder) stats(t string) *scout.TermStats {
	if b.in.Scout == nil {
		return nil
	}
	return b.in.Scout.Terms[match.Fold(t)]
}

// put adds a candidate; a term met again keeps the more trusted
// classification and merges the notes.
func (b *builder) put(c schema.Candidate) *cand {
	k := match.Fold(c.Term)
	if old, ok := b.byTerm[k]; ok {
		if OriginRank[c.Origin] < OriginRank[old.Origin] {
			c.Notes = joinNotes(c.Notes, old.Notes)
			old.Candidate = c
		}
		return old
	}
	cc := &cand{Candidate: c, order: len(b.order)}
	b.byTerm[k] = cc
	b.order = append(b.order, k)
	return cc
}

// fill sets a candidate's generic flag, document frequency and weight.
func (b *builder) fill(c *schema.Candidate) {
	c.Generic = b.isGeneric[match.Fold(c.Term)]
	if st := b.stats(c.Term); st != nil {
		c.DF = st.DF
	}
	c.IDF = round(IDF(b.n, c.DF))
	if c.PairedWith == nil {
		c.PairedWith = []string{}
	}
}

// add fills a candidate and puts it.
func (b *builder) add(c schema.Candidate) {
	b.fill(&c)
	b.put(c)
}

// forbidden turns forbidden assumptions into exclusions and cautions.
func (b *builder) forbidden() {
	for _, f := range b.in.Intake.ForbiddenAssumptions {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		b.exclusions = append(b.exclusions, f)
		if isPathLike(f) {
			b.add(schema.Candidate{Term: f, Origin: "caution", Use: UseExclude,
				ExpectedSignal: "none: files matching this pattern are excluded from probing and ranking",
				Notes:          "forbidden_assumptions path pattern"})
			continue
		}
		b.excluded[match.Fold(f)] = true
		b.add(schema.Candidate{Term: f, Origin: "caution", Use: UseExclude,
			ExpectedSignal: "none: the term is never used to locate and files are not ranked on it",
			Notes:          "forbidden_assumptions term"})
	}
}

// knownNeighbors makes known neighbors neighbor_only surfaces.
func (b *builder) knownNeighbors() {
	for _, nb := range b.in.Intake.KnownNeighborSurfaces {
		nb = strings.TrimSpace(nb)
		if nb == "" {
			continue
		}
		b.neighbors = append(b.neighbors, nb)
		b.add(schema.Candidate{Term: nb, Origin: "ref_neighborhood", Use: UseNeighborOnly,
			ExpectedSignal: "references to or from the neighbor surface; never evidence for a claim",
			Notes:          "known_neighbor_surfaces"})
	}
}

// seeds adds the explicit seeds.
func (b *builder) seeds() {
	for _, s := range b.in.Intake.ExplicitSeeds {
		if strings.TrimSpace(s) == "" {
			continue
		}
		c := schema.Candidate{Term: strings.TrimSpace(s), Origin: "explicit_seed", Use: UseLocate,
			PairedWith: []string{"seed"}, ExpectedSignal: "every place the seed occurs; source-bearing",
			Notes: "explicit seed from the intake"}
		addLocations(&c, b.stats(s))
		b.add(c)
	}
}

// goalHandles adds the durable handles named in the goal.
func (b *builder) goalHandles() {
	for _, h := range goalHandles(b.in.Intake.Goal, b.in.Handles) {
		c := schema.Candidate{Term: h, Origin: "durable_handle", Use: UseLocate, PairedWith: []string{"goal"},
			ExpectedSignal: "the record or document that defines the handle, and its references",
			Notes:          "durable handle named in the goal"}
		addLocations(&c, b.stats(h))
		b.add(c)
	}
}

// knownTarget adds the surface the caller already suspects.
func (b *builder) knownTarget() {
	if kt := knownTargetPath(b.in.Intake.KnownTarget); kt != "" {
		c := schema.Candidate{Term: kt, Origin: "file_path", Use: UseHydrate, PairedWith: []string{"known_target"},
			ExpectedSignal: "the surface the caller already suspects", Notes: "known_target from the intake"}
		addLocations(&c, b.stats(kt))
		b.add(c)
	}
}

// zoneFiles adds the truth files and manifests of the zone.
func (b *builder) zoneFiles() {
	for _, tf := range b.in.Zone.TruthFiles {
		b.add(schema.Candidate{Term: tf, Origin: "local_shape", Use: UsePressure, PairedWith: []string{"zone:truth_file"},
			ExpectedSignal: "project doctrine that may constrain the answer", Notes: "truth file at the zone root"})
	}
	for _, mf := range b.in.Zone.Manifests {
		b.add(schema.Candidate{Term: mf, Origin: "manifest_key", Use: UsePressure, PairedWith: []string{"zone:manifest"},
			ExpectedSignal: "the manifest or registry entry that declares the surface", Notes: "manifest at the zone root"})
	}
}

// goalCtx is what classifying the goal terms needs beside the builder.
type goalCtx struct {
	process        map[string]bool
	lead           int // offset of the goal's leading change verb, or -1
	seedSet        map[string]bool
	hasTruthPhrase bool
}

// goalTerms adds the goal terms, promoted by the shape or left exploratory.
func (b *builder) goalTerms() {
	gc := goalCtx{process: map[string]bool{}, lead: leadVerb(b.in.Intake.Goal), seedSet: map[string]bool{}}
	for _, w := range ProcessWords {
		gc.process[w] = true
	}
	for _, s := range b.in.Intake.ExplicitSeeds {
		gc.seedSet[match.Fold(s)] = true
	}
	if b.in.Scout != nil {
		for _, sc := range b.in.Scout.Shape.ShapeInventory {
			if sc.Scan == scout.ScanTruthPhrases && sc.Hits > 0 {
				gc.hasTruthPhrase = true
			}
		}
	}
	for _, g := range b.in.Intake.GoalTerms {
		b.goalTerm(g, &gc)
	}
}

// goalTerm classifies one goal term.
func (b *builder) goalTerm(g schema.GoalTerm, gc *goalCtx) {
	t := strings.TrimSpace(g.Term)
	if t == "" {
		return
	}
	k := match.Fold(t)
	if b.excluded[k] {
		return // already an exclusion
	}
	if _, ok := b.byTerm[k]; ok && gc.seedSet[k] {
		return
	}
	t, st := b.goalFile(g, t)
	c := schema.Candidate{Term: t, GoalKind: g.Kind, GoalCount: g.Count, InTitle: inTitle(b.in.Intake.Goal, g)}
	b.group(&c, g)
	if !hasAlnum(t) {
		c.Origin, c.Use = "noise", UseExploratory
		c.Notes = fmt.Sprintf("goal term (%s) without a letter or digit: punctuation, not a name", g.Kind)
		c.ExpectedSignal = "none expected: no letter or digit"
		b.add(c)
		return
	}
	origin, paired, why := promote(st)
	if b.isGeneric[k] {
		pairs, ok := b.pairing(paired)
		if !ok {
			b.unpaired(c, t, gc.hasTruthPhrase)
			return
		}
		paired = pairs
	}
	switch {
	case gc.lead >= 0 && g.Offset == gc.lead && g.Count == 1 && g.Kind == "word":
		c.Origin, c.Use = "noise", UseExploratory
		c.Notes = "goal term (word) that opens the goal as a change verb: it says what the change does, not where"
		c.ExpectedSignal = "none expected: a process word"
	case gc.process[k] && origin == "":
		c.Origin, c.Use = "noise", UseExploratory
		c.Notes = fmt.Sprintf("goal term (%s) that describes the change request, not the code", g.Kind)
		c.ExpectedSignal = "none expected: a process word"
	case origin != "":
		c.Origin, c.Use, c.PairedWith = origin, UseLocate, paired
		c.Notes = fmt.Sprintf("goal term (%s) confirmed by shape: %s", g.Kind, why)
		c.ExpectedSignal = expectedSignal(origin)
	case g.Kind == intake.KindAbbreviation && (st == nil || st.NamePart == 0):
		// The short form enters only where the tree names something with
		// it (a file, directory, definition, heading or key, or a part of
		// a definition's name: funcOpMul, parse_opts): found only in body
		// text it is as likely another word's short form as the goal
		// word's (docs/decisions/stop.md).
		c.Origin, c.Use = "noise", UseExploratory
		c.Notes = fmt.Sprintf("abbreviation of the goal word %q that no name in the tree is written with", g.Parent)
		c.ExpectedSignal = "none expected: not used as a name in this tree"
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
	b.add(c)
}

// group carries a goal term's idea onto its candidate: the group and the
// document frequency and IDF of the files holding any of its spellings.
func (b *builder) group(c *schema.Candidate, g schema.GoalTerm) {
	if g.Group == "" || c.Term != strings.TrimSpace(g.Term) {
		return // a term that stands for a file it names is no spelling
	}
	c.Group = g.Group
	if b.in.Scout != nil {
		c.GroupDF = b.in.Scout.GroupDF[g.Group]
	}
	c.GroupIDF = round(IDF(b.n, c.GroupDF))
}

// goalFile returns the term and stats to classify: a goal term with a file
// the shape confirms stands for that file.
func (b *builder) goalFile(g schema.GoalTerm, t string) (string, *scout.TermStats) {
	st := b.stats(t)
	if g.File == "" {
		return t, st
	}
	fs := b.stats(g.File)
	if fs == nil || fs.ConfirmCount["path"]+fs.ConfirmCount["file_name"] == 0 {
		return t, st
	}
	t = g.File
	// A frame's path outside the tree names the walked file it ends with.
	if len(fs.Confirmations) > 0 && fs.ConfirmCount["path"]+fs.ConfirmCount["file_name"] == 1 {
		t = fs.Confirmations[0].Path
	}
	return t, fs
}

// pairing applies the pairing rule to a generic term: it needs a seed,
// handle, heading, truth marker, ref or local file shape beside it.
func (b *builder) pairing(paired []string) ([]string, bool) {
	var pairs []string
	for _, p := range paired {
		if strings.HasPrefix(p, "heading:") || strings.HasPrefix(p, "file:") || strings.HasPrefix(p, "dir:") || strings.HasPrefix(p, "path:") {
			pairs = append(pairs, p)
		}
	}
	if len(goalHandles(b.in.Intake.Goal, b.in.Handles)) > 0 {
		pairs = append(pairs, "durable_handle:goal")
	}
	return pairs, len(pairs) > 0
}

// unpaired adds a generic term without a pairing: exploratory, weak alone.
func (b *builder) unpaired(c schema.Candidate, t string, hasTruthPhrase bool) {
	c.Origin, c.Use = "exploratory", UseExploratory
	c.Notes = "generic term without pairing: weak alone, never supports a claim"
	if hasTruthPhrase {
		c.Notes += " (source-of-truth phrases exist in the tree but not beside this term)"
	}
	b.generics = append(b.generics, t)
	c.PairedWith = []string{}
	c.ExpectedSignal = "weak: hits locate only"
	b.add(c)
}

// testSubjects adds the modules under test of test files named in the goal.
func (b *builder) testSubjects() {
	for _, g := range b.in.Intake.GoalTerms {
		subj := TestSubject(g.Term)
		st := b.stats(subj)
		if subj == "" || st == nil {
			continue
		}
		n := 0
		for _, cf := range st.Confirmations {
			if (cf.Kind != "path" && cf.Kind != "file_name") || n >= 3 {
				continue
			}
			n++
			b.add(schema.Candidate{Term: cf.Path, Origin: "file_path", Use: UseLocate, PairedWith: []string{"tested_by:" + g.Term},
				ExpectedSignal: "the module the named test exercises; source-bearing",
				Notes:          fmt.Sprintf("module under test of %s, named in the goal", g.Term)})
		}
	}
}

// output orders the candidates (origin trust, then the order terms were
// met) and closes the basket.
func (b *builder) output() Output {
	cs := make([]*cand, 0, len(b.order))
	for _, k := range b.order {
		cs = append(cs, b.byTerm[k])
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
	generics := b.generics
	sort.Strings(generics)
	bid := record.ID(schema.KindBasket, ids...)
	out.Basket = schema.Basket{Envelope: record.Env(schema.KindBasket, schema.V1, bid), BasketID: "basket_" + bid[:12],
		TermCount: len(out.Candidates), GenericAloneWarnings: nonNil(generics), Exclusions: nonNil(b.exclusions),
		NeighborSurfaces: nonNil(b.neighbors), CorpusDocs: b.n}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
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
