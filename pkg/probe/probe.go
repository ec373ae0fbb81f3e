package probe

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/rtch/rtch/pkg/config"
	"github.com/rtch/rtch/pkg/index"
	"github.com/rtch/rtch/pkg/internal/parallel"
	"github.com/rtch/rtch/pkg/match"
	"github.com/rtch/rtch/pkg/rank"
	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/scout"
	"github.com/rtch/rtch/pkg/walk"
)

// Defaults of the execution caps.
const (
	DefaultHitsPerProbe = 100 // rtch.hit records per probe
	DefaultRankCap      = 100 // surfaces in rtch.rank
	lineTextCap         = 240 // bytes of line text in a hit
)

// Options configure a probe run.
type Options struct {
	// Walk are the walker options (scout.WalkOptions of the same config).
	Walk walk.Options
	// Intake, Candidates and Basket come from the stream.
	Intake     schema.Intake
	Candidates []schema.Candidate
	Basket     schema.Basket
	// AvgBytes is the corpus's mean file size (from rtch.shape); 0 means
	// computed from this walk.
	AvgBytes float64
	// Budget is the fanout level's probe budget.
	Budget config.FanoutBudget
	// HitsPerProbe and RankCap cap the output; 0 means the defaults.
	HitsPerProbe, RankCap int
	// PlanOnly stops after the plan and its cost dry run.
	PlanOnly bool
	// Weights override rank.Default when K1 is set.
	Weights rank.Weights
	// Progress, if set, is called now and then with files read and total.
	Progress func(done, total int)
	// Index, if set, answers for every file whose identity it holds
	// unchanged: such a file is not read (pkg/index).
	Index *index.Index
	// List lists the tree instead of walk.Files (a host's kept snapshot);
	// nil walks.
	List walk.Lister
	// Ranker chooses the ranking: RankerLearned, RankerClassic ("" is
	// DefaultRanker).
	Ranker string
	// Features, if set, is given the ranking features (rank.Features) of
	// the hand-written ranking's first files, before any model re-orders
	// them: what bench/traincorpus trains on.
	Features func(paths []string, rows [][]float64) error
}

// Result is what a probe run emits, in order.
type Result struct {
	Probes []schema.Probe
	Hits   []schema.Hit
	Rank   *schema.Rank
	// Skips are surfaces the probe stage did not read: forbidden by the
	// intake, or unreadable now though the scout read them.
	Skips []walk.Skip
	// Read is how many files the pass read; the index answered for the
	// others.
	Read int
}

// Run plans the probes, executes them in one pass and ranks the surfaces.
func Run(ctx context.Context, o Options) (*Result, error) {
	r := &run{o: o, res: &Result{}}
	r.terms, r.probes = plan(o.Intake, o.Candidates, o.Basket, o.Budget, o.Intake.TargetProfile)
	if err := r.listFiles(ctx); err != nil {
		return nil, err
	}
	if err := r.pass(ctx); err != nil {
		return nil, err
	}
	r.dryRun()
	if err := r.rank(ctx); err != nil {
		return nil, err
	}
	for _, p := range r.probes {
		r.res.Probes = append(r.res.Probes, p.Probe)
	}
	if o.PlanOnly {
		for i := range r.res.Probes {
			r.res.Probes[i].HitCount = 0
		}
		return r.res, nil
	}
	r.collectHits()
	if err := r.emitHits(ctx); err != nil {
		return nil, err
	}
	r.rankRecord()
	return r.res, nil
}

// run is the state one probe run's steps share.
type run struct {
	o      Options
	res    *Result
	terms  []censusTerm
	probes []*planned

	files []walk.File
	index map[string]int
	evs   []*fileEv // evidence per file, nil for a file without any
	avg   float64   // mean file size

	targets   [][]int // file indices per probe
	neighbors map[string]bool
	scored    []rank.Scored
	rankCap   int
	pend      []pendingHit
}

