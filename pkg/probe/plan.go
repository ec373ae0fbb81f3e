// Package probe is stage 5 of the lane (SPEC §8): it turns the candidate
// basket into a typed probe plan — families, budgets per fanout level, claim
// authority, the cost-discovery dry run — and executes every probe in one
// parallel pass over the zone's files: each file is read once, every term of
// every probe is found by one case-folded Aho-Corasick scan of its bytes (no
// regular expression ever runs over a whole file), and each match is
// classified by field (definition line, heading, key, body) on the spot. The
// pass doubles as the dry run: it counts, for every probe, the files and lines
// its terms occur in. Afterwards the files are ranked (package rank) and each
// executed probe's hits are emitted in rank order, capped.
package probe

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/rtch/rtch/pkg/config"
	"github.com/rtch/rtch/pkg/match"
	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/scout"
)

// Families, in the order the plan considers them.
const (
	FamilyExplicitSeed   = "explicit_seed"
	FamilyDurableHandle  = "durable_handle"
	FamilyFileInventory  = "file_inventory"
	FamilyCodeSymbol     = "code_symbol"
	FamilyHeading        = "heading"
	FamilyKey            = "json_yaml_key"
	FamilyBacklink       = "reference_backlink"
	FamilyCaution        = "caution"
	FamilyTruthPhrase    = "source_of_truth_phrase"
	FamilyTemporal       = "temporal_provenance"
	FamilyBodyTerm       = "body_term"
	statusPlanned        = "planned"
	statusExecuted       = "executed"
	statusSkippedCost    = "skipped_cost"
	dryRunFiles          = 50     // a target set above this many files is costed first
	costFiles            = 100    // above this many files …
	costLines            = 50_000 // … or this many lines, the probe runs only at wide, as exploratory
	maxBodyProbes        = 6      // body-term probes at most, so typed families keep budget
	authorityWeak        = "weak"
	authoritySource      = "source-bearing"
	authorityClaim       = "claim-supporting"
	targetKindNames      = "names"     // matches paths, reads no content
	targetKindConfirmed  = "confirmed" // files where the scout confirmed the term
	targetKindOccurrence = "occurrence"
)

// planned is a probe with the term indices it searches for.
type planned struct {
	schema.Probe
	terms      []int  // indices into the census terms
	targetKind string // names, confirmed, occurrence
}

// censusTerm is one literal the pass looks for.
type censusTerm struct {
	text      string // folded literal
	cand      int    // index of the candidate, -1 for phrases
	origin    string
	use       string
	idf       float64
	generic   bool
	goalKind  string // the intake's kind of the goal term, "" otherwise
	goalCount int    // times the goal mentions it
	inTitle   bool   // in the first line of a multi-line goal
	neighbor  bool   // literal stands for a known neighbor surface
	phrase    string // "truth" or "deprecation" for phrase literals
	pathOnly  bool   // a path-like term: matched against paths, and in content literally
	locations map[string][]int
	// df is the number of walked files holding the term; defFiles how many
	// of them the scout found a code definition of it in (0: none, or more
	// than the candidate's capped locations tell).
	df, defFiles int
	bit          uint64 // its own bit in a line's window mask (assignBits), 0 if none
	// group is the idea the term spells with others, groupIDF the IDF of
	// the files holding any of its spellings (the candidate's).
	group    string
	groupIDF float64
}

