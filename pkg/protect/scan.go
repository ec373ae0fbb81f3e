package protect

import (
	"regexp"
	"sort"
	"strings"
	"sync"
)

// scanReach is how far (bytes) a match may extend before or after the
// anchor it contains; every rule's match is far shorter.
const scanReach = 512

// scanner runs rules over windows of a view under one byte budget.
type scanner struct {
	budget   int  // regexp input bytes left for this Probe call
	exceeded bool // a window was skipped for lack of budget
	views    []*indexed
}

// index returns v with its anchor positions, computed once per view. The
// views are few (flat, lines, words) and compared as strings, which is a
// pointer comparison for the same string: no hashing of the whole text.
func (sc *scanner) index(v string) *indexed {
	for _, ix := range sc.views {
		if ix.s == v {
			return ix
		}
	}
	ix := indexView(v)
	sc.views = append(sc.views, ix)
	return ix
}

// scanBudget bounds the regexp input of one Probe call: 256 KiB plus half
// the text's length. Ordinary text, even large, spends a small part of it
// (windows exist only where all of a rule's anchor sets meet); text so dense
// with trigger words that checking it would cost more is reported as
// probe_limit, which quarantines: the probe fails closed and its running time
// stays linear with a small constant.
func scanBudget(n int) int { return 256<<10 + n/2 }

// scan reports the non-overlapping matches of re in v that contain one of
// anchors, running re only on windows of ±scanReach around anchor hits
// (overlapping windows merged) that also hold a hit of every set in with.
// Windows are widened to the nearest line break (at most 256 bytes) so \b
// and line anchors see their true context; a match touching a window edge cut
// inside a line is discarded.
func (sc *scanner) scan(re *regexp.Regexp, v string, anchors []string, with [][]string, fn func([]int)) {
	hits := sc.index(v).positions(anchors)
	if len(hits) == 0 {
		return
	}
	lastEnd := 0
	for i := 0; i < len(hits); {
		lo, hi := hits[i]-scanReach, hits[i]+scanReach
		j := i + 1
		for j < len(hits) && hits[j]-scanReach <= hi {
			hi = hits[j] + scanReach
			j++
		}
		i = j
		lo, hi = max(lo, 0), min(hi, len(v))
		if !allWithin(v[lo:hi], with) {
			continue
		}
		for k := 0; k < 256 && lo > 0 && v[lo-1] != '\n'; k++ {
			lo--
		}
		for k := 0; k < 256 && hi < len(v) && v[hi] != '\n'; k++ {
			hi++
		}
		last := false
		if hi-lo > sc.budget {
			// Match what the budget allows, so the first matches of a flood
			// are still reported, then stop.
			hi, last = lo+sc.budget, true
			sc.exceeded = true
		}
		sc.budget -= hi - lo
		for _, m := range re.FindAllStringIndex(v[lo:hi], -1) {
			a, b := m[0]+lo, m[1]+lo
			if a < lastEnd || (a == lo && lo > 0 && v[lo-1] != '\n') || (b == hi && hi < len(v) && v[hi] != '\n') {
				continue
			}
			fn([]int{a, b})
			lastEnd = b
		}
		if last {
			return
		}
	}
}

// startReach bounds a match of a starts rule (from its anchor).
const startReach = 256

// anchoredCache holds ^(?:re) for the starts rules.
var anchoredCache sync.Map

func anchoredRE(re *regexp.Regexp) *regexp.Regexp {
	if a, ok := anchoredCache.Load(re); ok {
		return a.(*regexp.Regexp)
	}
	a := regexp.MustCompile(`^(?:` + re.String() + `)`)
	anchoredCache.Store(re, a)
	return a
}

// scanStarts reports matches of the anchored regexp re tried at each anchor
// hit that starts a word and has a hit of every set in with within
// startReach bytes after it. Each attempt is charged startReach bytes (at
// most) of the budget.
func (sc *scanner) scanStarts(re *regexp.Regexp, v string, anchors []string, with [][]string, fn func([]int)) {
	ix := sc.index(v)
	hits := ix.positions(anchors)
	if len(hits) == 0 {
		return
	}
	co := make([][]int, len(with))
	for k, set := range with {
		if co[k] = ix.positions(set); len(co[k]) == 0 {
			return
		}
	}
	lastEnd := 0
next:
	for _, h := range hits {
		if h < lastEnd || (h > 0 && isWordByte(v[h-1])) {
			continue
		}
		end := min(h+startReach, len(v))
		for _, c := range co {
			k := sort.SearchInts(c, h)
			if k == len(c) || c[k] >= end {
				continue next
			}
		}
		if end-h > sc.budget {
			sc.exceeded = true
			return
		}
		sc.budget -= end - h
		if m := re.FindStringIndex(v[h:end]); m != nil {
			if m[1] == end-h && end < len(v) && isWordByte(v[end]) {
				continue // cut inside a word at the reach limit
			}
			fn([]int{h, h + m[1]})
			lastEnd = h + m[1]
		}
	}
}

func isWordByte(c byte) bool { return isAlnum(c) || c == '_' || c >= 0x80 }

// allWithin reports whether w holds an anchor of every set.
func allWithin(w string, sets [][]string) bool {
next:
	for _, set := range sets {
		for _, a := range set {
			if strings.Contains(w, a) {
				continue next
			}
		}
		return false
	}
	return true
}
