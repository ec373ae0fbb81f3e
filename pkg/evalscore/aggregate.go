package evalscore

import (
	"math"
	"sort"
)

// Outcome is one system's result on one task, the unit Summarize aggregates.
type Outcome struct {
	// Rank is the ranking score; ignored when Failed.
	Rank RankScore
	// Packet is the hydrated-chunk score; ignored unless HasPacket.
	Packet PacketScore
	// HasPacket is true for systems that hydrate (the pipeline), false for the
	// BM25 baseline, which only ranks.
	HasPacket bool
	// Tokens is the packet's est_tokens (0 for the baseline).
	Tokens int
	// Brief is the score of the md brief as written; ignored unless
	// HasBrief. BriefTokens is its whole size, ceil(chars/4).
	Brief       PacketScore
	BriefTokens int
	HasBrief    bool
	// Seconds is the wall time the system spent on the task.
	Seconds float64
	// Failed is true when the system produced no ranking for the task.
	Failed bool
}

// Summary aggregates outcomes of one system over a group of tasks. Rates are
// percentages over all tasks of the group, a failed task counting as a miss
// everywhere, so a failure can only lower the numbers, never hide.
type Summary struct {
	// Tasks is the number of tasks in the group; Failed how many produced no
	// ranking.
	Tasks  int `json:"tasks"`
	Failed int `json:"failed"`
	// Acc and Hit are acc@k and hit@k in percent, for k in Ks.
	Acc [4]float64 `json:"acc"`
	Hit [4]float64 `json:"hit"`
	// MRR is the mean reciprocal rank of the first gold file, in [0,1].
	MRR float64 `json:"mrr"`
	// FileRecall and LineRecall are mean gold-file and gold-line recall inside
	// the packet, in percent; PacketHasGold is the percentage of tasks whose
	// packet holds a chunk of at least one gold file. All three are null for a
	// system that does not hydrate.
	FileRecall    *float64 `json:"file_recall,omitempty"`
	LineRecall    *float64 `json:"line_recall,omitempty"`
	PacketHasGold *float64 `json:"packet_has_gold,omitempty"`
	// MeanTokens is the mean est_tokens of the packets of successful tasks.
	MeanTokens float64 `json:"mean_tokens"`
	// BriefLineRecall is the mean gold-line recall inside the md brief as
	// written, in percent; MeanBriefTokens and MaxBriefTokens its whole
	// size (ceil(chars/4)). Null or zero for a system without a brief.
	BriefLineRecall *float64 `json:"brief_line_recall,omitempty"`
	MeanBriefTokens float64  `json:"mean_brief_tokens,omitempty"`
	MaxBriefTokens  int      `json:"max_brief_tokens,omitempty"`
	// MeanSeconds, MedianSeconds and MaxSeconds are wall time per task over
	// the tasks that did not fail.
	MeanSeconds   float64 `json:"mean_seconds"`
	MedianSeconds float64 `json:"median_seconds"`
	MaxSeconds    float64 `json:"max_seconds"`
}

// Summarize aggregates outcomes into a Summary.
func Summarize(outs []Outcome) Summary {
	s := Summary{Tasks: len(outs)}
	if len(outs) == 0 {
		return s
	}
	var fileR, lineR, hasGold, tokens, briefR, briefT float64
	var hydrating, briefs int
	var secs []float64
	for _, o := range outs {
		if o.Failed {
			s.Failed++
			if o.HasPacket {
				hydrating++
			}
			continue
		}
		for i := range Ks {
			if o.Rank.Acc[i] {
				s.Acc[i]++
			}
			if o.Rank.Hit[i] {
				s.Hit[i]++
			}
		}
		s.MRR += o.Rank.RR
		secs = append(secs, o.Seconds)
		tokens += float64(o.Tokens)
		if o.HasPacket {
			hydrating++
			fileR += o.Packet.FileRecall
			lineR += o.Packet.LineRecall
			if o.Packet.HasGold {
				hasGold++
			}
		}
		if o.HasBrief {
			briefs++
			briefR += o.Brief.LineRecall
			briefT += float64(o.BriefTokens)
			s.MaxBriefTokens = max(s.MaxBriefTokens, o.BriefTokens)
		}
	}
	n := float64(len(outs))
	for i := range Ks {
		s.Acc[i] = round1(100 * s.Acc[i] / n)
		s.Hit[i] = round1(100 * s.Hit[i] / n)
	}
	s.MRR = math.Round(1000*s.MRR/n) / 1000
	if hydrating > 0 {
		h := float64(hydrating)
		fr, lr, hg := round1(100*fileR/h), round1(100*lineR/h), round1(100*hasGold/h)
		s.FileRecall, s.LineRecall, s.PacketHasGold = &fr, &lr, &hg
	}
	if briefs > 0 {
		// A failed task has no brief: like the packet recall, the brief's
		// recall is over every task that hydrates, a failure counting 0.
		br := round1(100 * briefR / float64(hydrating))
		s.BriefLineRecall = &br
		s.MeanBriefTokens = round1(briefT / float64(briefs))
	}
	if len(secs) > 0 {
		s.MeanTokens = round1(tokens / float64(len(secs)))
		sort.Float64s(secs)
		var sum float64
		for _, x := range secs {
			sum += x
		}
		s.MeanSeconds = round3(sum / float64(len(secs)))
		s.MedianSeconds = round3(median(secs))
		s.MaxSeconds = round3(secs[len(secs)-1])
	}
	return s
}

func median(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

func round1(x float64) float64 { return math.Round(10*x) / 10 }
func round3(x float64) float64 { return math.Round(1000*x) / 1000 }