// plan builds the census terms and the probes for a basket: the typed
// families first, then the body-term probes unless the fanout is
// conservative, with the phrase families before the body terms when the
// profile reads documents first and after them otherwise.
func plan(in schema.Intake, cands []schema.Candidate, basket schema.Basket, budget config.FanoutBudget, profile string) ([]censusTerm, []*planned) {
	cs := newCensus(cands, basket)
	pl := &planner{terms: cs.terms, max: budget.MaxProbes}
	pl.add(FamilyExplicitSeed, cs.byFamily[FamilyExplicitSeed], targetKindOccurrence)
	pl.add(FamilyDurableHandle, cs.byFamily[FamilyDurableHandle], targetKindOccurrence)
	pl.add(FamilyFileInventory, cs.byFamily[FamilyFileInventory], targetKindNames)
	pl.add(FamilyCodeSymbol, cs.byFamily[FamilyCodeSymbol], targetKindConfirmed)
	pl.add(FamilyHeading, cs.byFamily[FamilyHeading], targetKindConfirmed)
	pl.add(FamilyKey, cs.byFamily[FamilyKey], targetKindConfirmed)
	pl.add(FamilyBacklink, cs.byFamily[FamilyBacklink], targetKindOccurrence)
	pl.add(FamilyCaution, cs.byFamily[FamilyCaution], targetKindOccurrence)
	docsFirst := profile == "doctrine_chain" || profile == "audit_history" || profile == "manifest_registry"
	if docsFirst {
		pl.phrases(cs.byFamily)
	}
	if in.FanoutLevel != "conservative" && len(cs.body) > 0 {
		pl.bodyTerms(cs.body, docsFirst)
	}
	if !docsFirst {
		pl.phrases(cs.byFamily)
	}
	for _, p := range pl.probes {
		p.Status = statusPlanned
		p.Envelope = record.Env(schema.KindProbe, schema.V1, basket.BasketID, p.ProbeID, p.Family, strings.Join(p.InputTerms, "\x00"))
	}
	return cs.terms, pl.probes
}

// census is the list of literals the pass looks for, each once, and which
// of them each family and the body-term probes search.
type census struct {
	terms    []censusTerm
	index    map[string]int // term text → index in terms
	byFamily map[string][]int
	body     []int // the body-term candidates, in candidate order
}

// newCensus takes the basket's candidates into the census, makes every
// body term a file-name term too, and adds the truth and deprecation
// phrases.
func newCensus(cands []schema.Candidate, basket schema.Basket) *census {
	cs := &census{index: map[string]int{}, byFamily: map[string][]int{}}
	generic := map[string]bool{}
	for _, g := range basket.GenericAloneWarnings {
		generic[match.Fold(g)] = true
	}
	for ci, c := range cands {
		if c.Use == "exclude" || c.Origin == "noise" {
			continue
		}
		if ct, ok := candidateTerm(ci, c, generic); ok {
			cs.file(cs.add(ct), c, ct.pathOnly)
		}
	}
	cs.namesOfBodyTerms()
	cs.addPhrases(FamilyTruthPhrase, scout.TruthPhrases, "truth")
	cs.addPhrases(FamilyTemporal, scout.DeprecationMarkers, "deprecation")
	return cs
}

// addPhrases adds the phrase literals of a caution family (kind "truth" or
// "deprecation"), which no candidate stands for.
func (cs *census) addPhrases(fam string, phrases []string, kind string) {
	for _, p := range phrases {
		i := cs.add(censusTerm{text: p, cand: -1, origin: "caution", use: "caution", phrase: kind})
		cs.byFamily[fam] = append(cs.byFamily[fam], i)
	}
}

// add returns the index of the term's text, adding the term when the text
// is new: a literal is looked for once, whichever candidates share it.
func (cs *census) add(ct censusTerm) int {
	if i, ok := cs.index[ct.text]; ok {
		return i
	}
	cs.index[ct.text] = len(cs.terms)
	cs.terms = append(cs.terms, ct)
	return len(cs.terms) - 1
}

