package probe

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/rtch/rtch/pkg/config"
	"github.com/rtch/rtch/pkg/probe/match"
	"github.com/rtch/rtch/pkg/rank"
	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/scout"
	"github.com/rtch/rtch/pkg/secret"
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
}

// Result is what a probe run emits, in order.
type Result struct {
	Probes []schema.Probe
	Hits   []schema.Hit
	Rank   *schema.Rank
	// Skips are surfaces the probe stage did not read: forbidden by the
	// intake, or unreadable now though the scout read them.
	Skips []walk.Skip
}

// Run plans the probes, executes them in one pass and ranks the surfaces.
func Run(ctx context.Context, o Options) (*Result, error) {
	profile := o.Intake.TargetProfile
	terms, probes := plan(o.Intake, o.Candidates, o.Basket, o.Budget, profile)
	res := &Result{}

	files, err := walk.Files(ctx, o.Walk, nil)
	if err != nil {
		return nil, err
	}
	// Exclusions: forbidden path patterns are never read.
	var excl []string
	for _, e := range o.Basket.Exclusions {
		if scout.IsPathPattern(e) {
			excl = append(excl, e)
		}
	}
	var keep []walk.File
	for _, f := range files {
		if pat := scout.Excluded(f.Path, excl); pat != "" {
			res.Skips = append(res.Skips, walk.Skip{Path: f.Path, Reason: "forbidden", SizeBytes: f.Size,
				Detail: "matches forbidden assumption " + pat})
			continue
		}
		keep = append(keep, f)
	}
	files = keep

	// The one pass.
	var contentLits []string
	var pathLits []string
	var pathIdx []int
	inPathFamily := map[int]bool{}
	for _, p := range probes {
		if p.Family == FamilyFileInventory {
			for _, t := range p.terms {
				inPathFamily[t] = true
			}
		}
	}
	for i, t := range terms {
		contentLits = append(contentLits, t.text)
		if inPathFamily[i] {
			pathLits = append(pathLits, t.text)
			pathIdx = append(pathIdx, i)
		}
	}
	cm := match.New(contentLits)
	pm := match.New(pathLits)
	evs := make([]*fileEv, len(files))
	index := make(map[string]int, len(files))
	for i, f := range files {
		index[f.Path] = i
	}
	pool := sync.Pool{New: func() any { return &collector{slot: make([]int32, len(terms))} }}
	var totalBytes int64
	var nread int
	var mu sync.Mutex
	var readSkips []walk.Skip
	// The pass keeps nothing of a file's bytes, so each worker reads every
	// file into one buffer.
	reuse := o.Walk
	reuse.ReuseBuffers = true
	err = walk.Each(ctx, reuse, files, func(f walk.File, data []byte) error {
		c := pool.Get().(*collector)
		c.ev = &fileEv{path: f.Path}
		scanFile(cm, terms, f.Path, data, c)
		pathEvidence(pm, pathIdx, terms, f.Path, c.get)
		ev := c.done()
		c.ev = nil
		pool.Put(c)
		mu.Lock()
		totalBytes += int64(len(data))
		nread++
		if o.Progress != nil && nread%512 == 0 {
			o.Progress(nread, len(files))
		}
		mu.Unlock()
		if ev != nil {
			ev.bytes = int64(len(data))
			evs[index[f.Path]] = ev
		}
		return nil
	}, func(s walk.Skip) { readSkips = append(readSkips, s) })
	if err != nil {
		return nil, err
	}
	res.Skips = append(res.Skips, readSkips...)
	sort.SliceStable(res.Skips, func(i, j int) bool { return res.Skips[i].Path < res.Skips[j].Path })
	avg := o.AvgBytes
	if avg <= 0 && nread > 0 {
		avg = float64(totalBytes) / float64(nread)
	}

	// Dry-run costs and statuses.
	rarest := rarestGoalTerm(terms)
	targets := make([][]int, len(probes)) // file indices per probe
	for pi, p := range probes {
		ts := map[int]bool{}
		for _, t := range p.terms {
			ts[t] = true
		}
		for fi, ev := range evs {
			if ev == nil {
				continue
			}
			if inTarget(p, ev, ts, terms) {
				targets[pi] = append(targets[pi], fi)
			}
		}
		cost := schema.ProbeCost{Files: len(targets[pi])}
		if p.targetKind != targetKindNames {
			for _, fi := range targets[pi] {
				cost.Lines += evs[fi].lines
				cost.Bytes += evs[fi].bytes
			}
		}
		p.Cost = cost
		p.Status = statusExecuted
		if o.PlanOnly {
			p.Status = statusPlanned
		}
		if p.targetKind != targetKindNames && cost.Files > dryRunFiles && (cost.Files > costFiles || cost.Lines > costLines) {
			switch {
			case rarest >= 0 && slices.Contains(p.terms, rarest):
				// The goal's rarest term is the one most likely to
				// name the change; its probe is never deferred.
				p.Limitation += fmt.Sprintf("; dry run: %d files, %d lines exceed %d files or %d lines: run anyway, it holds the goal's rarest term %q", cost.Files, cost.Lines, costFiles, costLines, terms[rarest].text)
			case o.Intake.FanoutLevel == "wide":
				p.Exploratory = true
				p.Limitation += fmt.Sprintf("; dry run: %d files, %d lines: run at wide as exploratory", cost.Files, cost.Lines)
			default:
				p.Status = statusSkippedCost
				p.Limitation += fmt.Sprintf("; dry run: %d files, %d lines exceed %d files or %d lines: skipped below wide", cost.Files, cost.Lines, costFiles, costLines)
			}
		}
	}

	// Ranking over every file with evidence.
	rterms := make([]rank.Term, len(terms))
	for i, t := range terms {
		rterms[i] = rank.Term{Term: t.text, Origin: t.origin, Use: t.use, IDF: t.idf, Generic: t.generic, GoalKind: t.goalKind,
			GoalCount: t.goalCount, InTitle: t.inTitle}
		if t.phrase != "" {
			rterms[i].Use = "caution"
		}
		if t.neighbor {
			rterms[i].Origin, rterms[i].Use = "ref_neighborhood", "neighbor_only"
		}
	}
	neighbors := map[string]bool{}
	for _, n := range o.Basket.NeighborSurfaces {
		neighbors[strings.TrimPrefix(n, "./")] = true
	}
	var rfiles []rank.File
	for _, ev := range evs {
		if ev == nil {
			continue
		}
		rf := rank.File{Path: ev.path, Bytes: ev.bytes, Anchors: ev.anchors, Neighbor: neighbors[ev.path]}
		for _, te := range ev.terms {
			rf.Evidence = append(rf.Evidence, rank.TermEvidence{Term: int(te.term), FileNameExact: te.fileExact,
				FileNamePart: te.filePart, DirName: te.dir, Definitions: int(te.def), DefLines: int(te.defl),
				Headings: int(te.head), Keys: int(te.key), Body: int(te.body)})
		}
		rfiles = append(rfiles, rf)
	}
	w := o.Weights
	if w.K1 == 0 {
		w = rank.Default
	}
	rc := o.RankCap
	if rc <= 0 {
		rc = DefaultRankCap
	}
	// Reasons for what the rank record shows and what neighbour spreading
	// may lift into it.
	explain := max(rc, w.SpreadPool)
	scored := rank.Rank(rterms, rfiles, rank.Params{Profile: profile, AvgBytes: avg, Weights: w, Explain: explain})
	if w.SpreadSources > 0 && len(scored) > 1 {
		links, err := useLinks(ctx, o.Walk, files, index, scored, w)
		if err != nil {
			return nil, err
		}
		scored = rank.Spread(scored, links, w)
	}
	position := map[string]int{}
	for i, s := range scored {
		position[s.Path] = i
	}

	for _, p := range probes {
		res.Probes = append(res.Probes, p.Probe)
	}
	if o.PlanOnly {
		for i := range res.Probes {
			res.Probes[i].HitCount = 0
		}
		return res, nil
	}

	// Hits: each executed probe, its target files in rank order, capped.
	hitsCap := o.HitsPerProbe
	if hitsCap <= 0 {
		hitsCap = DefaultHitsPerProbe
	}
	// rankAt is each file's place in the ranking; unranked files come
	// after every ranked one.
	rankAt := make([]int, len(evs))
	for fi, ev := range evs {
		rankAt[fi] = len(scored)
		if ev != nil {
			if p, ok := position[ev.path]; ok {
				rankAt[fi] = p
			}
		}
	}
	type pending struct {
		hit  schema.Hit
		file int
	}
	var pend []pending
	for pi, p := range probes {
		ts := map[int]bool{}
		for _, t := range p.terms {
			ts[t] = true
		}
		tf := append([]int(nil), targets[pi]...)
		sort.SliceStable(tf, func(a, b int) bool {
			pa, pb := rankAt[tf[a]], rankAt[tf[b]]
			if pa != pb {
				return pa < pb
			}
			return evs[tf[a]].path < evs[tf[b]].path
		})
		count := 0
		emitted := 0
		for k, fi := range tf {
			ev := evs[fi]
			fileStart := len(pend)
			for _, te := range ev.terms {
				if !ts[int(te.term)] {
					continue
				}
				ct := &terms[te.term]
				for _, ps := range te.pos[:te.npos] {
					if p.Family == FamilyFileInventory && ps.field != fPath {
						continue
					}
					if p.Family != FamilyFileInventory && ps.field == fPath {
						continue
					}
					count++
					if p.Status != statusExecuted || k >= o.Budget.MaxFilesPerProbe || emitted >= hitsCap {
						continue
					}
					emitted++
					h := schema.Hit{ProbeID: p.ProbeID, Path: ev.path, Line: int(ps.line), Col: int(ps.col), Term: ct.text,
						Field: fieldName(ps.field), ConfidenceClass: confidence(p, ct, ps.field, neighbors[ev.path])}
					if ps.field == fPath {
						h.LineText = ev.path
					}
					pend = append(pend, pending{h, fi})
				}
			}
			fh := pend[fileStart:]
			sort.SliceStable(fh, func(a, b int) bool {
				x, y := fh[a].hit, fh[b].hit
				if x.Line != y.Line {
					return x.Line < y.Line
				}
				if x.Col != y.Col {
					return x.Col < y.Col
				}
				return x.Term < y.Term
			})
		}
		if p.Family != FamilyFileInventory {
			count = 0
			for _, fi := range tf {
				for _, te := range evs[fi].terms {
					if ts[int(te.term)] {
						count += int(te.body + te.def + te.defl + te.head + te.key)
					}
				}
			}
		}
		res.Probes[pi].HitCount = count
		p.HitCount = count
	}
	// Line text: the few files that carry emitted hits are read again.
	need := map[int]bool{}
	for _, pd := range pend {
		if pd.hit.Line > 0 {
			need[pd.file] = true
		}
	}
	texts := map[int][]string{}
	var needFiles []walk.File
	for fi := range need {
		needFiles = append(needFiles, files[fi])
	}
	sort.Slice(needFiles, func(i, j int) bool { return needFiles[i].Path < needFiles[j].Path })
	var tmu sync.Mutex
	if err := walk.Each(ctx, o.Walk, needFiles, func(f walk.File, data []byte) error {
		ls := walk.Lines(walk.DecodeText(data))
		tmu.Lock()
		texts[index[f.Path]] = ls
		tmu.Unlock()
		return nil
	}, nil); err != nil {
		return nil, err
	}
	for _, pd := range pend {
		h := pd.hit
		if h.Line > 0 {
			if ls := texts[pd.file]; h.Line <= len(ls) {
				h.LineText = capLine(redactedLine(ls, h.Line))
			}
		}
		h.Envelope = record.Env(schema.KindHit, schema.V1, h.ProbeID, h.Path, fmt.Sprint(h.Line), fmt.Sprint(h.Col), h.Term)
		res.Hits = append(res.Hits, h)
	}

	// The ranking record.
	rk := &schema.Rank{Total: len(scored), Surfaces: []schema.RankedSurface{}}
	for i, s := range scored {
		if i >= rc {
			break
		}
		ev := evs[index[s.Path]]
		rs := schema.RankedSurface{Path: s.Path, Rank: i + 1, Score: s.Score, WhySelected: s.Why, Terms: s.Terms,
			BestClass: bestClass(ev, terms, neighbors[s.Path]), Anchors: s.Anchors, NeighborOnly: neighbors[s.Path]}
		if rs.Anchors == nil {
			rs.Anchors = []int{}
		}
		rk.Surfaces = append(rk.Surfaces, rs)
	}
	rk.Envelope = record.Env(schema.KindRank, schema.V1, o.Basket.BasketID, fmt.Sprint(len(rk.Surfaces)))
	res.Rank = rk
	return res, nil
}

