package bundle

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rtch/rtch/pkg/packet"
	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
)

// MapEntry is one line of the codebase map: a place in the tree an rtch packet
// pointed at, with the command that re-reads it. Only pointers enter the
// bundle, never the hydrated text.
type MapEntry struct {
	// Path is the file, relative to the zone root.
	Path string
	// Range is "L<s>-L<e>", empty for a surface without a chunk.
	Range string
	// Why is the chunk's why_included or the surface's why_selected.
	Why string
	// ReEntry is the command that reads the range again.
	ReEntry string
	// Rank orders the map (packet rank, else stream order); lower is better.
	Rank int
}

// CodebaseMap collects the map from the rtch records of a stream: every
// rtch.chunk, and the selected_surfaces (and hydrated_chunks) of an
// rtch.packet. A packet's ranks order the entries; chunks of unranked files
// follow in stream order. Duplicate ranges are kept once.
type CodebaseMap struct {
	chunks   []schema.Chunk
	surfaces []schema.SelectedSurface
}

// Add reads one record; kinds other than rtch.chunk and rtch.packet are ignored.
func (m *CodebaseMap) Add(l record.Line) error {
	switch l.Kind {
	case schema.KindChunk:
		var c schema.Chunk
		if err := l.Decode(&c); err != nil {
			return err
		}
		m.chunks = append(m.chunks, c)
	case schema.KindPacket:
		var p schema.Packet
		if err := l.Decode(&p); err != nil {
			return err
		}
		m.surfaces = append(m.surfaces, p.SelectedSurfaces...)
		m.chunks = append(m.chunks, packet.Chunks(&p)...)
	}
	return nil
}

// Entries returns the map, best first.
func (m *CodebaseMap) Entries() []MapEntry {
	rank := map[string]int{}
	why := map[string]string{}
	for _, s := range m.surfaces {
		if r, ok := rank[s.Path]; !ok || s.Rank < r {
			rank[s.Path] = s.Rank
			why[s.Path] = strings.Join(s.WhySelected, "; ")
		}
	}
	seen := map[string]bool{}
	var out []MapEntry
	for i, c := range m.chunks {
		key := c.Path + ":" + c.LineRange
		if seen[key] || c.Path == "" {
			continue
		}
		seen[key] = true
		r, ok := rank[c.Path]
		if !ok {
			r = 1<<20 + i
		}
		reentry := c.NextReEntryCommand
		if reentry == "" && c.LineRange != "" {
			reentry = fmt.Sprintf("rtch-hydrate --reenter %s:%s", c.Path, c.LineRange)
		}
		out = append(out, MapEntry{Path: c.Path, Range: c.LineRange, Why: c.WhyIncluded, ReEntry: reentry, Rank: r})
		seen[c.Path] = true
	}
	for _, s := range m.surfaces {
		if seen[s.Path] {
			continue
		}
		seen[s.Path] = true
		out = append(out, MapEntry{Path: s.Path, Why: why[s.Path], Rank: rank[s.Path]})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Rank < out[j].Rank })
	return out
}

// render is the entry's map line. Paths and reasons come from the tree, so they
// are flattened to one line and escaped like operator text (see oneLine); the
// path and the re-entry command quoting it are in the record spelling, so
// their escapes are decoded first (onePath) and each is written once.
func (e MapEntry) render() string {
	var b strings.Builder
	b.WriteString("- `" + onePath(e.Path))
	if e.Range != "" {
		b.WriteString(":" + oneLine(e.Range))
	}
	b.WriteString("`")
	if e.Why != "" {
		b.WriteString(" — " + oneLine(e.Why))
	}
	if e.ReEntry != "" {
		b.WriteString(" — re-read: `" + onePath(e.ReEntry) + "`")
	}
	return b.String()
}