// listFiles walks the tree; forbidden path patterns are never read.
func (r *run) listFiles(ctx context.Context) error {
	files, err := r.o.List.List(ctx, r.o.Walk, nil)
	if err != nil {
		return err
	}
	var excl []string
	for _, e := range r.o.Basket.Exclusions {
		if scout.IsPathPattern(e) {
			excl = append(excl, e)
		}
	}
	for _, f := range files {
		if pat := scout.Excluded(f.Path, excl); pat != "" {
			r.res.Skips = append(r.res.Skips, walk.Skip{Path: f.Path, Reason: "forbidden", SizeBytes: f.Size,
				Detail: "matches forbidden assumption " + pat})
			continue
		}
		r.files = append(r.files, f)
	}
	r.index = make(map[string]int, len(r.files))
	for i, f := range r.files {
		r.index[f.Path] = i
	}
	return nil
}

// matchers builds the content matcher over every term and the path matcher
// over the terms of the file-inventory probes (with their term indices).
func (r *run) matchers() (cm, pm *match.Matcher, pathIdx []int) {
	var contentLits, pathLits []string
	inPathFamily := map[int]bool{}
	for _, p := range r.probes {
		if p.Family == FamilyFileInventory {
			for _, t := range p.terms {
				inPathFamily[t] = true
			}
		}
	}
	for i, t := range r.terms {
		contentLits = append(contentLits, t.text)
		if inPathFamily[i] {
			pathLits = append(pathLits, t.text)
			pathIdx = append(pathIdx, i)
		}
	}
	return match.New(contentLits), match.New(pathLits), pathIdx
}

// pass is the one pass: it gathers every file's evidence, from the tree
// index for the files it answers for and from their bytes for the others.
func (r *run) pass(ctx context.Context) error {
	cm, pm, pathIdx := r.matchers()
	assignBits(r.terms)
	r.evs = make([]*fileEv, len(r.files))
	p := &passState{r: r, cm: cm, path: newPathTerms(pm, pathIdx, r.terms)}
	p.pool.New = func() any { return newCollector(len(r.terms)) }
	toRead, err := p.replay()
	if err != nil {
		return err
	}
	r.res.Read = len(toRead)
	if err := p.read(ctx, toRead); err != nil {
		return err
	}
	r.res.Skips = append(r.res.Skips, p.readSkips...)
	sort.SliceStable(r.res.Skips, func(i, j int) bool { return r.res.Skips[i].Path < r.res.Skips[j].Path })
	r.avg = r.o.AvgBytes
	if r.avg <= 0 && p.nread > 0 {
		r.avg = float64(p.totalBytes) / float64(p.nread)
	}
	return nil
}

// passState is what the pass's workers share.
type passState struct {
	r          *run
	cm         *match.Matcher
	path       *pathTerms
	pool       sync.Pool
	mu         sync.Mutex
	totalBytes int64
	nread      int
	readSkips  []walk.Skip
}

// keep stores one file's evidence and counts it.
func (p *passState) keep(path string, bytes int64, ev *fileEv) {
	p.mu.Lock()
	p.totalBytes += bytes
	p.nread++
	if p.r.o.Progress != nil && p.nread%512 == 0 {
		p.r.o.Progress(p.nread, len(p.r.files))
	}
	p.mu.Unlock()
	if ev != nil {
		p.r.evs[p.r.index[path]] = ev
	}
}

// evidence runs fill on a fresh collector for the file and adds the
// path evidence.
func (p *passState) evidence(path string, fill func(c *collector) error) (*fileEv, error) {
	c := p.pool.Get().(*collector)
	defer p.pool.Put(c)
	c.ev = &fileEv{path: path, terms: c.terms[:0]}
	err := fill(c)
	pathEvidence(p.path, p.r.terms, path, c.get)
	ev := c.done()
	c.ev = nil
	return ev, err
}

// read reads the files the index did not answer for.
func (p *passState) read(ctx context.Context, files []walk.File) error {
	// The pass keeps nothing of a file's bytes, so each worker reads every
	// file into one buffer.
	reuse := p.r.o.Walk
	reuse.ReuseBuffers = true
	return walk.Each(ctx, reuse, files, func(f walk.File, data []byte) error {
		ev, _ := p.evidence(f.Path, func(c *collector) error {
			scanFile(p.cm, p.r.terms, f.Path, data, c)
			return nil
		})
		p.keep(f.Path, int64(len(data)), ev)
		return nil
	}, func(s walk.Skip) { p.readSkips = append(p.readSkips, s) })
}