// inTarget says whether a file belongs to a probe's target set.
func inTarget(p *planned, ev *fileEv, ts map[int]bool, terms []censusTerm) bool {
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

func fieldName(f uint8) string {
	if int(f) < len(fieldNames) {
		return fieldNames[f]
	}
	return fieldBody
}

// confidence is a hit's class (SPEC §8).
func confidence(p *planned, ct *censusTerm, f uint8, neighbor bool) string {
	switch {
	case p.Family == FamilyTruthPhrase || p.Family == FamilyTemporal || p.Family == FamilyCaution:
		return "caution_only"
	case p.Family == FamilyBacklink || ct.neighbor || neighbor:
		return "neighbor_only"
	case ct.generic:
		return "weak_hit"
	case ct.origin == "durable_handle" || ct.origin == "explicit_seed":
		return "source_bearing_hit"
	case f == fPath || f == fDef || f == fHeading || f == fKey:
		return "source_bearing_hit"
	case f == fDefLine && ct.origin != "exploratory":
		return "source_bearing_hit"
	}
	return "hit"
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

func capLine(s string) string {
	if len(s) <= lineTextCap {
		return s
	}
	n := lineTextCap
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// redactedLine returns line n (1-based) of ls with secrets masked. The
// redactor sees the three lines above and the one below too, so a hit
// inside a multi-line secret (a key's body lines, a value on the line after
// its key) is masked; redacting only these windows, not whole files, keeps
// the cost to the hits the probe emits.
func redactedLine(ls []string, n int) string {
	lo, hi := max(n-4, 0), min(n+1, len(ls))
	red := strings.Split(secret.String(strings.Join(ls[lo:hi], "\n")), "\n")
	if k := n - 1 - lo; k < len(red) {
		return red[k]
	}
	return ls[n-1]
}