// candidateTerm is a candidate's literal: its folded term, or the base name
// of a known neighbor surface. ok is false when nothing is left to look for.
func candidateTerm(ci int, c schema.Candidate, generic map[string]bool) (censusTerm, bool) {
	ct := censusTerm{text: match.Fold(c.Term), cand: ci, origin: c.Origin, use: c.Use, idf: c.IDF, goalKind: c.GoalKind, goalCount: c.GoalCount, inTitle: c.InTitle,
		generic: generic[match.Fold(c.Term)], locations: parseLocations(c.Locations), df: c.DF, defFiles: len(definingFiles(c.Locations)),
		group: c.Group, groupIDF: c.GroupIDF}
	if c.Use == "neighbor_only" {
		ct.neighbor = true
		ct.text = match.Fold(path.Base(c.Term))
	}
	if isPathTerm(c.Term) {
		ct.pathOnly = true
	}
	return ct, ct.text != ""
}

// file puts census term i in its candidate's typed family (the first that
// fits), in the file inventory when it names a place, and among the body
// terms when its words are searched in text.
func (cs *census) file(i int, c schema.Candidate, pathOnly bool) {
	if fam := family(c); fam != "" {
		cs.byFamily[fam] = append(cs.byFamily[fam], i)
	}
	if c.Origin == "file_path" || c.Origin == "local_shape" || c.Origin == "manifest_key" || pathOnly {
		cs.byFamily[FamilyFileInventory] = append(cs.byFamily[FamilyFileInventory], i)
	}
	if c.Use == "exploratory" || c.Origin == "file_path" || c.Origin == "code_symbol" || c.Origin == "heading" ||
		c.Origin == "json_key" || c.Origin == "yaml_key" {
		if !pathOnly {
			cs.body = append(cs.body, i)
		}
	}
}

// family is the typed family a candidate's use or origin puts it in, ""
// for none.
func family(c schema.Candidate) string {
	switch {
	case c.Use == "caution":
		return FamilyCaution
	case c.Origin == "explicit_seed":
		return FamilyExplicitSeed
	case c.Origin == "durable_handle":
		return FamilyDurableHandle
	case c.Use == "neighbor_only":
		return FamilyBacklink
	case c.Origin == "code_symbol":
		return FamilyCodeSymbol
	case c.Origin == "heading":
		return FamilyHeading
	case c.Origin == "json_key" || c.Origin == "yaml_key":
		return FamilyKey
	}
	return ""
}

// namesOfBodyTerms adds every body term to the file inventory: a
// word-like located or exploratory term is also a path term, and a file
// named for it is strong evidence.
func (cs *census) namesOfBodyTerms() {
	inv := map[int]bool{}
	for _, i := range cs.byFamily[FamilyFileInventory] {
		inv[i] = true
	}
	for _, i := range cs.body {
		if !inv[i] {
			cs.byFamily[FamilyFileInventory] = append(cs.byFamily[FamilyFileInventory], i)
		}
	}
}

// planner numbers and describes the probes as the plan adds them, up to
// the fanout's budget.
type planner struct {
	terms  []censusTerm
	max    int // the fanout budget's MaxProbes
	probes []*planned
}

// add plans one probe of family fam over the census terms ts, unless ts is
// empty or the budget is spent.
func (pl *planner) add(fam string, ts []int, kind string) {
	if len(ts) == 0 || len(pl.probes) >= pl.max {
		return
	}
	p := &planned{terms: ts, targetKind: kind}
	p.Family = fam
	p.ProbeID = fmt.Sprintf("P%02d", len(pl.probes)+1)
	for _, t := range ts {
		p.InputTerms = append(p.InputTerms, pl.terms[t].text)
	}
	describe(p)
	pl.probes = append(pl.probes, p)
}

// phrases plans the source-of-truth and deprecation phrase probes.
func (pl *planner) phrases(byFamily map[string][]int) {
	pl.add(FamilyTruthPhrase, byFamily[FamilyTruthPhrase], targetKindOccurrence)
	pl.add(FamilyTemporal, byFamily[FamilyTemporal], targetKindOccurrence)
}

