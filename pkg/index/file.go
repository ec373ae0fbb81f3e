package index

import (
	"encoding/binary"
	"errors"
	"sort"

	"github.com/rtch/rtch/pkg/walk"
)

// File is one file's facts as stored, decoded on demand. The layout, all
// integers uvarints: bytes, lines; the number of heading lines and each as
// a delta; the number of definition lines and each as (line delta, start,
// end - start); the number of phrase hits and each as (phrase, line, col,
// column of the word holding its end, end in that word<<1 | key); the
// shape's length and bytes; the length of the names' text and the text
// (each name followed by '\n'); the number of words, the
// length of the word text and the text (each word followed by '\n', so the
// matcher can run over it in one pass, every word bounded as in the file);
// then per word, in the same order, the end of its occurrence list (a
// 4-byte little-endian offset into the lists), and the lists: per
// occurrence the line delta and column<<1 | key.
type File struct {
	// Skip, when set, is the walk's verdict on the file (binary, an LFS
	// pointer), and nothing else is set.
	Skip *walk.Skip

	Summary
	// Text is the word text; ends and lists the occurrence lists.
	Text []byte
	// Names is the text of Facts.Names, each followed by '\n'.
	Names []byte
	// Seps are the file's distinct separator runs (Occ.Sep), each followed
	// by '\n', in order of first occurrence.
	Seps  []byte
	nword int
	entry int // the table row it was read from (Lookup), -1 otherwise
	ends  []byte
	lists []byte
}

var errShort = errors.New("truncated file entry")

// decodeFile reads a stored entry.
func decodeFile(b []byte) (*File, error) {
	d := decoder{b: b}
	f := &File{Summary: Summary{Bytes: int64(d.uv()), Lines: int(d.uv())}, entry: -1}
	nh := d.count()
	prev := int32(0)
	for range nh {
		prev += int32(d.uv())
		f.Heads = append(f.Heads, prev)
	}
	nd := d.count()
	prev = 0
	for range nd {
		prev += int32(d.uv())
		s := int32(d.uv())
		f.Defs = append(f.Defs, Def{prev, s, s + int32(d.uv())})
	}
	np := d.count()
	for range np {
		h := Hit{Term: int(d.uv()), Line: int32(d.uv()), Col: int32(d.uv()), word: int32(d.uv())}
		e := d.uv()
		h.end, h.Key = int32(e>>1), e&1 != 0
		f.Phrases = append(f.Phrases, h)
	}
	f.Shape = d.bytes(d.count())
	f.Names = d.bytes(d.count())
	f.Seps = d.bytes(d.count())
	f.nword = d.count()
	f.Text = d.bytes(d.count())
	f.ends = d.bytes(4 * f.nword)
	f.lists = d.rest()
	if f.nword > 0 && d.err == nil && int(binary.LittleEndian.Uint32(f.ends[4*f.nword-4:])) != len(f.lists) {
		d.err = errShort
	}
	if d.err != nil {
		return nil, d.err
	}
	return f, nil
}

// List is the encoded occurrence list of word k (DecodeOccs reads it).
func (f *File) List(k int) []byte { return listAt(f.ends, f.lists, k) }

// DecodeOccs appends the occurrences of an encoded list to buf.
func DecodeOccs(list []byte, buf []Occ) []Occ {
	od := decoder{b: list}
	line := int32(0)
	for len(od.b) > 0 && od.err == nil {
		line += int32(od.uv())
		v := od.uv()
		buf = append(buf, Occ{Line: line, Col: int32(v >> 1), Key: v&1 != 0, Sep: int32(od.uv())})
	}
	return buf
}

// encodeSkip is a skip verdict as stored.
func encodeSkip(s walk.Skip) []byte {
	b := binary.AppendUvarint(nil, uint64(s.SizeBytes))
	b = binary.AppendUvarint(b, uint64(len(s.Reason)))
	b = append(b, s.Reason...)
	return append(b, s.Detail...)
}

func decodeSkip(p string, b []byte) (*walk.Skip, error) {
	d := decoder{b: b}
	s := &walk.Skip{Path: p, SizeBytes: int64(d.uv())}
	s.Reason = string(d.bytes(d.count()))
	s.Detail = string(d.rest())
	return s, d.err
}

// decoder reads uvarints and byte runs, remembering the first error; after
// it nothing is left to read.
type decoder struct {
	b   []byte
	err error
}

// uv reads a uvarint. Most are one byte (a delta, a column, a length), read
// here without a call.
func (d *decoder) uv() uint64 {
	if len(d.b) > 0 && d.b[0] < 0x80 {
		v := d.b[0]
		d.b = d.b[1:]
		return uint64(v)
	}
	return d.uvLong()
}

func (d *decoder) uvLong() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) fail() { d.err, d.b = errShort, nil }

// count is a length that must fit in what is left.
func (d *decoder) count() int {
	v := d.uv()
	if v > uint64(len(d.b)) && d.err == nil {
		d.fail()
		return 0
	}
	return int(v)
}

func (d *decoder) bytes(n int) []byte {
	if d.err != nil || n > len(d.b) {
		d.fail()
		return nil
	}
	out := d.b[:n:n]
	d.b = d.b[n:]
	return out
}

func (d *decoder) rest() []byte {
	out := d.b
	d.b = nil
	return out
}

func (d *decoder) v() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

// Heading reports whether line ln is a stored heading line.
func (f *File) Heading(ln int32) bool {
	i := sort.Search(len(f.Heads), func(i int) bool { return f.Heads[i] >= ln })
	return i < len(f.Heads) && f.Heads[i] == ln
}

// InDef reports whether col (0-based) of line ln falls in the name part of
// a definition line, as fields.InDef says on the line's bytes.
func (f *File) InDef(ln, col int32) bool {
	i := sort.Search(len(f.Defs), func(i int) bool { return f.Defs[i].Line >= ln })
	return i < len(f.Defs) && f.Defs[i].Line == ln && col >= f.Defs[i].Start && col < f.Defs[i].End
}
