package hydrate

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/rtch/rtch/pkg/pathenc"
	"math"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rtch/rtch/pkg/brief"
	"github.com/rtch/rtch/pkg/config"
	"github.com/rtch/rtch/pkg/match"
	"github.com/rtch/rtch/pkg/mdsafe"
	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/secret"
	"github.com/rtch/rtch/pkg/symbols"
	"github.com/rtch/rtch/pkg/tokens"
)

// Stage is the stage name hydration writes into its skips.
const Stage = "hydrate"

// NarrowWindow is the half-width tried when a surface's first window does not
// fit the remaining budget: a short look at the best line beats no look.
const NarrowWindow = 5

// breadthTop is how many of the best readable surfaces are read in depth
// before any surface below them gets its first chunk.
const breadthTop = 3

// fullFirstTop is how many surfaces, in fill order, get a full window as
// their first chunk; the others get half a window first.
const fullFirstTop = 3

// secondTop is how many further steps each of the breadthTop best surfaces
// takes before the surfaces below them get their first chunk: windows on the
// ranking's anchors, then on the other places where the surface's terms
// cluster (hitAnchors), or the whole-file upgrade.
const secondTop = 6

// topDepth is how many further steps the first surface in fill order (the
// ranking's best file, or the known target) takes right after the first
// chunks of the breadthTop best, before the others take their further
// windows: that file holds most of the gold lines, and on SWE-bench dev its
// second to fifth windows held 10-24 points of line recall per 1,000
// tokens, the further windows of ranks 2 and 3 0-3 (docs/decisions/brief.md).
const topDepth = 12

// maxAnchors caps the target lines considered on one surface.
const maxAnchors = 32

// Protector checks and cleans chunk text: it returns the text with secrets
// redacted and the flags to record ("injection:<pattern>", "redacted:<rule>").
type Protector func(text string) (string, []string)

// Options configure hydration.
type Options struct {
	// Root is the absolute zone root.
	Root string
	// Commit is the git HEAD recorded in each chunk ("" outside git).
	Commit string
	// Fanout is the fanout level (conservative, normal, wide).
	Fanout string
	// Budget is the total token cap of all chunks.
	Budget int
	// Window is the half-width of a window around a target line.
	Window int
	// WholeFileLines: a file of at most this many lines may be read whole.
	WholeFileLines int
	// KnownTargetLines: the known target may be read whole up to this many
	// lines when the fanout is not wide.
	KnownTargetLines int
	// MaxChunksPerProbe caps the chunks anchored by one probe's hits.
	MaxChunksPerProbe int
	// MaxFileSize is the largest file read (bytes).
	MaxFileSize int64
	// MaxLineRunes caps one line of chunk text.
	MaxLineRunes int
	// Protect checks and redacts chunk text; nil leaves text as read.
	Protect Protector
	// Cache keeps the files read between runs (a host's); nil reads afresh.
	Cache *Cache
	// Deepen spends the budget the planned windows leave on windows of
	// context next to the ranges read (see deepen); NewOptions sets it.
	Deepen bool
	// Count counts tokens; the zero value is ceil(chars/4).
	Count tokens.Counter
	// Frame is what the brief around the chunks is held back from the
	// budget (header, lists, questions); -1 holds back nothing and prices
	// chunk text alone. 0 means FrameReserve.
	Frame int
}

// NewOptions fills Options from the configuration and the intake: the budget
// is the intake's budget_tokens when set, else the fanout level's.
func NewOptions(cfg *config.Config, in *Input, root string) Options {
	if cfg == nil {
		cfg = &config.Config{}
	}
	o := Options{
		Root:              root,
		Fanout:            "normal",
		Window:            pick(cfg.Hydrate.Window, config.DefaultWindow),
		WholeFileLines:    pick(cfg.Hydrate.WholeFileLines, config.DefaultWholeFile),
		KnownTargetLines:  pick(cfg.Hydrate.KnownTargetLines, config.DefaultKnownTarget),
		MaxChunksPerProbe: pick(cfg.Hydrate.MaxChunksPerProbe, config.DefaultMaxChunks),
		MaxFileSize:       cfg.MaxFileSize(),
		MaxLineRunes:      DefaultMaxLineRunes,
		Deepen:            true,
	}
	if in != nil && in.Intake != nil && in.Intake.FanoutLevel != "" {
		o.Fanout = in.Intake.FanoutLevel
	}
	o.Budget = cfg.BudgetFor(o.Fanout)
	if in != nil && in.Intake != nil && in.Intake.BudgetTokens > 0 {
		o.Budget = in.Intake.BudgetTokens
	}
	if in != nil && in.Zone != nil && in.Zone.Git != nil {
		o.Commit = in.Zone.Git.Head
	}
	return o
}

