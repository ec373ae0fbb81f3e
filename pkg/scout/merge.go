package scout

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/secret"
)

// totals are what the files' outcomes are folded into, in whatever order
// they come: sums and counts, and of what is kept in path order
// (findings, handles, confirmations) the first ones, as many as the result
// can show (firsts).
type totals struct {
	mu              sync.Mutex
	docs            int
	totalBytes      int64
	relevant, other map[string]*firsts[schema.ShapeFinding]
	relevantN       map[string]int // relevant findings, kept or not
	touched, counts map[string]int
	handleFirsts    firsts[schema.ShapeFinding]
	handleVals      map[string]bool
	// confirms are the content scans' confirmations of each term, which
	// follow the name scan's (endMerge).
	confirms     []firsts[Confirmation]
	confirmCount []map[string]int
}

// startMerge makes the empty totals.
func (r *run) startMerge() {
	r.totals = totals{relevant: map[string]*firsts[schema.ShapeFinding]{}, other: map[string]*firsts[schema.ShapeFinding]{},
		relevantN: map[string]int{}, touched: map[string]int{}, counts: map[string]int{},
		handleFirsts: firsts[schema.ShapeFinding]{limit: r.capN}, handleVals: map[string]bool{},
		confirms: make([]firsts[Confirmation], len(r.terms)), confirmCount: make([]map[string]int, len(r.terms))}
	for t := range r.confirms {
		r.confirms[t].limit, r.confirmCount[t] = LocationsPerMatch, map[string]int{}
	}
}

// fold folds the outcome of file i into the totals and lets it go.
func (r *run) fold(i int, out *fileOut) {
	r.mu.Lock()
	defer r.mu.Unlock()
	res := r.res
	r.walked[i] = true
	r.docs++
	r.totalBytes += int64(out.sizeBytes)
	for _, t := range out.termHits {
		res.Terms[r.terms[t]].DF++
	}
	r.countGroups(out.termHits)
	if len(out.confirms) > 0 {
		byTerm := map[int][]Confirmation{}
		for _, tc := range out.confirms {
			r.confirmCount[tc.term][tc.c.Kind]++
			byTerm[tc.term] = append(byTerm[tc.term], tc.c)
		}
		for t, cs := range byTerm {
			r.confirms[t].add(i, cs)
		}
	}
	for _, t := range out.nameParts {
		res.Terms[r.terms[t]].NamePart++
	}
	for s, n := range out.counts {
		r.counts[s] += n
	}
	for s := range out.touched {
		r.touched[s]++
	}
	for s, fs := range out.relevant {
		r.relevantN[s] += len(fs)
		firstsOf(r.relevant, s, r.capN).add(i, fs)
	}
	for s, fs := range out.findings {
		firstsOf(r.other, s, r.capN).add(i, fs)
	}
	for _, h := range out.handles {
		r.handleVals[h.Value] = true
	}
	r.handleFirsts.add(i, out.handles)
	r.held.Add(-1)
}

// drop lets outcome k of the batch in hand go unfolded.
func (r *run) drop(k int) {
	if r.outs[k] != nil {
		r.outs[k] = nil
		r.held.Add(-1)
	}
}

// firstsOf is scan s's firsts in m, made when missing.
func firstsOf(m map[string]*firsts[schema.ShapeFinding], s string, limit int) *firsts[schema.ShapeFinding] {
	f := m[s]
	if f == nil {
		f = &firsts[schema.ShapeFinding]{limit: limit}
		m[s] = f
	}
	return f
}

// endMerge completes the result from the totals: the content scans'
// confirmations after the name scan's, the handles, the counts of files.
func (r *run) endMerge() {
	res, sh := r.res, &r.res.Shape
	for t := range r.confirms {
		ts := res.Terms[r.terms[t]]
		for kind, n := range r.confirmCount[t] {
			ts.ConfirmCount[kind] += n
		}
		for _, cf := range r.confirms[t].all() {
			if len(ts.Confirmations) < LocationsPerMatch {
				ts.Confirmations = append(ts.Confirmations, cf)
			}
		}
	}
	res.Handles = r.handleFirsts.first(r.capN)
	res.Read, res.peakHeld = r.read, int(r.peakHeld.Load())
	res.HandleCount = len(r.handleVals)
	sh.FilesSkipped = len(r.skips)
	sh.FilesWalked = r.docs
	sh.Corpus.Docs = r.docs
	if r.docs > 0 {
		sh.Corpus.AvgLen = float64(r.totalBytes) / 4 / float64(r.docs)
	}
}

