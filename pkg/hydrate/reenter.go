package hydrate

import (
	"fmt"

	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
)

// MaxReentryLines bounds one re-entry: a chunk is a bounded read, never a dump.
const MaxReentryLines = 2000

// ReenterOptions configure a re-entry.
type ReenterOptions struct {
	// Root is the absolute zone root the path is relative to.
	Root string
	// Window is the half-width used for PATH:<line>.
	Window int
	// MaxFileSize is the largest file read (bytes).
	MaxFileSize int64
	// MaxLineRunes caps one line of chunk text.
	MaxLineRunes int
	// Protect checks and redacts the text; nil leaves it as read.
	Protect Protector
	// Commit is recorded in the chunk ("" outside git).
	Commit string
}

// Reenter reads one range again as an rtch.chunk. Its sha256 and chunk_id equal
// those of the hydrated chunk it re-enters as long as the file is unchanged.
func Reenter(r Range, o ReenterOptions) (schema.Chunk, error) {
	rel, err := CleanRel(o.Root, r.Path)
	if err != nil {
		return schema.Chunk{}, err
	}
	f, err := ReadFile(o.Root, rel, o.MaxFileSize)
	if err != nil {
		return schema.Chunk{}, err
	}
	n := f.Lines()
	s, e, target := r.Start, r.End, r.Start
	if r.IsWindow() {
		w := o.Window
		if w <= 0 {
			w = 20
		}
		s, e, target = max(1, r.Line-w), r.Line+w, r.Line
	}
	if s > n {
		return schema.Chunk{}, fmt.Errorf("%s has %d lines; L%d is past the end", rel, n, s)
	}
	if target > n {
		return schema.Chunk{}, fmt.Errorf("%s has %d lines; L%d is past the end", rel, n, target)
	}
	clipped := e > n
	e = min(e, n)
	if e-s+1 > MaxReentryLines {
		return schema.Chunk{}, fmt.Errorf("%s: %d lines asked for; a re-entry reads at most %d (split the range)", rel, e-s+1, MaxReentryLines)
	}
	c := MakeChunk(f, s, e, o.MaxLineRunes, o.Protect)
	c.Envelope = record.Env(schema.KindChunk, schema.V1, f.Path, c.LineRange, f.SHA256)
	c.ChunkID = c.ID
	c.TargetLine = target
	c.Commit = o.Commit
	c.WhyIncluded = "re-entry requested: " + r.String()
	c.TermOrShape = "re_entry"
	c.ConfidenceClass = "hit"
	c.Limitation = fmt.Sprintf("re-entry read lines %d-%d of %d as asked; no probe vouches for them", s, e, n)
	if clipped {
		c.Limitation += fmt.Sprintf("; the range asked for ran past the end of the file (%d lines)", n)
	}
	return c, nil
}