// bodyTerms plans the body-term probes: rarest terms first, grouped so each
// probe's target set stays small enough to run, into the slots the budget
// leaves (keeping two for the phrase families when they come after), at
// least one and at most maxBodyProbes. It sorts body in place.
func (pl *planner) bodyTerms(body []int, docsFirst bool) {
	sort.SliceStable(body, func(a, b int) bool { return pl.terms[body[a]].idf > pl.terms[body[b]].idf })
	slots := pl.max - len(pl.probes)
	if !docsFirst {
		slots -= 2 // keep room for the phrase families
	}
	slots = max(1, min(slots, maxBodyProbes))
	per := (len(body) + slots - 1) / slots
	for i := 0; i < len(body); i += per {
		pl.add(FamilyBodyTerm, body[i:min(i+per, len(body))], targetKindOccurrence)
	}
}

// describe fills a probe's purpose, target set, command class, signal,
// limitation and claim authority from its family.
func describe(p *planned) {
	switch p.Family {
	case FamilyExplicitSeed:
		p.Purpose = "find every occurrence of the caller's explicit seeds"
		p.CommandClass, p.ClaimAuthority = "literal", authorityClaim
		p.ExpectedSignal = "the surfaces the seeds name; claim-supporting once hydrated in a truth file"
		p.Limitation = "a seed mentioned in passing looks the same as one defined"
	case FamilyDurableHandle:
		p.Purpose = "find the records and documents that carry the durable handles"
		p.CommandClass, p.ClaimAuthority = "literal", authorityClaim
		p.ExpectedSignal = "the defining record of each handle and its references"
		p.Limitation = "handles quoted in prose are not distinguished from definitions"
	case FamilyFileInventory:
		p.Purpose = "match goal terms against file and directory names"
		p.CommandClass, p.ClaimAuthority = "path", authoritySource
		p.ExpectedSignal = "files named for a term"
		p.Limitation = "a name says what a file is meant to hold, not what it holds"
	case FamilyCodeSymbol:
		p.Purpose = "locate the definitions of the goal's code symbols"
		p.CommandClass, p.ClaimAuthority = "structural", authoritySource
		p.ExpectedSignal = "definition sites found by the scout's symbol scan, and mentions beside them"
		p.Limitation = "definitions by pattern, not by a compiler: shadowed or generated names may be missed"
	case FamilyHeading:
		p.Purpose = "locate the sections whose headings are goal terms"
		p.CommandClass, p.ClaimAuthority = "structural", authoritySource
		p.ExpectedSignal = "the heading lines and their sections"
		p.Limitation = "a heading names a section; its body may say otherwise"
	case FamilyKey:
		p.Purpose = "locate configuration keys equal to goal terms"
		p.CommandClass, p.ClaimAuthority = "structural", authoritySource
		p.ExpectedSignal = "the key's entries in JSON/YAML/TOML files"
		p.Limitation = "keys are read per file, capped; nested context is not resolved"
	case FamilyBacklink:
		p.Purpose = "find references to the known neighbor surfaces"
		p.CommandClass, p.ClaimAuthority = "literal", authorityWeak
		p.ExpectedSignal = "surfaces that mention a neighbor: neighbor only"
		p.Limitation = "a mention of a file name is not a dependency"
	case FamilyCaution:
		p.Purpose = "mark surfaces carrying caution terms"
		p.CommandClass, p.ClaimAuthority = "literal", authorityWeak
		p.ExpectedSignal = "caution only"
		p.Limitation = "never evidence for a claim"
	case FamilyTruthPhrase:
		p.Purpose = "find source-of-truth claims (authoritative, canonical, single source)"
		p.CommandClass, p.ClaimAuthority = "literal", authorityWeak
		p.ExpectedSignal = "documents that claim authority: caution only"
		p.Limitation = "a document calling itself canonical is a claim, not a proof"
	case FamilyTemporal:
		p.Purpose = "find deprecation and supersession markers"
		p.CommandClass, p.ClaimAuthority = "literal", authorityWeak
		p.ExpectedSignal = "surfaces marked deprecated or superseded: caution only"
		p.Limitation = "markers are not dated; currency is not verified"
	case FamilyBodyTerm:
		p.Purpose = "find goal words in file bodies (exploratory)"
		p.CommandClass, p.ClaimAuthority = "word", authorityWeak
		p.Exploratory = true
		p.ExpectedSignal = "mentions of goal words: hits locate only"
		p.Limitation = "words of the goal, not names confirmed by shape: noisy alone"
	}
	switch {
	case p.Family == FamilyFileInventory:
		p.TargetSet = "names of all walked files"
	case p.Family == FamilyCodeSymbol || p.Family == FamilyHeading || p.Family == FamilyKey:
		p.TargetSet = "files where the scout confirmed the terms"
	default:
		p.TargetSet = "walked files containing any input term (counted by the dry run)"
	}
}

