package index

import (
	"bufio"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"math"
	"os"
)

// A dictionary section is written by one of two builders, fed the rows of
// the new table in order as Save copies their entries (row), then asked to
// write the section (write). Neither holds the postings of the whole tree:
// a tree's postings are ten times its vocabulary and grow with it, so the
// build's memory would too (docs/decisions/index.md, "Memory").
type dictBuilder interface {
	// wants reports whether the row copied from oldRow (-1 for a new
	// entry) must be decoded and given to row.
	wants(oldRow int) bool
	// row adds the words of (of) the entry in row.
	row(row int32, fl *File)
	// write writes the section and returns its CRC-32C.
	write(w *countWriter) (uint32, error)
	close()
}

// chunkBytes bounds the posting lists a full build lays out in memory at a
// time.
var chunkBytes = 32 << 20

// fullBuilder builds a dictionary from every entry in two passes. The
// first, as the rows come, numbers the words in order of first appearance
// (the vocabulary and one counter per word are all it keeps in memory),
// sums the encoded size of each word's list and records each row's word
// numbers on a tape. The second lays the lists out a chunk of words at a
// time, replaying the tape once per chunk, and writes them in order.
type fullBuilder struct {
	of    textOf
	ids   map[string]int32
	text  []byte
	size  []uint64 // encoded bytes of each word's list
	last  []int32  // the row a word was last posted in
	seq   *tape    // per row: row, word count, word ids (uint32 each)
	ids32 []int32
	buf   []byte
}

func newFullBuilder(scratch func() (*os.File, func(), error), of textOf) *fullBuilder {
	return &fullBuilder{of: of, ids: map[string]int32{}, seq: newTape(scratch)}
}

func (b *fullBuilder) wants(int) bool { return true }

func (b *fullBuilder) row(row int32, fl *File) {
	ids := b.ids32[:0]
	eachWord(b.of(fl), func(w []byte) {
		id, ok := b.ids[string(w)]
		if !ok {
			id = int32(len(b.size))
			b.ids[string(w)] = id
			b.text = append(append(b.text, w...), '\n')
			b.size = append(b.size, 0)
			b.last = append(b.last, 0)
		}
		b.size[id] += uint64(uvarintLen(uint64(row-b.last[id])) + uvarintLen(uint64(len(ids))))
		b.last[id] = row
		ids = append(ids, id)
	})
	b.ids32 = ids
	if len(ids) == 0 {
		return
	}
	out := binary.LittleEndian.AppendUint32(b.buf[:0], uint32(row))
	out = binary.LittleEndian.AppendUint32(out, uint32(len(ids)))
	for _, id := range ids {
		out = binary.LittleEndian.AppendUint32(out, uint32(id))
	}
	b.buf = out
	b.seq.Write(out)
}

func uvarintLen(x uint64) int {
	n := 1
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}

var errDictTooLarge = errors.New("a dictionary's posting lists pass 4 GiB")

func (b *fullBuilder) write(w *countWriter) (uint32, error) {
	if b.seq.err != nil {
		return 0, b.seq.err
	}
	n := len(b.size)
	ends := make([]byte, 0, 4*n)
	start := make([]uint64, n+1)
	for id, s := range b.size {
		start[id+1] = start[id] + s
		if start[id+1] > math.MaxUint32 {
			return 0, errDictTooLarge
		}
		ends = binary.LittleEndian.AppendUint32(ends, uint32(start[id+1]))
	}
	head := binary.LittleEndian.AppendUint32(nil, uint32(n))
	head = binary.LittleEndian.AppendUint32(head, uint32(len(b.text)))
	crc := w.part(0, head)
	crc = w.part(crc, b.text)
	crc = w.part(crc, ends)
	b.text, ends = nil, nil
	var buf []byte
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && start[hi+1]-start[lo] <= uint64(chunkBytes) {
			hi++
		}
		total := int(start[hi] - start[lo])
		if cap(buf) < total {
			buf = make([]byte, total)
		}
		buf = buf[:total]
		if err := b.layOut(buf, start, lo, hi); err != nil {
			return 0, err
		}
		crc = w.part(crc, buf)
		lo = hi
	}
	return crc, w.err
}

// layOut encodes the lists of words lo to hi-1 into buf (their bytes, in
// order) from the tape.
func (b *fullBuilder) layOut(buf []byte, start []uint64, lo, hi int) error {
	cur := make([]uint64, hi-lo)
	for i := range cur {
		cur[i] = start[lo+i] - start[lo]
		b.last[lo+i] = 0
	}
	r := bufio.NewReaderSize(b.seq.reader(), 1<<20)
	var word [8]byte
	for {
		if _, err := io.ReadFull(r, word[:]); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
		row := int32(binary.LittleEndian.Uint32(word[:]))
		cnt := int(binary.LittleEndian.Uint32(word[4:]))
		for k := range cnt {
			if _, err := io.ReadFull(r, word[:4]); err != nil {
				return err
			}
			id := int(binary.LittleEndian.Uint32(word[:4]))
			if id < lo || id >= hi {
				continue
			}
			c := cur[id-lo]
			c += uint64(binary.PutUvarint(buf[c:], uint64(row-b.last[id])))
			c += uint64(binary.PutUvarint(buf[c:], uint64(k)))
			cur[id-lo] = c
			b.last[id] = row
		}
	}
}

func (b *fullBuilder) close() { b.seq.Close() }

// part writes one part of a section and returns the section's CRC-32C so
// far.
func (c *countWriter) part(crc uint32, b []byte) uint32 {
	c.write(b)
	return crc32.Update(crc, castagnoli, b)
}
