package scout

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/secret"
)

// merge folds the per-file outcomes together in path order.
func (r *run) merge() {
	res, sh := r.res, &r.res.Shape
	var docs int
	var totalBytes int64
	r.relevant = map[string][]schema.ShapeFinding{}
	r.other = map[string][]schema.ShapeFinding{}
	r.touched = map[string]int{}
	r.counts = map[string]int{}
	handleVals := map[string]bool{}
	for i, f := range r.files {
		out := r.outs[i]
		if out == nil {
			continue
		}
		docs++
		res.Paths = append(res.Paths, f.Path)
		totalBytes += int64(out.sizeBytes)
		for _, t := range out.termHits {
			res.Terms[r.terms[t]].DF++
		}
		r.countGroups(out.termHits)
		for _, tc := range out.confirms {
			addConfirm(res.Terms[r.terms[tc.term]], tc.c)
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
			r.relevant[s] = append(r.relevant[s], fs...)
		}
		for s, fs := range out.findings {
			if len(r.other[s]) < r.capN {
				r.other[s] = append(r.other[s], fs...)
			}
		}
		for _, h := range out.handles {
			handleVals[h.Value] = true
			if len(res.Handles) < r.capN {
				res.Handles = append(res.Handles, h)
			}
		}
	}
	res.HandleCount = len(handleVals)
	sh.FilesWalked = docs
	sh.Corpus.Docs = docs
	if docs > 0 {
		sh.Corpus.AvgLen = float64(totalBytes) / 4 / float64(docs)
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
	fs := r.relevant[s]
	if s == ScanHandles {
		fs = r.res.Handles
	}
	all := len(fs) + len(r.other[s])
	for _, f := range append(fs, r.other[s]...) {
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