// replay answers from the index for every file it holds unchanged that
// cannot hold a term the index does not answer for, and returns the
// files left to read.
func (p *passState) replay() ([]walk.File, error) {
	ix := p.r.o.Index
	if ix == nil {
		return p.r.files, nil
	}
	phrase := phraseTerms(p.r.terms)
	asked := askedPhrases(phrase)
	pats, sp, all := readPatterns(p.cm)
	if all {
		return p.r.files, nil
	}
	files := p.r.files
	words, cands := ix.Words(p.cm), ix.Candidates(pats)
	read := make([]bool, len(files))
	skips := make([]*walk.Skip, len(files))
	hits := make([][]index.Hit, parallel.Workers())
	placed := make([][]index.Hit, parallel.Workers())
	folds := make([][]byte, parallel.Workers())
	parallel.ForWorker(len(files), func(w, i int) {
		f := files[i]
		st, ok := ix.Stat(f)
		if !ok {
			read[i] = true
			return
		}
		if words != nil && cands != nil && !st.Skip && st.Phrases&asked == 0 && !cands.May(st.Row) && !words.Has(st.Row) {
			p.keepUnmatched(f) // no word of it matches: nothing to decode
			return
		}
		fl, ok := ix.Read(st)
		placed[w] = placed[w][:0]
		if ok && fl.Skip == nil {
			if cands != nil {
				placed[w], ok = cands.Places(fl, sp, placed[w])
			} else {
				var may bool
				may, folds[w] = fl.MayHold(pats, folds[w])
				ok = !may
			}
		}
		switch {
		case !ok:
			read[i] = true
		case fl.Skip != nil:
			skips[i] = fl.Skip
		default:
			var err error
			ev, err := p.evidence(f.Path, func(c *collector) error {
				hits[w], err = replayFile(p.cm, words, phrase, p.r.terms, f.Path, fl, placed[w], c, hits[w])
				return err
			})
			if err != nil {
				read[i] = true // a corrupt entry: read the file
				return
			}
			p.keep(f.Path, fl.Bytes, ev)
		}
	})
	var toRead []walk.File
	for i, f := range files {
		if read[i] {
			toRead = append(toRead, f)
		}
		if skips[i] != nil {
			p.readSkips = append(p.readSkips, *skips[i])
		}
	}
	return toRead, nil
}

// keepUnmatched keeps the evidence of a file the index holds in which no
// term occurs: what its path alone gives.
func (p *passState) keepUnmatched(f walk.File) {
	ev, _ := p.evidence(f.Path, func(c *collector) error {
		newFileScan(p.r.terms, f.Path, c).finish(f.Size, nil)
		return nil
	})
	p.keep(f.Path, f.Size, ev)
}

// phraseTerms maps each phrase the index keeps (scout.IndexedPhrases) to
// its term index, -1 when no term is that phrase.
func phraseTerms(terms []censusTerm) []int {
	var out []int
	for _, p := range keptPhrases() {
		k := -1
		for i, t := range terms {
			if t.text == p {
				k = i
				break
			}
		}
		out = append(out, k)
	}
	return out
}

// keptPhrases are the phrases the index keeps (scout.IndexedPhrases), in
// their order, folded as the terms are.
var keptPhrases = sync.OnceValue(func() []string {
	var out []string
	for _, p := range scout.IndexedPhrases() {
		out = append(out, match.Fold(p))
	}
	return out
})

// askedPhrases is the index.PhraseMask of the kept phrases that are terms
// (phrase, from phraseTerms).
func askedPhrases(phrase []int) uint64 {
	var m uint64
	for i, t := range phrase {
		if t >= 0 {
			m |= index.PhraseBit(i)
		}
	}
	return m
}

// readPatterns are the patterns (index.Pattern) of the spellings m finds
// that the stored words do not answer for: those with bytes other than
// word bytes (a path, a dotted name, a compound's variant), except the
// phrases the index keeps; sp[i] names the matches of pats[i]. all is
// true when one of them may be in any file: then every file is read.
func readPatterns(m *match.Matcher) (pats []index.Pattern, sp []index.Spelling, all bool) {
	indexed := map[string]bool{}
	for _, p := range keptPhrases() {
		indexed[p] = true
	}
	rank := 0
	m.Spellings(func(s string, term int) {
		rank++
		if index.Simple(s) || indexed[s] || all {
			return
		}
		p := index.NewPattern(s)
		if p.Any() {
			all = true
			return
		}
		pats = append(pats, p)
		sp = append(sp, index.Spelling{Term: term, Rank: rank - 1})
	})
	if all {
		return nil, nil, true
	}
	return pats, sp, false
}

