package packet

import (
	"math"
	"sort"

	"github.com/rtch/rtch/pkg/mdsafe"
	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
)

// What a summary lists of each part of the packet; the rest is counted.
const (
	summarySurfaces  = 10
	summaryFirst     = 3
	summaryQuestions = 3
	summaryNext      = 3
	summaryRunes     = 200
)

// Summarize is the packet by reference (rtch.packet_summary): its size
// follows the chunks it holds, never the tree's size. withText puts each
// chunk's text in it (the JSON a consumer reads instead of the brief).
func Summarize(p *schema.Packet, ptr Pointers, withText bool) schema.PacketSummary {
	s := schema.PacketSummary{
		Envelope:       record.Env(schema.KindPacketSummary, schema.V1, p.PacketID),
		PacketID:       p.PacketID,
		GeneratedAt:    p.GeneratedAt,
		HaltingReason:  p.HaltingReason,
		Verdict:        schema.Verdict{Satisfied: p.Verdict.Satisfied, By: firstCut(p.Verdict.By, summaryFirst), Missing: firstCut(p.Verdict.Missing, summaryFirst), Next: p.Verdict.Next},
		Gate:           p.EffectiveRecordProjection.Status,
		Budget:         p.Budget,
		Surfaces:       []schema.SummarySurface{},
		SurfacesTotal:  len(p.SelectedSurfaces),
		Chunks:         []schema.SummaryChunk{},
		QuestionsTotal: len(p.UnresolvedQuestions),
		NextTotal:      len(p.NextLegalProbes),
		More:           ptr.fullPacket(p.PacketID),
	}
	if g := p.ZoneDescriptor.Git; g != nil {
		s.Commit = g.Head
	}
	for _, ss := range p.SelectedSurfaces[:min(len(p.SelectedSurfaces), summarySurfaces)] {
		s.Surfaces = append(s.Surfaces, schema.SummarySurface{Rank: ss.Rank, Path: ss.Path, Score: math.Round(ss.Score*100) / 100, Chunks: len(ss.ChunkIDs)})
	}
	for _, c := range p.HydratedChunks {
		sc := schema.SummaryChunk{Ref: c.Path + ":" + c.LineRange, Rank: c.Rank, Class: c.ConfidenceClass, SHA256: short(c.SHA256), Flags: c.Flags}
		if len(sc.Flags) == 0 {
			sc.Flags = nil
		}
		if withText {
			sc.Text = c.Text
		}
		s.Chunks = append(s.Chunks, sc)
	}
	skips := make([][2]string, len(p.SkippedSurfaces))
	for i, sk := range p.SkippedSurfaces {
		skips[i] = [2]string{sk.Stage + "/" + sk.Reason, sk.Path}
	}
	s.Skipped = groups(skips)
	var cautions [][2]string
	for _, c := range p.CautionMap {
		place := c.Path
		if m := cautionLine.FindString(c.Note); m != "" {
			place += ":" + m[:len(m)-1]
		}
		cautions = append(cautions, [2]string{c.Flag, place})
	}
	s.Cautions = groups(cautions)
	s.Questions = firstCut(p.UnresolvedQuestions, summaryQuestions)
	s.Next = firstCut(p.NextLegalProbes, summaryNext)
	return s
}

// groups counts (key, place) pairs by key, largest group first, each with
// its first places.
func groups(items [][2]string) schema.SummaryGroups {
	g := schema.SummaryGroups{Total: len(items), Groups: []schema.SummaryGroup{}}
	at := map[string]int{}
	for _, it := range items {
		i, ok := at[it[0]]
		if !ok {
			i = len(g.Groups)
			at[it[0]] = i
			g.Groups = append(g.Groups, schema.SummaryGroup{Key: it[0], First: []string{}})
		}
		gr := &g.Groups[i]
		gr.Count++
		if len(gr.First) < summaryFirst {
			gr.First = append(gr.First, it[1])
		}
	}
	sort.SliceStable(g.Groups, func(i, j int) bool {
		if g.Groups[i].Count != g.Groups[j].Count {
			return g.Groups[i].Count > g.Groups[j].Count
		}
		return g.Groups[i].Key < g.Groups[j].Key
	})
	return g
}

// firstCut is the first n of list, each flattened to one line of at most
// summaryRunes.
func firstCut(list []string, n int) []string {
	out := []string{}
	for _, q := range list[:min(len(list), n)] {
		out = append(out, mdsafe.Cut(q, summaryRunes))
	}
	return out
}
