package probe

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/secret"
	"github.com/rtch/rtch/pkg/walk"
)

// pendingHit is a hit waiting for its line text.
type pendingHit struct {
	hit  schema.Hit
	file int
}

// collectHits gathers each executed probe's hits, its target files in rank
// order, capped, and counts every probe's hits.
func (r *run) collectHits() {
	order := r.rankOrder()
	in := make([]bool, len(r.evs))
	for pi, p := range r.probes {
		for _, fi := range r.targets[pi] {
			in[fi] = true
		}
		tf := make([]int, 0, len(r.targets[pi]))
		for _, fi := range order {
			if in[fi] {
				tf = append(tf, fi)
				in[fi] = false
			}
		}
		count := r.probeHits(p, tf)
		if p.Family != FamilyFileInventory {
			count = r.bodyCount(p, tf)
		}
		r.res.Probes[pi].HitCount = count
		p.HitCount = count
	}
}

// rankOrder is the files with evidence in rank order, those not ranked
// after, by path: each probe's targets are taken in this order.
func (r *run) rankOrder() []int {
	rankAt := r.rankAt()
	var order []int
	for fi, ev := range r.evs {
		if ev != nil {
			order = append(order, fi)
		}
	}
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(rankAt[a], rankAt[b]), cmp.Compare(r.evs[a].path, r.evs[b].path))
	})
	return order
}

// probeHits adds a probe's hits in its ranked target files to the pending
// hits and returns how many positions it matched.
func (r *run) probeHits(p *planned, tf []int) int {
	hitsCap := r.o.HitsPerProbe
	if hitsCap <= 0 {
		hitsCap = DefaultHitsPerProbe
	}
	ts := termSet(p, len(r.terms))
	count, emitted := 0, 0
	for k, fi := range tf {
		ev := r.evs[fi]
		fileStart := len(r.pend)
		for _, te := range ev.terms {
			if !ts[int(te.term)] {
				continue
			}
			ct := &r.terms[te.term]
			for _, ps := range te.pos[:te.npos] {
				if p.Family == FamilyFileInventory && ps.field != fPath {
					continue
				}
				if p.Family != FamilyFileInventory && ps.field == fPath {
					continue
				}
				count++
				if p.Status != statusExecuted || k >= r.o.Budget.MaxFilesPerProbe || emitted >= hitsCap {
					continue
				}
				emitted++
				h := schema.Hit{ProbeID: p.ProbeID, Path: ev.path, Line: int(ps.line), Col: int(ps.col), Term: ct.text,
					Field: fieldName(ps.field), ConfidenceClass: confidence(p, ct, ps.field, r.neighbors[ev.path])}
				if ps.field == fPath {
					h.LineText = ev.path
				}
				r.pend = append(r.pend, pendingHit{h, fi})
			}
		}
		sortFileHits(r.pend[fileStart:])
	}
	return count
}

// sortFileHits orders one file's hits by line, column and term.
func sortFileHits(fh []pendingHit) {
	slices.SortStableFunc(fh, func(a, b pendingHit) int {
		x, y := a.hit, b.hit
		switch {
		case x.Line != y.Line:
			return cmp.Compare(x.Line, y.Line)
		case x.Col != y.Col:
			return cmp.Compare(x.Col, y.Col)
		}
		return cmp.Compare(x.Term, y.Term)
	})
}

// bodyCount is a content probe's hit count: every occurrence of its terms
// in its target files.
func (r *run) bodyCount(p *planned, tf []int) int {
	ts := termSet(p, len(r.terms))
	count := 0
	for _, fi := range tf {
		for _, te := range r.evs[fi].terms {
			if ts[int(te.term)] {
				count += int(te.body + te.def + te.defl + te.head + te.key)
			}
		}
	}
	return count
}

// emitHits gives the pending hits their line text, redacted: the few files
// that carry emitted hits are read again.
func (r *run) emitHits(ctx context.Context) error {
	need := map[int]bool{}
	for _, pd := range r.pend {
		if pd.hit.Line > 0 {
			need[pd.file] = true
		}
	}
	texts := map[int][]string{}
	var needFiles []walk.File
	for fi := range need {
		needFiles = append(needFiles, r.files[fi])
	}
	sort.Slice(needFiles, func(i, j int) bool { return needFiles[i].Path < needFiles[j].Path })
	var tmu sync.Mutex
	if err := walk.Each(ctx, r.o.Walk, needFiles, func(f walk.File, data []byte) error {
		ls := walk.Lines(walk.DecodeText(data))
		tmu.Lock()
		texts[r.index[f.Path]] = ls
		tmu.Unlock()
		return nil
	}, nil); err != nil {
		return err
	}
	// a line is redacted once however many hits it holds: a minified
	// bundle's one line holds hundreds
	shown := map[[2]int]string{}
	for _, pd := range r.pend {
		h := pd.hit
		if h.Line > 0 {
			if ls := texts[pd.file]; h.Line <= len(ls) {
				at := [2]int{pd.file, h.Line}
				t, ok := shown[at]
				if !ok {
					t = capLine(redactedLine(ls, h.Line))
					shown[at] = t
				}
				h.LineText = t
			}
		}
		h.Envelope = record.Env(schema.KindHit, schema.V1, h.ProbeID, h.Path, fmt.Sprint(h.Line), fmt.Sprint(h.Col), h.Term)
		r.res.Hits = append(r.res.Hits, h)
	}
	return nil
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

// showReach is how much of a long line the redactor sees beside what a
// hit shows of it: far more than a token the shown bytes may hold.
const showReach = 8 << 10

// nearHit is the part of a line at offset d from a hit's line (d < 0
// above, 0 the hit's own) that can change what capLine shows of the hit's
// line once redacted: a line above ends next to it, the one below starts
// after it, and of the hit's line only the first lineTextCap bytes are
// shown. A minified bundle's 500 KB line so costs the redactor 8 KB.
func nearHit(l string, d int) string {
	switch {
	case d < 0 && len(l) > showReach:
		return l[len(l)-showReach:]
	case d == 0 && len(l) > lineTextCap+showReach:
		return l[:lineTextCap+showReach]
	case d > 0 && len(l) > showReach:
		return l[:showReach]
	}
	return l
}

// redactedLine returns line n (1-based) of ls with secrets masked. The
// redactor sees the three lines above and the one below too, so a hit
// inside a multi-line secret (a key's body lines, a value on the line after
// its key) is masked; redacting only these windows, not whole files, keeps
// the cost to the hits the probe emits.
func redactedLine(ls []string, n int) string {
	lo, hi := max(n-4, 0), min(n+1, len(ls))
	around := make([]string, 0, hi-lo)
	for i, l := range ls[lo:hi] {
		around = append(around, nearHit(l, lo+i+1-n))
	}
	red := strings.Split(secret.String(strings.Join(around, "\n")), "\n")
	if k := n - 1 - lo; k < len(red) {
		return red[k]
	}
	return ls[n-1]
}