// dryRun finds each probe's target files, its cost and its status.
func (r *run) dryRun() {
	rarest := rarestGoalTerm(r.terms)
	r.targets = make([][]int, len(r.probes))
	for pi, p := range r.probes {
		ts := termSet(p, len(r.terms))
		for fi, ev := range r.evs {
			if ev != nil && inTarget(p, ev, ts, r.terms) {
				r.targets[pi] = append(r.targets[pi], fi)
			}
		}
		cost := schema.ProbeCost{Files: len(r.targets[pi])}
		if p.targetKind != targetKindNames {
			for _, fi := range r.targets[pi] {
				cost.Lines += r.evs[fi].lines
				cost.Bytes += r.evs[fi].bytes
			}
		}
		p.Cost = cost
		p.Status = statusExecuted
		if r.o.PlanOnly {
			p.Status = statusPlanned
		}
		if p.targetKind != targetKindNames && cost.Files > dryRunFiles && (cost.Files > costFiles || cost.Lines > costLines) {
			r.overBudget(p, rarest)
		}
	}
}

// overBudget decides what becomes of a probe whose dry run exceeds the cost
// limits.
func (r *run) overBudget(p *planned, rarest int) {
	cost := p.Cost
	switch {
	case rarest >= 0 && slices.Contains(p.terms, rarest):
		// The goal's rarest term is the one most likely to name the
		// change; its probe is never deferred.
		p.Limitation += fmt.Sprintf("; dry run: %d files, %d lines exceed %d files or %d lines: run anyway, it holds the goal's rarest term %q", cost.Files, cost.Lines, costFiles, costLines, r.terms[rarest].text)
	case r.o.Intake.FanoutLevel == "wide":
		p.Exploratory = true
		p.Limitation += fmt.Sprintf("; dry run: %d files, %d lines: run at wide as exploratory", cost.Files, cost.Lines)
	default:
		p.Status = statusSkippedCost
		p.Limitation += fmt.Sprintf("; dry run: %d files, %d lines exceed %d files or %d lines: skipped below wide", cost.Files, cost.Lines, costFiles, costLines)
	}
}

// termSet marks p's terms among n.
func termSet(p *planned, n int) []bool {
	ts := make([]bool, n)
	for _, t := range p.terms {
		ts[t] = true
	}
	return ts
}

// rank scores every file with evidence and spreads along the links.
func (r *run) rank(ctx context.Context) error {
	r.neighbors = map[string]bool{}
	for _, n := range r.o.Basket.NeighborSurfaces {
		r.neighbors[strings.TrimPrefix(n, "./")] = true
	}
	w := r.o.Weights
	if w.K1 == 0 {
		w = rank.Default
	}
	r.rankCap = r.o.RankCap
	if r.rankCap <= 0 {
		r.rankCap = DefaultRankCap
	}
	// Reasons for what the rank record shows and what neighbour spreading
	// may lift into it.
	explain := max(r.rankCap, w.SpreadPool)
	terms := r.rankTerms()
	params := rank.Params{Profile: r.o.Intake.TargetProfile, AvgBytes: r.avg, Weights: w, Explain: explain}
	r.scored = rank.Rank(terms, r.rankFiles(), params)
	var links []rank.Link
	if w.SpreadSources > 0 && len(r.scored) > 1 {
		var err error
		links, err = useLinks(ctx, r.o.Walk, r.files, r.index, r.scored, w)
		if err != nil {
			return err
		}
		r.scored = rank.Spread(r.scored, links, w)
	}
	return r.learn(ctx, terms, links, params)
}

