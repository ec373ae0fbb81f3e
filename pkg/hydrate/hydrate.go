package hydrate

import (
	"errors"
	"sort"
	"strconv"
	"strings"

	"github.com/rtch/rtch/pkg/config"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/symbols"
	"github.com/rtch/rtch/pkg/tokens"
)

// Stage is the stage name hydration writes into its skips.
const Stage = "hydrate"

// Protector checks and cleans chunk text: it returns the text with secrets
// redacted and the flags to record ("injection:<pattern>", "redacted:<rule>").
type Protector func(text string) (string, []string)

// Options configure hydration.
type Options struct {
	// Root is the absolute zone root.
	Root string
	// LearnedFunctions orders the definitions by the learned function
	// ranking (fnrank.RankLearned) instead of the hand-written one. Off by
	// default: measured on the shared sets it raises function acc@5 and
	// lowers the briefs' line recall (docs/decisions/functions.md).
	LearnedFunctions bool
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
	// EnoughFloor is the percentage of the chunk budget spent before the
	// lane may stop for enough evidence (stopper); 0 or 100 never stops
	// before the budget is spent. NewOptions sets DefaultEnoughFloor.
	EnoughFloor int
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
		EnoughFloor:       pick(cfg.Hydrate.EnoughFloor, DefaultEnoughFloor),
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
	stop      *stopper       // when the lane has read enough
}

// ErrNoRank is returned when the stream has no rtch.rank record.
var ErrNoRank = errors.New("no rtch.rank record on input; run rtch-probe first")

// ErrNoZone is returned when the stream has no rtch.zone record.
var ErrNoZone = errors.New("no rtch.zone record on input; run rtch-zone first")

// Hydrate reads bounded chunks of the ranked surfaces within the budget.
func Hydrate(in *Input, o Options) (*Result, error) {
	h, surfaces, functions, err := prepare(in, o)
	if err != nil {
		return nil, err
	}
	budget := h.budget
	h.stop = h.newStopper(surfaces)
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

// prepare checks the input, sets the options' defaults and holds back the
// frame, then reads the ranked surfaces, ranks their definitions and plans
// each surface's steps: everything hydration does before it spends the
// budget.
func prepare(in *Input, o Options) (*hydrator, []*surface, []schema.RankedFunction, error) {
	if in.Rank == nil {
		return nil, nil, nil, ErrNoRank
	}
	if in.Zone == nil {
		return nil, nil, nil, ErrNoZone
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
	return h, surfaces, functions, nil
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