// countGroups adds one file's terms to the document frequencies of their
// groups, each group once.
func (r *run) countGroups(hits []int) {
	if len(r.o.Groups) == 0 {
		return
	}
	if r.res.GroupDF == nil {
		r.res.GroupDF = map[string]int{}
	}
	var seen []string
	for _, t := range hits {
		g := r.o.Groups[r.terms[t]]
		if g != "" && !slices.Contains(seen, g) {
			seen = append(seen, g)
			r.res.GroupDF[g]++
		}
	}
}

// inventory writes the scan inventory and the findings: goal-relevant
// findings first, then others, capped.
func (r *run) inventory() {
	sh := &r.res.Shape
	for _, s := range scanOrder {
		e := r.scanEntry(s)
		if s != ScanDirMap && s != ScanFilenames && s != ScanCorpus {
			r.addFindings(s, &e)
		}
		sh.ShapeInventory = append(sh.ShapeInventory, e)
	}
	if sh.DirMap == nil {
		sh.DirMap = []string{}
	}
	if sh.Findings == nil {
		sh.Findings = []schema.ShapeFinding{}
	}
}

// scanEntry is one scan's line of the inventory.
func (r *run) scanEntry(s string) schema.ShapeScan {
	sh := &r.res.Shape
	a := r.acct[s]
	e := schema.ShapeScan{Scan: s, Pattern: scanPattern[s], WallMS: a.nanos / 1e6}
	switch s {
	case ScanDirMap:
		e.FilesTouched, e.Hits, e.Capped = len(r.files), len(sh.DirMap), len(r.dirList) > len(sh.DirMap)
		e.WallMS = r.nameNanos / 1e6
	case ScanFilenames:
		e.FilesTouched, e.Hits = len(r.files), r.nameHits+r.dirHits
		e.WallMS = (r.walkDur.Nanoseconds() + r.nameNanos) / 1e6
		e.Capped = r.nameHits+r.dirHits > r.capN
	case ScanHandles:
		e.Pattern = strings.Join(r.handles, " | ")
		e.FilesTouched, e.Hits = r.touched[s], r.counts[s]
		e.Capped = len(r.res.Handles) < r.counts[s]
	case ScanCorpus:
		e.FilesTouched = r.touched[ScanTruthPhrases]
		for _, ts := range r.res.Terms {
			e.Hits += ts.DF
		}
	default:
		e.FilesTouched, e.Hits = r.touched[s], r.counts[s]
	}
	if s != ScanDirMap && s != ScanFilenames {
		if r.firstOver != "" {
			e.CeilingHit = true
			e.Note = fmt.Sprintf("byte ceiling %d reached: files from %s on were not scanned", r.ceiling, r.firstOver)
		}
		if a.stopped.Load() {
			e.CeilingHit = true
			e.Note = fmt.Sprintf("time ceiling %d ms reached: the scan stopped part way", r.o.CeilingMS)
		}
	}
	return e
}

// addFindings adds one content scan's findings, redacted, up to the cap.
func (r *run) addFindings(s string, e *schema.ShapeScan) {
	sh := &r.res.Shape
	fs, n, other := r.relevant[s].all(), r.relevantN[s], r.other[s].all()
	if s == ScanHandles {
		fs, n = r.res.Handles, len(r.res.Handles)
	}
	all := n + len(other)
	for _, f := range append(fs, other...) {
		if countScan(sh.Findings, s) >= r.capN {
			break
		}
		f.Value, f.Detail = secret.String(f.Value), secret.String(f.Detail)
		sh.Findings = append(sh.Findings, f)
	}
	if all > r.capN || r.counts[s] > countScan(sh.Findings, s) {
		e.Capped = true
	}
}

func countScan(fs []schema.ShapeFinding, scan string) int {
	n := 0
	for _, f := range fs {
		if f.Scan == scan {
			n++
		}
	}
	return n
}