// rankTerms are the terms as the ranking sees them.
func (r *run) rankTerms() []rank.Term {
	rterms := make([]rank.Term, len(r.terms))
	for i, t := range r.terms {
		rterms[i] = rank.Term{Term: t.text, Origin: t.origin, Use: t.use, IDF: t.idf, Generic: t.generic, GoalKind: t.goalKind,
			GoalCount: t.goalCount, InTitle: t.inTitle, DF: t.df, DefFiles: t.defFiles, Group: t.group, GroupIDF: t.groupIDF}
		if t.phrase != "" {
			rterms[i].Use = "caution"
		}
		if t.neighbor {
			rterms[i].Origin, rterms[i].Use = "ref_neighborhood", "neighbor_only"
		}
	}
	return rterms
}

// rankFiles are the files with evidence as the ranking sees them.
func (r *run) rankFiles() []rank.File {
	var rfiles []rank.File
	for _, ev := range r.evs {
		if ev == nil {
			continue
		}
		rf := rank.File{Path: ev.path, Bytes: ev.bytes, Anchors: ev.anchors, Neighbor: r.neighbors[ev.path],
			Window: ev.window, WindowTerms: ev.windowTerms}
		for _, te := range ev.terms {
			rf.Evidence = append(rf.Evidence, rank.TermEvidence{Term: int(te.term), FileNameExact: te.fileExact,
				FileNamePart: te.filePart, DirName: te.dir, Definitions: int(te.def), DefLines: int(te.defl),
				Headings: int(te.head), Keys: int(te.key), Body: int(te.body)})
		}
		rfiles = append(rfiles, rf)
	}
	return rfiles
}

// rankAt is each file's place in the ranking; unranked files come after
// every ranked one.
func (r *run) rankAt() []int {
	position := map[string]int{}
	for i, s := range r.scored {
		position[s.Path] = i
	}
	at := make([]int, len(r.evs))
	for fi, ev := range r.evs {
		at[fi] = len(r.scored)
		if ev != nil {
			if p, ok := position[ev.path]; ok {
				at[fi] = p
			}
		}
	}
	return at
}

// rankRecord is the ranking record.
func (r *run) rankRecord() {
	rk := &schema.Rank{Total: len(r.scored), Surfaces: []schema.RankedSurface{}}
	for i, s := range r.scored {
		if i >= r.rankCap {
			break
		}
		ev := r.evs[r.index[s.Path]]
		rs := schema.RankedSurface{Path: s.Path, Rank: i + 1, Score: s.Score, WhySelected: s.Why, Terms: s.Terms,
			BestClass: bestClass(ev, r.terms, r.neighbors[s.Path]), Anchors: s.Anchors, NeighborOnly: r.neighbors[s.Path]}
		if rs.Anchors == nil {
			rs.Anchors = []int{}
		}
		rk.Surfaces = append(rk.Surfaces, rs)
	}
	rk.Envelope = record.Env(schema.KindRank, schema.V1, r.o.Basket.BasketID, fmt.Sprint(len(rk.Surfaces)))
	r.res.Rank = rk
}

// inTarget says whether a file belongs to a probe's target set.
func inTarget(p *planned, ev *fileEv, ts []bool, terms []censusTerm) bool {
	for _, te := range ev.terms {
		if !ts[int(te.term)] {
			continue
		}
		switch p.targetKind {
		case targetKindNames:
			if te.fileExact || te.filePart || te.dir {
				return true
			}
		case targetKindConfirmed:
			if terms[te.term].locations[ev.path] != nil {
				return true
			}
		default:
			if te.body+te.def+te.defl+te.head+te.key > 0 {
				return true
			}
		}
	}
	return false
}

var classOrder = map[string]int{"source_bearing_hit": 0, "hit": 1, "weak_hit": 2, "neighbor_only": 3, "caution_only": 4}

// bestClass is the strongest class a surface's evidence reaches.
func bestClass(ev *fileEv, terms []censusTerm, neighbor bool) string {
	best := "caution_only"
	for _, te := range ev.terms {
		ct := &terms[te.term]
		c := "hit"
		switch {
		case ct.phrase != "":
			c = "caution_only"
		case ct.neighbor || neighbor:
			c = "neighbor_only"
		case ct.generic:
			c = "weak_hit"
		case ct.origin == "durable_handle" || ct.origin == "explicit_seed" || te.fileExact || te.filePart || te.def > 0 || te.head > 0 || te.key > 0:
			c = "source_bearing_hit"
		}
		if classOrder[c] < classOrder[best] {
			best = c
		}
	}
	return best
}