func pick(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// Result is what hydration produced.
type Result struct {
	// Chunks in the order they were read (fill order): the first chunks of
	// the top surfaces, their further windows, the first chunks below them,
	// then the rest. A consumer that must leave chunks out leaves out the last
	// ones, the reverse of what the budget was spent on first; one that shows
	// them groups them by surface (packet.Arrange).
	Chunks []schema.Chunk
	// Skips are every ranked (or hit) surface, range or row not hydrated.
	Skips []schema.Skip
	// Spent is what the chunks cost as the brief writes them (brief.Chunk:
	// heading, fence and text); Cap the whole budget, of which hydration
	// spent at most Cap less Options.Frame.
	Spent, Cap int
	// Functions are the ranked definitions of the best surfaces, best
	// first, at most MaxRankedFunctions (rankFunctions).
	Functions []schema.RankedFunction
}

// surface is one ranked file being planned.
type surface struct {
	rs      schema.RankedSurface
	order   int // position in fill order
	known   bool
	file    *File
	steps   []*step
	next    int
	chunks  []schema.Chunk
	spent   int
	capped  []string         // ranges refused by the per-probe cap
	occurs  []*lineTerms     // lines where its terms occur (termLines), in line order
	terms   []string         // the terms of occurs' sets, sorted
	probes  []string         // probes charged for the chunks held
	defs    []symbols.Symbol // its functions and methods (funcs), once
	fdefs   []symbols.Def    // its definitions with their extents (definitions), once
	units   []rankedUnit     // its ranked definitions, best first (rankFunctions)
	passed  []*step          // steps passed over because they did not fit (fillByFunctions)
	skipped bool
}

// step is one thing a surface may be given: a window (or merged windows), or
// the whole file replacing what it holds.
type step struct {
	seg     segment
	whole   bool
	replace bool
	// deepen marks context added next to a read range with budget left over;
	// half a first window of half the width (below the top surfaces).
	deepen, half bool
	// unit is the ranked definition the step reads (functionSteps), part
	// which part of it: whole, head, evidence or top level.
	unit   *rankedUnit
	part   string
	chunks []schema.Chunk
	// cost is estimated until built, exact after.
	cost  int
	built bool
}

// segment is a line range with the anchor it was built around.
type segment struct {
	s, e, target int
	hit          *schema.Hit
	anchors      []int
}

type hydrator struct {
	in        *Input
	o         Options
	hits      map[string][]schema.Hit
	origin    map[string]string
	family    map[string]string
	truth     map[string]bool
	corrected map[string]map[int]schema.EffectiveRecord
	forbidden []string
	neighbor  map[string]bool
	skips     []schema.Skip
	perProbe  map[string]int
	heldView  map[string]bool
	read      map[string]int    // chunk id → when it was read (fill order)
	probeOf   map[string]string // path NUL term → the probe of its first hit there
	nread     int
	spent     int
	budget    int            // the whole budget, frame included
	df        map[string]int // files each term hits (idf)
	ranked    []*surface     // the surface of each ranked definition, in ranking order
	nfiles    int            // files with any hit (idf)
}

// ErrNoRank is returned when the stream has no rtch.rank record.
var ErrNoRank = errors.New("no rtch.rank record on input; run rtch-probe first")

// ErrNoZone is returned when the stream has no rtch.zone record.
var ErrNoZone = errors.New("no rtch.zone record on input; run rtch-zone first")

// Hydrate reads bounded chunks of the ranked surfaces within the budget.
func Hydrate(in *Input, o Options) (*Result, error) {
	if in.Rank == nil {
		return nil, ErrNoRank
	}
	if in.Zone == nil {
		return nil, ErrNoZone
	}
	if o.Window <= 0 {
		o.Window = config.DefaultWindow
	}
	if o.MaxChunksPerProbe <= 0 {
		o.MaxChunksPerProbe = config.DefaultMaxChunks
	}
	budget := o.Budget
	switch {
	case o.Frame < 0:
		o.Frame = 0
	case o.Frame == 0:
		o.Frame = FrameReserve(in, o.Budget, o.Count)
	}
	o.Budget = max(0, o.Budget-o.Frame)
	h := &hydrator{in: in, o: o, perProbe: map[string]int{}, heldView: map[string]bool{}, read: map[string]int{}, budget: budget}
	h.index()
	surfaces := h.surfaces()
	for _, sf := range surfaces {
		h.load(sf)
	}
	functions := h.rankFunctions(surfaces)
	for _, sf := range surfaces {
		if sf.file != nil {
			h.plan(sf)
		}
	}
	h.fill(surfaces)

	res := &Result{Cap: budget, Spent: h.spent, Functions: functions}
	for _, sf := range surfaces {
		res.Chunks = append(res.Chunks, sf.chunks...)
		h.unread(sf)
	}
	sort.SliceStable(res.Chunks, func(i, j int) bool { return h.read[res.Chunks[i].ChunkID] < h.read[res.Chunks[j].ChunkID] })
	h.unranked(surfaces)
	res.Skips = h.skips
	return res, nil
}

// index builds the lookup tables.
func (h *hydrator) index() {
	h.hits = map[string][]schema.Hit{}
	for _, x := range h.in.Hits {
		h.hits[x.Path] = append(h.hits[x.Path], x)
	}
	h.origin = map[string]string{}
	for _, c := range h.in.Candidates {
		if _, ok := h.origin[c.Term]; !ok {
			h.origin[c.Term] = c.Origin
		}
	}
	h.family = map[string]string{}
	for _, p := range h.in.Probes {
		h.family[p.ProbeID] = p.Family
	}
	h.truth = map[string]bool{}
	for _, p := range h.in.Zone.TruthFiles {
		h.truth[p] = true
	}
	for _, p := range h.in.Zone.Manifests {
		h.truth[p] = true
	}
	h.corrected = map[string]map[int]schema.EffectiveRecord{}
	if h.in.Gate != nil {
		for _, er := range h.in.Gate.EffectiveRecords {
			p, n, ok := parseLocation(er.BaseLocation)
			if !ok {
				p, n = er.TargetSurface, 0
			}
			if p == "" {
				continue
			}
			if h.corrected[p] == nil {
				h.corrected[p] = map[int]schema.EffectiveRecord{}
			}
			h.corrected[p][n] = er
		}
	}
	if h.in.Intake != nil {
		h.forbidden = append(h.forbidden, h.in.Intake.ForbiddenAssumptions...)
	}
	h.neighbor = map[string]bool{}
	if h.in.Basket != nil {
		h.forbidden = append(h.forbidden, h.in.Basket.Exclusions...)
		for _, p := range h.in.Basket.NeighborSurfaces {
			h.neighbor[p] = true
		}
	}
}

// parseLocation splits "PATH:L<n>".
func parseLocation(loc string) (string, int, bool) {
	i := strings.LastIndex(loc, ":L")
	if i < 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(loc[i+2:])
	if err != nil || n < 1 {
		return "", 0, false
	}
	return loc[:i], n, true
}

// surfaces lists the surfaces in fill order: the intake's known target first,
// then the ranking.
func (h *hydrator) surfaces() []*surface {
	var out []*surface
	seen := map[string]bool{}
	kt, ktRange := h.knownTarget()
	if kt != "" {
		sf := &surface{known: true}
		for _, rs := range h.in.Rank.Surfaces {
			if rs.Path == kt {
				sf.rs = rs
			}
		}
		if sf.rs.Path == "" {
			sf.rs = schema.RankedSurface{Path: kt, WhySelected: []string{"known_target from the intake"}, Terms: []string{"known_target"}}
		}
		if ktRange[0] > 0 {
			sf.rs.Anchors = append([]int{-1}, sf.rs.Anchors...)
		}
		out = append(out, sf)
		seen[kt] = true
	}
	for _, rs := range h.in.Rank.Surfaces {
		if seen[rs.Path] {
			continue
		}
		seen[rs.Path] = true
		out = append(out, &surface{rs: rs})
	}
	for i, sf := range out {
		sf.order = i
	}
	return out
}

// knownTarget returns the intake's known target path and optional range.
func (h *hydrator) knownTarget() (string, [2]int) {
	if h.in.Intake == nil || h.in.Intake.KnownTarget == "" {
		return "", [2]int{}
	}
	kt := h.in.Intake.KnownTarget
	if r, err := ParseRange(kt); err == nil {
		if p, err := CleanRel(h.o.Root, r.Path); err == nil {
			if r.IsWindow() {
				return p, [2]int{r.Line - h.o.Window, r.Line + h.o.Window}
			}
			return p, [2]int{r.Start, r.End}
		}
	}
	p, err := CleanRel(h.o.Root, kt)
	if err != nil {
		return "", [2]int{}
	}
	return p, [2]int{}
}

// forbiddenBy returns the forbidden assumption (or basket exclusion) that
// covers p, if any. Only path-like entries apply to paths; a sentence such as
// "the bug is in the parser" excludes nothing here.
func (h *hydrator) forbiddenBy(p string) string {
	for _, f := range h.forbidden {
		f = strings.TrimSpace(f)
		if f == "" || strings.ContainsAny(f, " \t") {
			continue
		}
		g := strings.TrimPrefix(strings.TrimSuffix(f, "/"), "./")
		if p == g || strings.HasPrefix(p, g+"/") {
			return f
		}
		if ok, _ := path.Match(g, p); ok {
			return f
		}
		if !strings.Contains(g, "/") {
			if ok, _ := path.Match(g, path.Base(p)); ok {
				return f
			}
		}
	}
	return ""
}

// load reads the surface's file, or records why it is not read.
func (h *hydrator) load(sf *surface) {
	p := sf.rs.Path
	if f := h.forbiddenBy(p); f != "" {
		h.skip(p, "forbidden", 0, 0, fmt.Sprintf("rank %d: excluded by forbidden assumption %q", sf.rs.Rank, f))
		sf.skipped = true
		return
	}
	file, err := h.o.Cache.ReadFile(h.o.Root, p, h.o.MaxFileSize)
	if err != nil {
		var re *ReadError
		reason, size := "unreadable", int64(0)
		if errors.As(err, &re) {
			reason, size = re.Reason, re.Size
		}
		h.skip(p, reason, size, 0, fmt.Sprintf("rank %d: %v", sf.rs.Rank, err))
		sf.skipped = true
		return
	}
	if file.Lines() == 0 {
		h.skip(p, "empty", 0, 0, fmt.Sprintf("rank %d: the file is empty", sf.rs.Rank))
		sf.skipped = true
		return
	}
	sf.file = file
}

// plan lists the steps of a surface whose file was read: its whole file
// when that is small, its ranked functions (functionSteps), or windows
// around its anchors.
func (h *hydrator) plan(sf *surface) {
	n := sf.file.Lines()
	segs := h.segments(sf)
	first := &step{seg: segs[0]}
	h.estimate(sf, first)
	wholeOK := n <= h.o.WholeFileLines || (sf.known && h.o.Fanout != "wide" && n <= h.o.KnownTargetLines)
	if wholeOK && !(segs[0].s == 1 && segs[0].e == n) {
		whole := &step{seg: segment{s: 1, e: n, target: segs[0].target, hit: segs[0].hit, anchors: allAnchors(segs)}, whole: true}
		h.estimate(sf, whole)
		switch {
		case 2*whole.cost <= 3*first.cost:
			// Small enough that the whole file costs little more than a window.
			sf.steps = []*step{whole}
		case definedUnits(sf):
			whole.replace = true
			sf.steps = append(h.functionSteps(sf, segs), whole)
		default:
			whole.replace = true
			sf.steps = []*step{first, whole}
		}
		return
	}
	if definedUnits(sf) && !(segs[0].s == 1 && segs[0].e == n) {
		if sf.steps = h.functionSteps(sf, segs); len(sf.steps) > 0 {
			return
		}
	}
	if segs[0].s == 1 && segs[0].e == n {
		first.whole = true
	} else if sf.order >= fullFirstTop && !sf.known && segs[0].anchors[0] >= 1 {
		// Below the top surfaces a first look is half a window: it shows
		// the file is relevant at a fraction of the cost, and the budget it
		// saves reads more of the top surfaces (deepen widens it later when
		// budget is left).
		t := segs[0].target
		first.seg.s, first.seg.e = max(first.seg.s, t-h.o.Window/2), min(first.seg.e, t+h.o.Window/2)
		first.half = true
		h.estimate(sf, first)
	}
	sf.steps = []*step{first}
	for _, sg := range segs[1:] {
		st := &step{seg: sg}
		h.estimate(sf, st)
		sf.steps = append(sf.steps, st)
	}
}

func allAnchors(segs []segment) []int {
	var out []int
	for _, s := range segs {
		out = append(out, s.anchors...)
	}
	return out
}

// segments turns the surface's anchors into windows, best anchor first.
// Overlapping windows are merged up to twice a window's length; beyond that
// the later window is clipped where the earlier one ends, so chunks never
// overlap and never grow without bound. Last, a window that holds the head
// of the function around its target moves down that function's body
// (alignToBodies).
func (h *hydrator) segments(sf *surface) []segment {
	n := sf.file.Lines()
	w := h.o.Window
	maxLen := 2 * (2*w + 1)
	var segs []segment
	for _, a := range h.anchors(sf) {
		var sg segment
		switch {
		case a == -1: // the known target's own range
			_, r := h.knownTarget()
			// The caller's range, bounded like any chunk: at most the
			// known-target whole-file size.
			sg = segment{s: max(1, r[0]), e: min(n, r[1], max(1, r[0])+max(1, h.o.KnownTargetLines)-1), target: max(1, r[0])}
			if sg.s > n {
				continue
			}
		case a < 1 || a > n:
			sg = segment{s: 1, e: min(n, 2*w+1), target: 1}
		default:
			sg = segment{s: max(1, a-w), e: min(n, a+w), target: a}
		}
		sg.hit = h.hitAt(sf.rs.Path, a)
		sg.anchors = []int{a}
		covered := false
		for i := range segs {
			if sg.target >= segs[i].s && sg.target <= segs[i].e {
				segs[i].anchors = append(segs[i].anchors, a)
				covered = true
				break
			}
		}
		if covered {
			continue
		}
		// Clip against existing segments to the part around the target.
		for _, o := range segs {
			if o.e < sg.target && o.e >= sg.s {
				sg.s = o.e + 1
			}
			if o.s > sg.target && o.s <= sg.e {
				sg.e = o.s - 1
			}
		}
		// Merge with an adjacent segment when the union stays bounded.
		merged := false
		for i := range segs {
			o := &segs[i]
			if (o.e+1 == sg.s || sg.e+1 == o.s) && max(o.e, sg.e)-min(o.s, sg.s)+1 <= maxLen {
				o.s, o.e = min(o.s, sg.s), max(o.e, sg.e)
				o.anchors = append(o.anchors, a)
				merged = true
				break
			}
		}
		if !merged {
			segs = append(segs, sg)
		}
	}
	if len(segs) == 0 {
		segs = []segment{{s: 1, e: min(n, 2*w+1), target: 1, anchors: []int{0}}}
	}
	h.alignToBodies(sf, segs)
	return segs
}

// anchors lists the surface's target lines, best first: the ranking's (with
// the definitions their windows call on the top surfaces), then
// the other lines where its terms occur (hitAnchors); without ranking anchors
// the hit lines by strength, else the file head (0).
func (h *hydrator) anchors(sf *surface) (out []int) {
	seen := map[int]bool{}
	add := func(a int) {
		if !seen[a] && len(out) < maxAnchors {
			seen[a] = true
			out = append(out, a)
		}
	}
	h.rankAnchors(sf, add)
	if len(out) > 0 && !(len(out) == 1 && out[0] == -1) {
		// The ranking keeps a few anchors per file; the other lines where the
		// file's terms occur follow them, the ones that bring terms no
		// earlier window holds first.
		for _, a := range h.hitAnchors(sf, out) {
			add(a)
		}
	} else {
		hs := append([]schema.Hit(nil), h.hits[sf.rs.Path]...)
		sort.SliceStable(hs, func(i, j int) bool {
			if a, b := classStrength(hs[i].ConfidenceClass), classStrength(hs[j].ConfidenceClass); a != b {
				return a > b
			}
			return hs[i].Line < hs[j].Line
		})
		for _, x := range hs {
			add(x.Line)
		}
	}
	if len(out) == 0 {
		add(0)
	}
	return out
}

// rankAnchors adds the ranking's anchors of sf. On the top surfaces the
// definitions their windows call come in between (callees.go): those of the
// first window right after it, the others' after the ranking's last.
func (h *hydrator) rankAnchors(sf *surface, add func(int)) {
	ra := sf.rs.Anchors
	if sf.order >= breadthTop || sf.file == nil || len(ra) == 0 || ra[0] < 1 {
		for _, a := range ra {
			add(a)
		}
		return
	}
	c := h.newCallees(sf)
	add(ra[0])
	for _, a := range c.of(ra[0], ra, firstCallees) {
		add(a)
	}
	for _, a := range ra[1:] {
		add(a)
	}
	for _, a := range ra[1:] {
		for _, d := range c.of(a, ra, maxCallees) {
			add(d)
		}
	}
}

// lineTerms is one line of a surface with the goal terms on it: terms
// numbers them in the surface's sorted terms.
type lineTerms struct {
	line  int
	terms termSet
	bonus float64
}

// hitAnchors orders the lines of sf where its terms occur that no window
// around the given anchors holds, for the windows after the ranking's own. A
// line's worth is the rarity of the distinct terms within a window of it that
// no chosen window holds yet (so a file's later windows go to other term
// clusters), a quarter of that for terms a chosen window holds, plus a bonus
// for a definition, heading or key hit on the line itself. Caution-only hits
// (source-of-truth phrasing) choose no window.
func (h *hydrator) hitAnchors(sf *surface, chosen []int) []int {
	w := h.o.Window
	ls := h.termLines(sf)
	if len(ls) == 0 {
		return nil
	}
	// The distinct terms within a window of each hit line, and their rarity.
	n := len(sf.terms)
	rarity := make([]float64, n)
	for t, term := range sf.terms {
		rarity[t] = h.idf(term)
	}
	around := make([]termSet, len(ls))
	lo := 0
	for i, lt := range ls {
		for ls[lo].line < lt.line-w {
			lo++
		}
		around[i] = newTermSet(n)
		for j := lo; j < len(ls) && ls[j].line <= lt.line+w; j++ {
			around[i].addAll(ls[j].terms)
		}
	}
	covered := newTermSet(n)
	var anchors []int
	near := func(n int) bool {
		for _, a := range anchors {
			if a >= 1 && n >= a-w && n <= a+w {
				return true
			}
		}
		return false
	}
	cover := func(a int) {
		anchors = append(anchors, a)
		for _, lt := range ls {
			if lt.line >= a-w && lt.line <= a+w {
				covered.addAll(lt.terms)
			}
		}
	}
	for _, a := range chosen {
		if a >= 1 {
			cover(a)
		}
	}
	var out []int
	for len(chosen)+len(out) < maxAnchors {
		best, bestScore := -1, 0.0
		for i, lt := range ls {
			if near(lt.line) {
				continue
			}
			sc := lt.bonus
			for t := range around[i].all() { // in the terms' order, as the sums always were
				if covered.has(t) {
					sc += rarity[t] / 4
				} else {
					sc += rarity[t]
				}
			}
			// Every term on the line counts a little, so a line of only
			// already-covered terms still orders by how much it holds.
			sc += 0.1 * float64(lt.terms.len())
			if best < 0 || sc > bestScore {
				best, bestScore = i, sc
			}
		}
		if best < 0 {
			break
		}
		out = append(out, ls[best].line)
		cover(ls[best].line)
	}
	return out
}

// termLines lists the lines of sf that hold a term of its non-caution hits,
// with those terms, in line order. The probe keeps only a few hit positions
// per term and file, so the file is scanned again for every occurrence (with
// the probe's matcher): in a large file the terms' clusters are where they
// occur, not where the first hits happened to be kept. The hits add their
// field's bonus to their own line.
func (h *hydrator) termLines(sf *surface) []*lineTerms {
	var terms []string
	seen := map[string]bool{}
	if h.probeOf == nil {
		h.probeOf = map[string]string{}
	}
	kept := func(x schema.Hit) bool { return x.Line >= 1 && x.ConfidenceClass != "caution_only" }
	for _, x := range h.hits[sf.rs.Path] {
		if kept(x) && !seen[x.Term] {
			seen[x.Term] = true
			terms = append(terms, x.Term)
			if k := sf.rs.Path + "\x00" + x.Term; h.probeOf[k] == "" {
				h.probeOf[k] = x.ProbeID
			}
		}
	}
	slices.Sort(terms)
	sf.terms = terms
	byLine := map[int]*lineTerms{}
	at := func(n int) *lineTerms {
		lt := byLine[n]
		if lt == nil {
			lt = &lineTerms{line: n, terms: newTermSet(len(terms))}
			byLine[n] = lt
		}
		return lt
	}
	for _, x := range h.hits[sf.rs.Path] {
		if !kept(x) {
			continue
		}
		lt := at(x.Line)
		t, _ := slices.BinarySearch(terms, x.Term)
		lt.terms.add(t)
		idf := h.idf(x.Term)
		switch x.Field {
		case "definition":
			lt.bonus = max(lt.bonus, 3*idf)
		case "definition_line", "heading", "key":
			lt.bonus = max(lt.bonus, idf)
		}
	}
	if len(terms) > 0 && sf.file != nil {
		match.New(terms).Scan(sf.file.Data, func(t, s, _ int) bool {
			at(sf.file.LineAt(s)).terms.add(t)
			return true
		})
	}
	ls := make([]*lineTerms, 0, len(byLine))
	for _, lt := range byLine {
		ls = append(ls, lt)
	}
	sort.Slice(ls, func(i, j int) bool { return ls[i].line < ls[j].line })
	sf.occurs = ls
	return ls
}

// idf is a term's rarity among the files hit: ln(1 + files hit / files the
// term hits).
func (h *hydrator) idf(term string) float64 {
	if h.df == nil {
		h.df = map[string]int{}
		files := map[string]bool{}
		seen := map[[2]string]bool{}
		for _, x := range h.in.Hits {
			files[x.Path] = true
			k := [2]string{x.Term, x.Path}
			if !seen[k] {
				seen[k] = true
				h.df[x.Term]++
			}
		}
		h.nfiles = len(files)
	}
	df := h.df[term]
	if df == 0 {
		return 0
	}
	return math.Log(1 + float64(h.nfiles)/float64(df))
}

// hitAt returns the strongest hit on line n of p (line 0: a path match).
func (h *hydrator) hitAt(p string, n int) *schema.Hit {
	var best *schema.Hit
	for i := range h.hits[p] {
		x := &h.hits[p][i]
		if x.Line != n && !(n <= 0 && x.Line == 0) {
			continue
		}
		if best == nil || classStrength(x.ConfidenceClass) > classStrength(best.ConfidenceClass) {
			best = x
		}
	}
	return best
}

// bestHitIn returns the strongest hit inside lines s..e of p, path matches
// included.
func (h *hydrator) bestHitIn(p string, s, e int) *schema.Hit {
	var best *schema.Hit
	for i := range h.hits[p] {
		x := &h.hits[p][i]
		if x.Line != 0 && (x.Line < s || x.Line > e) {
			continue
		}
		if best == nil || classStrength(x.ConfidenceClass) > classStrength(best.ConfidenceClass) {
			best = x
		}
	}
	return best
}

func classStrength(c string) int {
	switch c {
	case "source_bearing_hit":
		return 5
	case "hit":
		return 4
	case "neighbor_only":
		return 3
	case "caution_only":
		return 2
	case "weak_hit":
		return 1
	}
	return 0
}

// estimate prices a step from its text before protection. Redaction and the
// injection probe run only on the steps that may be taken (see take), since
// most planned windows are never read.
func (h *hydrator) estimate(sf *surface, st *step) {
	text := sf.file.renderRaw(st.seg.s, st.seg.e, h.o.MaxLineRunes)
	st.cost = h.o.Count.Of(text) + h.heading(sf, st.seg.s, st.seg.e)
}

// heading prices a chunk's block in the brief without its text: what
// brief.Chunk writes around the text of a chunk of lines s..e of the surface.
func (h *hydrator) heading(sf *surface, s, e int) int {
	c := schema.Chunk{Path: sf.rs.Path, LineRange: LineRange(s, e), StartLine: s, EndLine: e, Rank: sf.rs.Rank,
		ConfidenceClass: "hydrated_evidence", TermOrShape: strings.Join(sf.rs.Terms[:min(1, len(sf.rs.Terms))], ""),
		SHA256: sf.file.SHA256, Limitation: fmt.Sprintf("lines %d-%d of %d;", s, e, sf.file.Lines()),
		NextReEntryCommand: ReEntryCommand(sf.rs.Path, s, e)}
	return h.o.Count.Of(brief.Chunk(c))
}

// build turns a step's range into chunks (raw ranges around corrected rows, plus
// the effective view of each corrected row) and prices it.
func (h *hydrator) build(sf *surface, st *step) {
	f := sf.file
	s, e := st.seg.s, st.seg.e
	var rows []int
	for n := range h.corrected[f.Path] {
		if n >= s && n <= e {
			rows = append(rows, n)
		}
	}
	sort.Ints(rows)
	cur := s
	for _, n := range rows {
		if cur <= n-1 {
			st.chunks = append(st.chunks, h.rawChunk(sf, st, cur, n-1))
		}
		st.chunks = append(st.chunks, h.effectiveChunk(sf, n, h.corrected[f.Path][n]))
		cur = n + 1
	}
	if cur <= e {
		st.chunks = append(st.chunks, h.rawChunk(sf, st, cur, e))
	}
	st.cost = 0
	for _, c := range st.chunks {
		st.cost += h.o.Count.Of(brief.Chunk(c))
	}
	st.built = true
}

// rawChunk reads lines s..e of the surface as a chunk.
func (h *hydrator) rawChunk(sf *surface, st *step, s, e int) schema.Chunk {
	f := sf.file
	target := st.seg.target
	if target < s || target > e {
		target = s
	}
	lr := LineRange(s, e)
	c := MakeChunk(f, s, e, h.o.MaxLineRunes, h.o.Protect)
	c.EstTokens = h.o.Count.Of(c.Text)
	c.Envelope = record.Env(schema.KindChunk, schema.V1, f.Path, lr, f.SHA256)
	c.ChunkID = c.ID
	c.TargetLine = target
	c.Commit = h.o.Commit
	c.Rank = sf.rs.Rank
	hit := st.seg.hit
	if hit == nil || hit.Line < s || hit.Line > e {
		hit = h.bestHitIn(f.Path, s, e)
	}
	if hit != nil {
		c.ProbeID = hit.ProbeID
		c.TermOrShape = hit.Term
	} else if sf.known {
		c.TermOrShape = "known_target"
	} else {
		c.TermOrShape = strings.Join(sf.rs.Terms, ", ")
	}
	// The class is the strongest hit the chunk holds, not only its anchor's:
	// a whole file read for a body match may also hold the definition.
	classHit := hit
	if best := h.bestHitIn(f.Path, s, e); best != nil && (classHit == nil || classStrength(best.ConfidenceClass) > classStrength(classHit.ConfidenceClass)) {
		classHit = best
	}
	c.ConfidenceClass = h.class(sf, classHit, s, e)
	c.WhyIncluded = h.why(sf, st, hit, s, e)
	c.Limitation = h.limitation(sf, st, c, s, e)
	return c
}

// MakeChunk reads lines s..e of f into a chunk with its hashes, text, flags,
// token estimate and re-entry commands; the caller fills the provenance.
func MakeChunk(f *File, s, e, maxLineRunes int, protect Protector) schema.Chunk {
	lr := LineRange(s, e)
	text, truncated := f.Render(s, e, maxLineRunes)
	var flags []string
	if len(truncated) > 0 {
		flags = append(flags, "truncated_lines")
	}
	if protect != nil {
		var pf []string
		text, pf = protect(text)
		flags = append(flags, pf...)
	}
	// The text was redacted from the whole file (File.Render): its marks
	// name the rules, whatever the protector reported.
	for _, r := range secret.Rules(text) {
		if !slices.Contains(flags, "redacted:"+r) {
			flags = append(flags, "redacted:"+r)
		}
	}
	if flags == nil {
		flags = []string{}
	}
	return schema.Chunk{
		Path:               f.Path,
		LineRange:          lr,
		StartLine:          s,
		EndLine:            e,
		TargetLine:         s,
		SHA256:             f.SHA256Of(s, e),
		FileSHA256:         f.SHA256,
		NextReEntryCommand: ReEntryCommand(f.Path, s, e),
		SedCommand:         SedCommand(f.Path, s, e),
		Text:               text,
		EstTokens:          tokens.Estimate(text),
		Flags:              flags,
	}
}

// effectiveChunk is the effective view of a corrected record: the base row's
// raw bytes are never hydrated.
func (h *hydrator) effectiveChunk(sf *surface, n int, er schema.EffectiveRecord) schema.Chunk {
	f := sf.file
	view, _ := json.Marshal(er.EffectiveRecord)
	text := string(view) + "\n"
	sum := sha256.Sum256([]byte(text))
	var flags []string
	if h.o.Protect != nil {
		text, flags = h.o.Protect(text)
	}
	if flags == nil {
		flags = []string{}
	}
	lr := LineRange(n, n)
	c := schema.Chunk{
		Envelope:           record.Env(schema.KindChunk, schema.V1, f.Path, lr, "effective", er.TargetRecordID, hex.EncodeToString(sum[:])),
		Path:               f.Path,
		LineRange:          lr,
		StartLine:          n,
		EndLine:            n,
		TargetLine:         n,
		SHA256:             hex.EncodeToString(sum[:]),
		FileSHA256:         f.SHA256,
		Commit:             h.o.Commit,
		WhyIncluded:        fmt.Sprintf("rank %d: row L%d holds record %s, corrected by %s; its effective view replaces the raw row", sf.rs.Rank, n, er.TargetRecordID, strings.Join(er.AppliedCorrectionIDs, ", ")),
		TermOrShape:        "record:" + er.TargetRecordID,
		ConfidenceClass:    "effective_record_view",
		Limitation:         fmt.Sprintf("effective view (base row plus corrections %s) as the gate computed it; the raw row %s is superseded and was not hydrated; sha256 is over this view's JSON", strings.Join(er.AppliedCorrectionIDs, ", "), er.BaseLocation),
		NextReEntryCommand: EffectiveReEntryCommand(er.TargetRecordID),
		SedCommand:         SedCommand(f.Path, n, n),
		BaseReEntryCommand: ReEntryCommand(f.Path, n, n),
		Text:               text,
		EstTokens:          h.o.Count.Of(text),
		Flags:              flags,
		Rank:               sf.rs.Rank,
	}
	c.ChunkID = c.ID
	return c
}

// class is the chunk's confidence class after hydration (SPEC §8).
func (h *hydrator) class(sf *surface, hit *schema.Hit, s, e int) string {
	if sf.rs.NeighborOnly || h.neighbor[sf.rs.Path] {
		return "neighbor_only"
	}
	if hit == nil {
		if sf.known {
			return "hydrated_evidence"
		}
		return "hit"
	}
	switch hit.ConfidenceClass {
	case "source_bearing_hit":
		if h.truth[sf.rs.Path] && h.claimIn(sf.rs.Path, s, e) {
			return "claim_supporting"
		}
		return "hydrated_evidence"
	case "":
		return "hit"
	}
	return hit.ConfidenceClass
}

// claimIn reports whether lines s..e of p hold a source-bearing hit on a
// durable handle, explicit seed or manifest key: read in a truth file, that is
// claim-supporting evidence.
func (h *hydrator) claimIn(p string, s, e int) bool {
	for _, x := range h.hits[p] {
		if x.ConfidenceClass != "source_bearing_hit" || (x.Line != 0 && (x.Line < s || x.Line > e)) {
			continue
		}
		switch h.origin[x.Term] {
		case "durable_handle", "explicit_seed", "manifest_key":
			return true
		}
	}
	return false
}

func (h *hydrator) why(sf *surface, st *step, hit *schema.Hit, s, e int) string {
	var b strings.Builder
	if sf.rs.Rank > 0 {
		fmt.Fprintf(&b, "rank %d surface (score %.2f)", sf.rs.Rank, sf.rs.Score)
	} else {
		b.WriteString("known target from the intake")
	}
	if len(sf.rs.WhySelected) > 0 {
		fmt.Fprintf(&b, ": %s", sf.rs.WhySelected[0])
	}
	if hit != nil {
		fam := h.family[hit.ProbeID]
		if fam != "" {
			fam = " (" + fam + ")"
		}
		where := fmt.Sprintf("L%d", hit.Line)
		if hit.Line == 0 {
			where = "the path"
		}
		fmt.Fprintf(&b, "; probe %s%s matched %q at %s", hit.ProbeID, fam, hit.Term, where)
		if hit.Field != "" {
			fmt.Fprintf(&b, " (%s)", hit.Field)
		}
	}
	switch {
	case st.unit != nil:
		b.WriteString("; " + unitWhy(st))
	case st.deepen:
		fmt.Fprintf(&b, "; context next to a read range, added with budget left after every planned window")
	case st.half && s == st.seg.s && e == st.seg.e:
		fmt.Fprintf(&b, "; ±%d lines around L%d (half a window: a first look below the top %d surfaces)", h.o.Window/2, st.seg.target, fullFirstTop)
	case st.whole || (s == 1 && e == sf.file.Lines()):
		fmt.Fprintf(&b, "; whole file (%d lines)", sf.file.Lines())
	case s != st.seg.s || e != st.seg.e:
		fmt.Fprintf(&b, "; the rows of %s around L%d other than the corrected ones", LineRange(st.seg.s, st.seg.e), st.seg.target)
	case len(st.seg.anchors) > 1:
		fmt.Fprintf(&b, "; merged windows around %d target lines", len(st.seg.anchors))
	case st.seg.anchors[0] == -1:
		b.WriteString("; the known target's range")
	case st.seg.anchors[0] <= 0:
		b.WriteString("; head of the file (path match, no line)")
	default:
		fmt.Fprintf(&b, "; ±%d lines around L%d", h.o.Window, st.seg.target)
	}
	return b.String()
}

func (h *hydrator) limitation(sf *surface, st *step, c schema.Chunk, s, e int) string {
	var parts []string
	n := sf.file.Lines()
	if s == 1 && e == n {
		parts = append(parts, "whole file; its callers and dependents in other files are not read")
	} else {
		parts = append(parts, fmt.Sprintf("lines %d-%d of %d; the rest of the file is not read", s, e, n))
	}
	switch c.ConfidenceClass {
	case "hit", "weak_hit":
		parts = append(parts, "lexical match only: the term occurs here, its meaning is not confirmed")
	case "caution_only":
		parts = append(parts, "caution or source-of-truth phrasing, not evidence of behaviour")
	case "neighbor_only":
		parts = append(parts, "neighbor surface: context, not evidence for the claim")
	}
	for _, fl := range c.Flags {
		if fl == "truncated_lines" {
			parts = append(parts, fmt.Sprintf("lines longer than %d characters are cut in the text", pick(h.o.MaxLineRunes, DefaultMaxLineRunes)))
		}
		if strings.HasPrefix(fl, "redacted:") {
			parts = append(parts, "secrets redacted in the text; sha256 is over the original bytes")
			break
		}
	}
	if h.o.Commit == "" {
		parts = append(parts, "outside git: no commit pins this read")
	}
	return strings.Join(parts, "; ")
}

// fill spends the budget on the strongest surfaces first, depth before
// breadth: the first chunks of the breadthTop best readable surfaces, then up
// to topDepth further windows of the first of them, then up to secondTop
// further windows on each of the others (the ranking's anchors, or
// their whole-file upgrade), and only from what is left the first chunk of
// each surface below them in rank order (half a window below the top
// fullFirstTop, narrowed to ±NarrowWindow lines when a window no longer
// fits), then everything else round-robin in rank order, and last, with
// budget left, context next to the ranges read (deepen).
func (h *hydrator) fill(surfaces []*surface) {
	if len(h.ranked) > 0 {
		h.fillByFunctions(surfaces)
		return
	}
	firsts := 0
	for _, sf := range surfaces {
		if firsts == breadthTop {
			break
		}
		if len(sf.steps) > 0 && sf.next == 0 {
			firsts++
			h.take(sf, h.o.Budget)
		}
	}
	for _, sf := range surfaces {
		if sf.next > 0 {
			for k := 0; k < topDepth && h.take(sf, h.o.Budget); k++ {
			}
			break
		}
	}
	for round := 0; round < secondTop; round++ {
		deepened := 0
		for _, sf := range surfaces {
			if deepened == breadthTop {
				break
			}
			if sf.next == round+1 && len(sf.steps) > round+1 {
				h.take(sf, h.o.Budget)
				deepened++
			}
		}
	}
	h.fillRest(surfaces)
}

// fillRest spends what the first reads left: the first chunk of every
// surface not read yet, in rank order (narrowed when it does not fit),
// then every surface's further windows round-robin, and last, with budget
// left, context next to the ranges read (deepen).
func (h *hydrator) fillRest(surfaces []*surface) {
	for _, sf := range surfaces {
		if len(sf.steps) > 0 && sf.next == 0 {
			if !h.take(sf, h.o.Budget) && sf.next == 0 {
				h.narrow(sf)
			}
		}
	}
	for progress := true; progress; {
		progress = false
		for _, sf := range surfaces {
			if sf.next > 0 && sf.next < len(sf.steps) {
				if h.take(sf, h.o.Budget) {
					progress = true
				}
			}
		}
	}
	if h.o.Deepen {
		h.deepen(surfaces)
	}
}

// deepenRounds is how many windows the final pass may add on each side of a
// read range.
const deepenRounds = 2

// deepen spends what the planned windows left. Round after round, in rank
// order, each read range of a surface whose planned steps are all taken gets
// a window of context below it (where a definition's body goes on), then one
// above it. An added window is a chunk of its own, at most a window long,
// never overlapping a held chunk, and charged to a probe whose hit it holds
// like any further window (it is not read when every such probe is at its
// cap).
func (h *hydrator) deepen(surfaces []*surface) {
	type grow struct {
		sf   *surface
		s, e int // the range grown so far
	}
	var gs []*grow
	for _, sf := range surfaces {
		if sf.skipped || sf.file == nil || len(sf.chunks) == 0 || sf.next < len(sf.steps) {
			continue
		}
		// Held ranges in the order they were read (best anchor first),
		// adjacent chunks joined.
		var held []*grow
		for _, c := range sf.chunks {
			joined := false
			for _, g := range held {
				if c.StartLine <= g.e+1 && c.EndLine >= g.s-1 {
					g.s, g.e = min(g.s, c.StartLine), max(g.e, c.EndLine)
					joined = true
					break
				}
			}
			if !joined {
				held = append(held, &grow{sf: sf, s: c.StartLine, e: c.EndLine})
			}
		}
		gs = append(gs, held...)
	}
	size := 2*h.o.Window + 1
	for round := 0; round < deepenRounds; round++ {
		for _, below := range []bool{true, false} {
			for _, g := range gs {
				if h.spent >= h.o.Budget {
					return
				}
				n := g.sf.file.Lines()
				var s, e int
				if below {
					s, e = g.e+1, min(n, g.e+size)
				} else {
					s, e = max(1, g.s-size), g.s-1
				}
				// Clip at the chunks already held on this side.
				for _, c := range g.sf.chunks {
					if below && c.StartLine >= s && c.StartLine <= e {
						e = c.StartLine - 1
					}
					if !below && c.EndLine >= s && c.EndLine <= e {
						s = c.EndLine + 1
					}
				}
				if s > e {
					continue
				}
				// A full window, else a narrow one when that is all that fits.
				for _, k := range []int{size, 2*NarrowWindow + 1} {
					ks, ke := s, e
					if below {
						ke = min(e, s+k-1)
					} else {
						ks = max(s, e-k+1)
					}
					if h.extend(g.sf, ks, ke, below) {
						if below {
							g.e = ke
						} else {
							g.s = ks
						}
						break
					}
				}
			}
		}
	}
}

// extend reads lines s..e of sf as an added chunk if they fit the budget and
// the probe cap.
func (h *hydrator) extend(sf *surface, s, e int, below bool) bool {
	target := s
	if !below {
		target = e
	}
	st := &step{seg: segment{s: s, e: e, target: target, anchors: []int{target}}, deepen: true}
	st.seg.hit = h.bestHitIn(sf.rs.Path, s, e)
	if st.seg.hit != nil && st.seg.hit.Line == 0 {
		st.seg.hit = nil
	}
	h.estimate(sf, st)
	if h.spent+st.cost > h.o.Budget {
		return false
	}
	probe, full := h.charge(sf, st)
	if full {
		return false
	}
	h.build(sf, st)
	if h.spent+st.cost > h.o.Budget {
		return false
	}
	if probe != "" {
		h.perProbe[probe]++
		sf.probes = append(sf.probes, probe)
	}
	h.hold(sf, st.chunks, false)
	sf.spent += st.cost
	h.spent += st.cost
	return true
}

// hold gives sf the chunks of a step just read and notes when they were read.
// A whole file that replaces the windows held takes the place of the first of
// them: it is the surface's first look, now complete.
func (h *hydrator) hold(sf *surface, chunks []schema.Chunk, replace bool) {
	at := 0
	if replace {
		for _, c := range sf.chunks {
			if o := h.read[c.ChunkID]; at == 0 || o < at {
				at = o
			}
		}
		sf.chunks = nil
	}
	for _, c := range chunks {
		h.nread++
		h.read[c.ChunkID] = h.nread
		if at > 0 {
			h.read[c.ChunkID] = at
		}
	}
	sf.chunks = append(sf.chunks, chunks...)
	h.holdViews(sf, chunks)
}

// holdViews records, once per chunk, that an effective-record view stands
// in for the raw row it corrects (a corrected_record skip for the row).
func (h *hydrator) holdViews(sf *surface, chunks []schema.Chunk) {
	for _, c := range chunks {
		if c.ConfidenceClass == "effective_record_view" && !h.heldView[c.ChunkID] {
			h.heldView[c.ChunkID] = true
			h.skip(c.Path, "corrected_record", int64(len(sf.file.Bytes(c.StartLine, c.EndLine))), 1,
				fmt.Sprintf("L%d: raw row of record %s not hydrated; its effective view is chunk %s", c.StartLine, strings.TrimPrefix(c.TermOrShape, "record:"), c.ChunkID))
		}
	}
}

// take gives sf its next step if it fits under limit and the probe cap; a step
// refused by the probe cap is passed over for good.
func (h *hydrator) take(sf *surface, limit int) bool {
	for sf.next < len(sf.steps) {
		st := sf.steps[sf.next]
		if !st.built {
			h.build(sf, st)
		}
		delta := st.cost
		if st.replace {
			delta -= sf.spent
		}
		// A surface's first chunk is the ranking's choice and counts against no
		// probe's cap (the budget bounds it), nor does a read of a ranked
		// definition (the function ranking's choice, over every term); the
		// cap bounds the further windows a probe's hits add
		// (docs/decisions/evidence.md).
		probe, full := "", false
		if !st.replace && len(sf.chunks) > 0 && st.unit == nil {
			probe, full = h.charge(sf, st)
		}
		if full {
			sf.capped = append(sf.capped, fmt.Sprintf("%s (probe %s reached its cap of %d chunks)", LineRange(st.seg.s, st.seg.e), probe, h.o.MaxChunksPerProbe))
			sf.next++
			continue
		}
		if h.spent+delta > limit {
			return false
		}
		if !st.replace && probe != "" {
			h.perProbe[probe]++
			sf.probes = append(sf.probes, probe)
		}
		h.hold(sf, st.chunks, st.replace)
		sf.spent += delta
		h.spent += delta
		sf.next++
		return true
	}
	return false
}

// charge picks the probe a step's chunk counts against: the anchor's probe if
// it is under its cap, else the probe with the most room among those with a
// hit inside the range (a chunk holding hits of several probes is justified
// by any of them). full is true when every such probe is at its cap; probe is
// "" when no probe's hit lies in the range.
func (h *hydrator) charge(sf *surface, st *step) (probe string, full bool) {
	room := func(p string) bool { return h.perProbe[p] < h.o.MaxChunksPerProbe }
	if st.seg.hit != nil && st.seg.hit.ProbeID != "" && room(st.seg.hit.ProbeID) {
		return st.seg.hit.ProbeID, false
	}
	best := ""
	for _, x := range h.hits[sf.rs.Path] {
		if x.ProbeID == "" || x.Line < st.seg.s || x.Line > st.seg.e || !room(x.ProbeID) {
			continue
		}
		if best == "" || h.perProbe[x.ProbeID] < h.perProbe[best] || (h.perProbe[x.ProbeID] == h.perProbe[best] && x.ProbeID < best) {
			best = x.ProbeID
		}
	}
	if best != "" {
		return best, false
	}
	// A window chosen where the terms occur may hold no kept hit: it counts
	// against a probe that searched for a term occurring in it.
	var probes []string
	for _, lt := range sf.occurs {
		if lt.line >= st.seg.s && lt.line <= st.seg.e {
			for t := range lt.terms.all() {
				probes = append(probes, h.probeOf[sf.rs.Path+"\x00"+sf.terms[t]])
			}
		}
	}
	slices.Sort(probes)
	for _, p := range probes {
		if p != "" && room(p) && (best == "" || h.perProbe[p] < h.perProbe[best]) {
			best = p
		}
	}
	if best != "" {
		return best, false
	}
	if st.seg.hit != nil && st.seg.hit.ProbeID != "" {
		return st.seg.hit.ProbeID, true
	}
	for _, p := range probes {
		if p != "" {
			return p, true
		}
	}
	for _, x := range h.hits[sf.rs.Path] {
		if x.ProbeID != "" && x.Line >= st.seg.s && x.Line <= st.seg.e {
			return x.ProbeID, true
		}
	}
	return "", false
}

// narrow tries a ±NarrowWindow window around the surface's best target line.
func (h *hydrator) narrow(sf *surface) {
	first := sf.steps[0]
	n := sf.file.Lines()
	t := first.seg.target
	sg := segment{s: max(1, t-NarrowWindow), e: min(n, t+NarrowWindow), target: t, hit: first.seg.hit, anchors: first.seg.anchors[:1]}
	if sg.e-sg.s >= first.seg.e-first.seg.s {
		return
	}
	st := &step{seg: sg}
	h.build(sf, st)
	for i := range st.chunks {
		if st.chunks[i].ConfidenceClass != "effective_record_view" {
			st.chunks[i].Limitation += fmt.Sprintf("; narrowed to ±%d lines because a full window did not fit the budget", NarrowWindow)
		}
	}
	rest := sf.steps
	sf.steps = []*step{st}
	if h.take(sf, h.o.Budget) {
		// The narrow chunk stands in for the full first window; a whole-file
		// upgrade or later windows may still follow.
		sf.steps = append(sf.steps, rest[1:]...)
		return
	}
	sf.steps = rest
}

// unread reports what of a planned surface was not hydrated.
func (h *hydrator) unread(sf *surface) {
	if sf.skipped || sf.file == nil {
		return
	}
	var ranges []string
	for _, st := range append(sf.passed, sf.steps[sf.next:]...) {
		cost := fmt.Sprintf("%d tokens", st.cost)
		if !st.built {
			cost = "~" + cost // priced before redaction
		}
		if st.replace {
			if len(sf.chunks) > 0 {
				ranges = append(ranges, fmt.Sprintf("the rest of the file (whole-file read, %s)", cost))
			} else {
				ranges = append(ranges, fmt.Sprintf("%s (whole file, %s)", LineRange(1, sf.file.Lines()), cost))
			}
			continue
		}
		ranges = append(ranges, fmt.Sprintf("%s (%s)", LineRange(st.seg.s, st.seg.e), cost))
	}
	size, lines := int64(len(sf.file.Data)), sf.file.Lines()
	if len(ranges) > 0 {
		what := "not read"
		if len(sf.chunks) > 0 {
			what = "partly read; not read"
		}
		h.skip(sf.rs.Path, "budget", size, lines, fmt.Sprintf("rank %d: %s: %s; %d of %d tokens spent on chunks (%d of the %d-token budget held for the brief around them)", sf.rs.Rank, what, strings.Join(ranges, ", "), h.spent, h.o.Budget, h.budget-h.o.Budget, h.budget))
	}
	if len(sf.capped) > 0 {
		h.skip(sf.rs.Path, "cost", size, lines, fmt.Sprintf("rank %d: not read: %s", sf.rs.Rank, strings.Join(sf.capped, ", ")))
	}
}

// unranked reports surfaces with hits that the ranking left out (its cap).
func (h *hydrator) unranked(surfaces []*surface) {
	ranked := map[string]bool{}
	for _, sf := range surfaces {
		ranked[sf.rs.Path] = true
	}
	count := map[string]int{}
	var paths []string
	for _, x := range h.in.Hits {
		if ranked[x.Path] {
			continue
		}
		if count[x.Path] == 0 {
			paths = append(paths, x.Path)
		}
		count[x.Path]++
	}
	sort.Strings(paths)
	for _, p := range paths {
		h.skip(p, "cost", 0, 0, fmt.Sprintf("%d hits, below the ranking's cap of %d surfaces", count[p], len(h.in.Rank.Surfaces)))
	}
}

func (h *hydrator) skip(p, reason string, size int64, lines int, detail string) {
	h.skips = append(h.skips, schema.Skip{
		Envelope:  record.Env(schema.KindSkip, schema.V1, Stage, p, reason, detail),
		Path:      p,
		Reason:    reason,
		SizeBytes: size,
		LineCount: lines,
		Stage:     Stage,
		Detail:    detail,
	})
}

// ReEntryCommand is the rtch-hydrate command that reproduces lines s..e of p.
// A name holding a control character (a newline, a tab) is given in $'…'
// quoting, as SedCommand gives one that is not UTF-8, so the command stays
// on one line and reaches the file wherever it is shown (the md brief spells
// such characters visibly, which would change a plainly quoted name).
func ReEntryCommand(p string, s, e int) string {
	arg := p + ":" + LineRange(s, e)
	if hasControl(arg) {
		return "rtch-hydrate --reenter " + ansiQuote(arg)
	}
	return "rtch-hydrate --reenter " + ShellQuote(arg)
}

// SedCommand is the sed command that prints lines s..e of p (from the zone
// root). p is spelt as in records (pkg/pathenc); sed is given the file's own
// name, in $'…' quoting with \xHH escapes when it is not UTF-8 (bash, zsh,
// ksh and POSIX.1-2024 sh read it), so the command reaches the file.
func SedCommand(p string, s, e int) string {
	p = pathenc.Decode(p)
	if strings.HasPrefix(p, "-") {
		p = "./" + p
	}
	q := ShellQuote(p)
	if !utf8.ValidString(p) || hasControl(p) {
		q = ansiQuote(p)
	}
	return fmt.Sprintf("sed -n '%d,%dp' %s", s, e, q)
}

// hasControl reports whether s holds an ASCII control byte or DEL.
func hasControl(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0
}

// ansiQuote writes s as a $'…' word: bytes outside printable ASCII, the
// quote and the backslash as \xHH.
func ansiQuote(s string) string {
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '\'' || c == '\\' {
			fmt.Fprintf(&b, "\\x%02x", c)
		} else {
			b.WriteByte(c)
		}
	}
	b.WriteString("'")
	return b.String()
}

