package evalscore

import (
	"sort"
)

// Ks are the cut-offs of acc@k and hit@k.
var Ks = []int{1, 3, 5, 10}

// RankScore is how one ranked list of files scores against a task's gold files.
type RankScore struct {
	// Acc[i] is true when every gold file is in the top Ks[i].
	Acc [4]bool `json:"acc"`
	// Hit[i] is true when at least one gold file is in the top Ks[i].
	Hit [4]bool `json:"hit"`
	// RR is the reciprocal rank of the first gold file, 0 when none is ranked.
	RR float64 `json:"rr"`
	// FirstGold is the 1-based rank of the first gold file, 0 when none is ranked.
	FirstGold int `json:"first_gold"`
	// Ranked is how many files the list held.
	Ranked int `json:"ranked"`
}

// ScoreRanking scores a ranked list of repository-relative paths (best first)
// against gold. Duplicate paths count at their first position only.
func ScoreRanking(ranked []string, gold []string) RankScore {
	goldSet := make(map[string]bool, len(gold))
	for _, g := range gold {
		goldSet[CleanPath(g)] = true
	}
	var s RankScore
	seen := map[string]bool{}
	found := 0
	rank := 0
	// worst is the rank at which the last gold file appeared (all found).
	worst := 0
	for _, p := range ranked {
		p = CleanPath(p)
		if seen[p] {
			continue
		}
		seen[p] = true
		rank++
		if !goldSet[p] {
			continue
		}
		found++
		if s.FirstGold == 0 {
			s.FirstGold = rank
			s.RR = 1 / float64(rank)
		}
		if found == len(goldSet) {
			worst = rank
		}
	}
	s.Ranked = rank
	for i, k := range Ks {
		s.Hit[i] = s.FirstGold > 0 && s.FirstGold <= k
		s.Acc[i] = worst > 0 && worst <= k
	}
	return s
}

// Span is a hydrated line range of one file, 1-based and inclusive.
type Span struct {
	// Path is the repository-relative file.
	Path string
	// Start and End are the first and last line.
	Start, End int
}

// PacketScore is what the packet's hydrated chunks hold of the gold answer.
type PacketScore struct {
	// FileRecall is the fraction of gold files with at least one hydrated chunk.
	FileRecall float64 `json:"file_recall"`
	// HasGold is true when any gold file has a hydrated chunk.
	HasGold bool `json:"has_gold"`
	// LineRecall is the fraction of gold lines (over all gold files) inside a
	// hydrated chunk. A task whose gold files list no lines has LineRecall equal
	// to FileRecall, so the number is never undefined.
	LineRecall float64 `json:"line_recall"`
	// GoldLines is the number of distinct gold lines; CoveredLines how many of
	// them a chunk holds.
	GoldLines    int `json:"gold_lines"`
	CoveredLines int `json:"covered_lines"`
}

// ScorePacket measures gold-file and gold-line recall of hydrated spans.
func ScorePacket(spans []Span, gold []string, goldLines map[string][][2]int) PacketScore {
	byPath := map[string][]Span{}
	for _, sp := range spans {
		p := CleanPath(sp.Path)
		byPath[p] = append(byPath[p], sp)
	}
	var ps PacketScore
	filesHit := 0
	for _, g := range gold {
		g = CleanPath(g)
		chunks := byPath[g]
		if len(chunks) > 0 {
			filesHit++
		}
		for _, l := range LineSet(goldLines[g]) {
			ps.GoldLines++
			for _, c := range chunks {
				if l >= c.Start && l <= c.End {
					ps.CoveredLines++
					break
				}
			}
		}
	}
	if len(gold) > 0 {
		ps.FileRecall = float64(filesHit) / float64(len(gold))
	}
	ps.HasGold = filesHit > 0
	if ps.GoldLines > 0 {
		ps.LineRecall = float64(ps.CoveredLines) / float64(ps.GoldLines)
	} else {
		ps.LineRecall = ps.FileRecall
	}
	return ps
}

// LineSet expands ranges into sorted distinct line numbers, as the gold
// lines are counted.
func LineSet(ranges [][2]int) []int {
	set := map[int]bool{}
	for _, r := range ranges {
		lo, hi := r[0], r[1]
		if hi < lo {
			lo, hi = hi, lo
		}
		// A pure insertion at the top of a file is recorded as line 0; the
		// nearest real line is 1.
		lo, hi = max(lo, 1), max(hi, 1)
		for l := lo; l <= hi; l++ {
			set[l] = true
		}
	}
	out := make([]int, 0, len(set))
	for l := range set {
		out = append(out, l)
	}
	sort.Ints(out)
	return out
}
