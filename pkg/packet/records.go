package packet

import (
	"fmt"

	"github.com/rtch/rtch/pkg/hydrate"
	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/tokens"
)

// Notes of chunk_form: whether the records carry why_included and limitation.
const (
	NotesKept    = "kept"
	NotesLeftOut = "left_out"
)

// The rules chunk_form states for a record that names no command.
const (
	reEntryRule = "rtch-hydrate --reenter PATH:L<start_line>-L<end_line>"
	sedRule     = "sed -n '<start_line>,<end_line>p' PATH"
)

// form is the chunk_form of chunks read at commit.
func form(commit, notes string) *schema.ChunkForm {
	return &schema.ChunkForm{Record: schema.KindChunk + " v1", ReEntry: reEntryRule, Sed: sedRule, Commit: commit, Notes: notes}
}

// writeChunks sets what the packet writes of its chunks: chunk_form and one
// lean record per chunk, with or without the notes.
func writeChunks(p *schema.Packet, notes string) {
	commit := ""
	if g := p.ZoneDescriptor.Git; g != nil {
		commit = g.Head
	}
	p.ChunkForm = form(commit, notes)
	p.ChunkRecords = make([]schema.PacketChunk, len(p.HydratedChunks))
	file := map[string]string{} // the file hash last written for each path
	for i, c := range p.HydratedChunks {
		p.ChunkRecords[i] = lean(c, notes == NotesKept)
		if h, ok := file[c.Path]; !ok || h != c.FileSHA256 {
			p.ChunkRecords[i].FileSHA256 = c.FileSHA256
			file[c.Path] = c.FileSHA256
		}
	}
}

// lean is c as the packet writes it: the commands only where the rules do
// not give them, the notes only when kept.
func lean(c schema.Chunk, notes bool) schema.PacketChunk {
	r := schema.PacketChunk{
		ChunkID: c.ChunkID, Path: c.Path, StartLine: c.StartLine, EndLine: c.EndLine, TargetLine: c.TargetLine,
		SHA256: c.SHA256, TermOrShape: c.TermOrShape, ConfidenceClass: c.ConfidenceClass,
		BaseReEntryCommand: c.BaseReEntryCommand, Text: c.Text, Flags: c.Flags, Rank: c.Rank, ProbeID: c.ProbeID,
	}
	if r.Flags == nil {
		r.Flags = []string{}
	}
	if notes {
		r.WhyIncluded, r.Limitation = c.WhyIncluded, c.Limitation
	}
	if c.NextReEntryCommand != plainReEntry(c.Path, c.StartLine, c.EndLine) {
		r.NextReEntryCommand = c.NextReEntryCommand
	}
	if c.SedCommand != plainSed(c.Path, c.StartLine, c.EndLine) {
		r.SedCommand = c.SedCommand
	}
	return r
}

// plainReEntry and plainSed are the commands as chunk_form's rules spell them.
func plainReEntry(path string, s, e int) string {
	return "rtch-hydrate --reenter " + path + ":" + hydrate.LineRange(s, e)
}

func plainSed(path string, s, e int) string { return fmt.Sprintf("sed -n '%d,%dp' %s", s, e, path) }

// Chunks are the whole rtch.chunk records of a decoded packet's chunk
// records: what chunk_form states once is given back to each.
func Chunks(p *schema.Packet) []schema.Chunk {
	f := p.ChunkForm
	if f == nil {
		f = &schema.ChunkForm{}
	}
	file := map[string]string{}
	out := make([]schema.Chunk, len(p.ChunkRecords))
	for i, r := range p.ChunkRecords {
		c := schema.Chunk{
			Envelope: record.Envelope{Kind: schema.KindChunk, V: schema.V1, ID: r.ChunkID},
			ChunkID:  r.ChunkID, Path: r.Path, LineRange: hydrate.LineRange(r.StartLine, r.EndLine),
			StartLine: r.StartLine, EndLine: r.EndLine, TargetLine: r.TargetLine,
			SHA256: r.SHA256, FileSHA256: r.FileSHA256, Commit: f.Commit, WhyIncluded: r.WhyIncluded,
			TermOrShape: r.TermOrShape, ConfidenceClass: r.ConfidenceClass, Limitation: r.Limitation,
			NextReEntryCommand: r.NextReEntryCommand, SedCommand: r.SedCommand, BaseReEntryCommand: r.BaseReEntryCommand,
			Text: r.Text, EstTokens: tokens.Estimate(r.Text), Flags: r.Flags, Rank: r.Rank, ProbeID: r.ProbeID,
		}
		if c.FileSHA256 == "" {
			c.FileSHA256 = file[r.Path]
		}
		file[r.Path] = c.FileSHA256
		if c.NextReEntryCommand == "" {
			c.NextReEntryCommand = plainReEntry(r.Path, r.StartLine, r.EndLine)
		}
		if c.SedCommand == "" {
			c.SedCommand = plainSed(r.Path, r.StartLine, r.EndLine)
		}
		out[i] = c
	}
	return out
}
