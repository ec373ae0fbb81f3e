package packet

import (
	"fmt"
	"slices"

	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/tokens"
)

// Measures name what a packet's budget.est_tokens counts.
const (
	// MeasureBrief: the whole md brief, header to last line.
	MeasureBrief = "md_brief"
	// MeasureChunks: the hydrated_chunks records as the format writes them
	// (chunk text plus each chunk's own fields).
	MeasureChunks = "chunk_records"
)

// Assembled is a packet fitted to its budget in one output format.
type Assembled struct {
	// Packet is the packet; its budget states the measure of what is written.
	Packet *schema.Packet
	// Handoff is the target set, when asked for.
	Handoff *schema.Handoff
	// Brief is the md brief (format md only).
	Brief string
}

// Assemble builds the packet and fits it to its budget as format writes it:
// the md brief whole (md), or the hydrated_chunks records (ndjson, json,
// yaml). While it does not fit, the brief's frame is shortened (views), then
// chunks are left out (leaveOutNext: a surface's further windows, last read
// first, before any surface's first look) and the packet is built again from
// the lane without them, so the verdict, questions and cautions describe what
// is delivered; each chunk left out is a packet skip with reason budget. A
// budget smaller than the smallest frame is an error. handoff asks for the
// target set (it is also implied by expected_output
// target_set_for_consolidate).
func Assemble(in *Input, o Options, format string, handoff bool) (*Assembled, error) {
	lane := *in
	lane.Chunks = append([]schema.Chunk(nil), in.Chunks...)
	lane.Skips = append([]schema.Skip(nil), in.Skips...)
	vi := 0
	notes := NotesKept
	for {
		p, err := Build(&lane, o)
		if err != nil {
			return nil, err
		}
		writeChunks(p, notes)
		a := &Assembled{Packet: p}
		if handoff || p.Intake.ExpectedOutput == "target_set_for_consolidate" {
			h := Handoff(p, o.Persisted)
			a.Handoff = &h
		}
		size := 0
		if format == "md" {
			a.Brief, size = renderMeasured(p, a.Handoff, views[vi], lookOf(o))
			p.Budget.Measure = MeasureBrief
		} else {
			if size, err = chunkRecords(p.ChunkForm, p.ChunkRecords, format, o.Count); err != nil {
				return nil, err
			}
			p.Budget.Measure = MeasureChunks
		}
		p.Budget.EstTokens, p.Budget.Tokenizer = size, o.Count.Name
		if p.Budget.Tokenizer == "" {
			p.Budget.Tokenizer = tokens.Chars4.Name
		}
		if size <= p.Budget.Cap {
			return a, nil
		}
		switch {
		case format == "md" && vi == 0:
			vi = 1 // a shorter frame before any chunk is left out
		case format != "md" && notes == NotesKept && len(lane.Chunks) > 0:
			notes = NotesLeftOut // the notes before any chunk's code
		case len(lane.Chunks) > 0:
			// Leave out as many chunks as the excess asks for (at least
			// one), priced as the format writes them; the next round
			// measures again.
			for excess := size - p.Budget.Cap; excess > 0 && len(lane.Chunks) > 0; {
				i := leaveOutNext(lane.Chunks)
				c := lane.Chunks[i]
				excess -= chunkCost(c, format, notes, lookOf(o))
				lane.Skips = append(lane.Skips, leftOut(c, format, p.Budget.Cap))
				lane.Chunks = slices.Delete(lane.Chunks, i, i+1)
			}
		case format == "md" && vi < len(views)-1:
			vi++
		default:
			return nil, fmt.Errorf("the %d-token budget is smaller than the smallest %s packet (%d tokens with no chunk)", p.Budget.Cap, format, size)
		}
	}
}

// leaveOutNext picks the chunk to leave out of cs (in the order read): the
// last read of those whose surface holds another chunk, so every surface keeps
// its first look while any surface has more than one; then the last read.
func leaveOutNext(cs []schema.Chunk) int {
	n := map[string]int{}
	for _, c := range cs {
		n[c.Path]++
	}
	for i := len(cs) - 1; i >= 0; i-- {
		if n[cs[i].Path] > 1 {
			return i
		}
	}
	return len(cs) - 1
}

// leftOut is the skip of a chunk the packet leaves out to fit its budget.
func leftOut(c schema.Chunk, format string, budget int) schema.Skip {
	what := "the md brief"
	if format != "md" {
		what = "the " + format + " packet's chunk records"
	}
	detail := fmt.Sprintf("chunk %s %s (rank %d, %d tokens of text) left out so that %s fit the %d-token budget; re-enter: %s", c.ChunkID, c.LineRange, c.Rank, c.EstTokens, what, budget, c.NextReEntryCommand)
	return schema.Skip{
		Envelope: record.Env(schema.KindSkip, schema.V1, Stage, c.Path, "budget", detail),
		Path:     c.Path, Reason: "budget", SizeBytes: int64(len(c.Text)), LineCount: c.EndLine - c.StartLine + 1, Stage: Stage, Detail: detail,
	}
}

// chunkRecords measures chunk_form and the hydrated_chunks list as format
// writes them: compact JSON (ndjson), JSON indented one level (json), or YAML
// (yaml). A nil form measures the records alone.
func chunkRecords(f *schema.ChunkForm, cs []schema.PacketChunk, format string, count tokens.Counter) (int, error) {
	if cs == nil {
		cs = []schema.PacketChunk{}
	}
	v := struct {
		Form   *schema.ChunkForm    `json:"chunk_form,omitempty"`
		Chunks []schema.PacketChunk `json:"hydrated_chunks"`
	}{f, cs}
	if format == "yaml" {
		y, err := YAML(v)
		if err != nil {
			return 0, err
		}
		return count.Of(string(y)), nil
	}
	if format == "json" {
		v.Chunks = []schema.PacketChunk{}
		j, err := indentWith(v, cs)
		if err != nil {
			return 0, err
		}
		return count.Of(string(j)), nil
	}
	j, err := record.Marshal(v)
	if err != nil {
		return 0, err
	}
	return count.Of(string(j)), nil
}

// chunkCost is what one chunk adds to what format writes.
func chunkCost(c schema.Chunk, format, notes string, lk look) int {
	count := lk.count
	if format == "md" {
		return count.Of(lk.chunk(c, ""))
	}
	n, err := chunkRecords(nil, []schema.PacketChunk{lean(c, notes == NotesKept)}, format, count)
	if err != nil {
		return count.Of(c.Text)
	}
	return n
}