// parseLocations reads the candidate's "kind:path:line" locations into
// path → lines for the kinds that mark a field.
func parseLocations(locs []string) map[string][]int {
	out := map[string][]int{}
	for _, l := range locs {
		kind, rest, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		i := strings.LastIndexByte(rest, ':')
		line := 0
		p := rest
		if i > 0 {
			if n, err := atoi(rest[i+1:]); err == nil {
				p, line = rest[:i], n
			}
		}
		switch kind {
		case "code_symbol", "heading", "json_key", "yaml_key", "toml_key", "frontmatter_key":
			out[p] = append(out[p], line)
		}
	}
	return out
}

// definingFiles lists the distinct files of a candidate's code_symbol
// locations in their order, or nil when the list is capped and so may not
// hold them all.
func definingFiles(locs []string) []string {
	if len(locs) >= scout.LocationsPerMatch { // a capped list may leave out defining files
		return nil
	}
	var out []string
	for _, l := range locs {
		rest, ok := strings.CutPrefix(l, "code_symbol:")
		if !ok {
			continue
		}
		if i := strings.LastIndexByte(rest, ':'); i > 0 {
			rest = rest[:i]
		}
		if !slices.Contains(out, rest) {
			out = append(out, rest)
		}
	}
	return out
}

func atoi(s string) (int, error) {
	n := 0
	if s == "" {
		return 0, fmt.Errorf("empty")
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("not a number")
		}
		n = n*10 + int(c-'0')
	}
	return n, nil
}

// isPathTerm tells a path or file name term from a word.
func isPathTerm(t string) bool {
	if strings.ContainsAny(t, " \t") {
		return false
	}
	if strings.Contains(t, "/") {
		return true
	}
	ext := path.Ext(t)
	return ext != "" && len(ext) <= 6 && ext != t && isAlnumString(ext[1:]) && !isDotted(t)
}

func isAlnumString(s string) bool {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

// isDotted tells "c.Run" or "pkg.Func" (an identifier chain) from "cobra.go".
func isDotted(t string) bool {
	ext := strings.ToLower(path.Ext(t))
	known := map[string]bool{".go": true, ".py": true, ".js": true, ".ts": true, ".rs": true, ".java": true, ".c": true,
		".h": true, ".cc": true, ".cpp": true, ".rb": true, ".md": true, ".json": true, ".yaml": true, ".yml": true,
		".toml": true, ".txt": true, ".rst": true, ".tsx": true, ".jsx": true, ".hpp": true, ".sh": true, ".cfg": true, ".ini": true}
	return !known[ext]
}

// rarestGoalTerm is the index of the goal's rarest term: among the terms the
// goal itself names (not phrases, neighbours or generic words), the one with
// the highest idf, ties to the earlier; -1 when the goal names none.
func rarestGoalTerm(terms []censusTerm) int {
	best := -1
	for i, t := range terms {
		if t.goalKind == "" || t.generic || t.phrase != "" || t.neighbor || t.pathOnly {
			continue
		}
		if best < 0 || t.idf > terms[best].idf {
			best = i
		}
	}
	return best
}