// EffectiveReEntryCommand re-derives a corrected record's effective view: the
// gate record that holds it.
func EffectiveReEntryCommand(recordID string) string {
	q, _ := json.Marshal(recordID)
	return "rtch-zone --gate-only --jq " + ShellQuote(".effective_records[] | select(.target_record_id == "+string(q)+")")
}

// ShellQuote quotes s for a POSIX shell unless it is made only of safe bytes.
func ShellQuote(s string) string {
	safe := s != ""
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("_-./:@%+=,", c)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// FrameReserve is the part of the budget held back for the brief around the
// chunks: its header (the goal and the enough-evidence definition among it,
// as far as the header shows them),
// the list of ranked surfaces not read, the caution map, questions, next
// probes and skip counts. rtch-packet measures the written brief and leaves
// out the last chunks if the frame took more; a reserve too large leaves
// budget unspent, so it follows what the frame is made of rather than a share
// of the budget, and never takes more than a quarter of it.
func FrameReserve(in *Input, budget int, count tokens.Counter) int {
	n := frameBase
	if in != nil && in.Intake != nil {
		n += count.Of(mdsafe.Cut(in.Intake.Goal, brief.GoalShown)) + count.Of(mdsafe.Cut(in.Intake.EnoughEvidenceDefinition, brief.EnoughShown))
	}
	if in != nil && in.Rank != nil {
		listed := 0
		for _, rs := range in.Rank.Surfaces {
			if listed++; listed > frameSurfaces {
				break
			}
			n += count.Of(rs.Path) + 3
		}
	}
	return min(n, budget/4)
}

// frameBase is the frame without the goal and the surface list, as measured
// on briefs of this repository and GOROOT/src (docs/decisions/brief.md);
// frameSurfaces is how many surfaces the reserve prices a list entry for.
const (
	frameBase     = 650
	frameSurfaces = 25
)
