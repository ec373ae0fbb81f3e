// Package model is the learned half of the injection probe: a logistic
// regression over hashed word and character n-grams of a text's detection
// view (protect.ModelView), scored over windows of words so an instruction
// hidden in a long benign page is not diluted by it. The weights are trained
// by bench/trainprobe (make train-probe) from the public corpora listed in
// SOURCES.md and embedded from weights.bin; the same bytes come out of every
// retraining, because training is single-threaded, its order fixed and its
// arithmetic free of fused or platform-dependent operations.
package model

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
)

// Magic opens every model file.
const Magic = "rtchinj2"

// headerLen is the size of the fixed header that follows Magic.
const headerLen = len(Magic) + 2 + 2 + 4 + 4*3

// Model is a trained classifier.
type Model struct {
	// Bits is log2 of the number of hashed feature buckets.
	Bits uint8
	// MinFeatures is the fewest distinct features a window's summed
	// weights are normalised over: a window of fewer (a one-line chunk, a
	// phrase repeated down a page) is read as if the rest were features of
	// weight zero, so one or two words cannot carry it to the threshold
	// alone. Its margin shrinks toward the bias by sqrt(n/MinFeatures).
	MinFeatures uint8
	// MinWords is the fewest distinct words a window needs to be scored:
	// a shorter one gives no evidence either way (a handful of words is too
	// little text to judge an instruction by its wording; the rules still
	// read it).
	MinWords uint16
	// Window is the number of words one score covers; longer texts are
	// scored over windows overlapping by half and the highest score counts.
	Window int
	// Bias is the intercept.
	Bias float32
	// Threshold is the margin (log-odds) at or above which a text is
	// flagged, set by cross-validation for at most 1 % false positives on
	// benign text outside security discussions.
	Threshold float32
	// W are the bucket weights.
	W []float32
	// Check, when present, holds for every bucket the check byte
	// (CheckByte) of the feature that owns it: the feature seen in the most
	// training examples among those hashed there. Another feature landing in
	// the bucket (a word never trained on, or a rarer colliding one) weighs
	// nothing; it still counts among the window's distinct features, so a
	// window of unknown words (opcode tables, generated names) scores near
	// the bias instead of on the arbitrary weights its words collide with.
	// A bucket no training feature reached has check byte 0 and weight 0.
	Check []uint8
}

//go:embed weights.bin
var embedded []byte

// Default is the embedded model; it panics when the embedded bytes are not a
// model (a broken build, caught by the package's tests).
var Default = sync.OnceValue(func() *Model {
	m, err := Decode(embedded)
	if err != nil {
		panic("protect/model: embedded weights.bin: " + err.Error())
	}
	return m
})

// Encode returns m as bytes: Magic, bits (uint8), MinFeatures (uint8), the
// window (uint16), MinWords (uint16), two zero bytes, bias, threshold and
// weight scale (float32), then one int16 per
// bucket (weight / scale, rounded), all little-endian. Encoding is the
// quantisation: Decode(Encode(m)) holds the weights a scale step apart at
// most. A model with check bytes has them after the weights, one a bucket.
func Encode(m *Model) []byte {
	maxAbs := 0.0
	for _, w := range m.W {
		maxAbs = math.Max(maxAbs, math.Abs(float64(w)))
	}
	scale := float32(1)
	if maxAbs > 0 {
		scale = float32(maxAbs / 32767)
	}
	b := make([]byte, 0, headerLen+2*len(m.W))
	b = append(b, Magic...)
	b = append(b, m.Bits, m.MinFeatures)
	b = binary.LittleEndian.AppendUint16(b, uint16(m.Window))
	b = binary.LittleEndian.AppendUint16(b, m.MinWords)
	b = append(b, 0, 0)
	for _, f := range []float32{m.Bias, m.Threshold, scale} {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
	}
	for _, w := range m.W {
		b = binary.LittleEndian.AppendUint16(b, uint16(int16(math.Round(float64(w)/float64(scale)))))
	}
	return append(b, m.Check...)
}

// Decode reads a model written by Encode.
func Decode(b []byte) (*Model, error) {
	if len(b) < headerLen || string(b[:len(Magic)]) != Magic {
		return nil, errors.New("not an injection model (bad magic)")
	}
	p := b[len(Magic):]
	m := &Model{Bits: p[0], MinFeatures: p[1], Window: int(binary.LittleEndian.Uint16(p[2:]))}
	if m.Bits < 8 || m.Bits > 24 || m.Window < 1 {
		return nil, fmt.Errorf("bad header: %d bits, window %d", m.Bits, m.Window)
	}
	m.MinWords = binary.LittleEndian.Uint16(p[4:])
	f := func(i int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(p[8+4*i:])) }
	m.Bias, m.Threshold = f(0), f(1)
	if len(b) > headerLen+2*(1<<m.Bits) && m.Bits > 23 {
		return nil, fmt.Errorf("bad header: %d bits with check bytes (at most 23)", m.Bits)
	}
	scale := f(2)
	n := 1 << m.Bits
	if len(b) != headerLen+2*n && len(b) != headerLen+3*n {
		return nil, fmt.Errorf("%d bytes, want %d (or %d with check bytes) for %d buckets", len(b), headerLen+2*n, headerLen+3*n, n)
	}
	m.W = make([]float32, n)
	w := b[headerLen:]
	for i := range m.W {
		m.W[i] = float32(int16(binary.LittleEndian.Uint16(w[2*i:]))) * scale
	}
	if c := w[2*n:]; len(c) > 0 {
		m.Check = slices.Clone(c)
	}
	return m, nil
}

// Result is the score of a text: the highest-scoring window.
type Result struct {
	// Margin is the log-odds of the best window.
	Margin float64
	// Start and End are the byte offsets of that window in the view.
	Start, End int
}

// Prob is the margin as a probability.
func (r Result) Prob() float64 { return Sigmoid(r.Margin) }

// Score scores the detection view v (protect.ModelView): the bias plus the
// summed signed weights of the window's distinct features over the square
// root of their number (at least m.MinFeatures), for the best window of m.Window words (overlapping
// by half). Distinct, not counted: a phrase repeated a hundred times says
// no more than once.
func (m *Model) Score(v string) Result {
	var keys []uint32 // signed, checked buckets, in order
	var seg, starts []int
	mask := uint32(1)<<m.Bits - 1
	Features(v, func(start int) {
		seg = append(seg, len(keys))
		starts = append(starts, start)
	}, func(h uint32) { keys = append(keys, key(h, mask, m.Check != nil)) })
	seg = append(seg, len(keys))
	coded := codedWords(v, starts)
	best := Result{Margin: math.Inf(-1)}
	var win, words []uint32
	forWindows(len(starts), m.Window, func(lo, hi int) {
		if !prose(coded, lo, hi) || !enoughWords(keys, seg, lo, hi, m.MinWords, &words) {
			return
		}
		win = distinct(append(win[:0], keys[seg[lo]:seg[hi]]...))
		if len(win) == 0 {
			return
		}
		s := 0.0
		for _, k := range win {
			i := k & mask
			if m.Check != nil && m.Check[i] != checkOf(k) {
				continue
			}
			w := float64(m.W[i])
			if k>>31 != 0 {
				w = -w
			}
			s += w
		}
		mg := float64(m.Bias) + s/norm(len(win), m.MinFeatures)
		if mg > best.Margin {
			end := len(v)
			if hi < len(starts) {
				end = starts[hi]
			}
			best = Result{Margin: mg, Start: starts[lo], End: end}
		}
	})
	if math.IsInf(best.Margin, -1) {
		best.Margin = float64(m.Bias)
	}
	return best
}

// norm is the divisor of a window's summed weights: the square root of its
// number of distinct features n, or of minF when n is smaller.
func norm(n int, minF uint8) float64 { return math.Sqrt(float64(max(n, int(minF), 1))) }

// key is a feature hash reduced to its bucket and sign, and, when checked,
// its check byte.
func key(h, mask uint32, checked bool) uint32 {
	if checked {
		return h&mask | h&(1<<31) | h&checkBits
	}
	return h&mask | h&(1<<31)
}

// checkBits are the hash bits of a feature's check byte (bits 23-30: a
// model with check bytes has at most 23 bits of buckets).
const checkBits = 0xff << 23

// CheckByte is the check byte of a feature hash; 0 is read as 1, so a
// bucket no feature owns (check 0) matches none.
func CheckByte(h uint32) uint8 { return checkOf(h) }

func checkOf(k uint32) uint8 { return max(uint8(k>>23), 1) }

// distinct sorts keys and drops repeats.
func distinct(keys []uint32) []uint32 {
	slices.Sort(keys)
	return slices.Compact(keys)
}

// codedWords reports, for each segment of v, whether its word holds a
// digit ("0x20", "stack428", "opamd64vpmaddubsw256"): the words of tables,
// generated code and data rather than of language.
func codedWords(v string, starts []int) []bool {
	out := make([]bool, len(starts))
	for i, s := range starts {
		for s < len(v) && !isWordByte(v[s]) {
			s++
		}
		for ; s < len(v) && isWordByte(v[s]); s++ {
			if v[s] >= '0' && v[s] <= '9' {
				out[i] = true
				break
			}
		}
	}
	return out
}

// prose reports whether the window [lo, hi) is language: at least 60 % of
// its words without digits. Score skips other windows (lists of generated
// identifiers or numbers are no instruction, and their words, unseen in
// training, land on arbitrary weights).
func prose(coded []bool, lo, hi int) bool {
	n := 0
	for _, c := range coded[lo:hi] {
		if c {
			n++
		}
	}
	return 5*n <= 2*(hi-lo)
}

// enoughWords reports whether the words [lo, hi) hold at least min
// distinct words (each segment's first feature is its word), using *buf as
// scratch.
func enoughWords(keys []uint32, seg []int, lo, hi int, min uint16, buf *[]uint32) bool {
	if min <= 1 {
		return true
	}
	if hi-lo < int(min) {
		return false
	}
	w := (*buf)[:0]
	for i := lo; i < hi; i++ {
		if seg[i] < seg[i+1] {
			w = append(w, keys[seg[i]])
		}
	}
	*buf = w
	return len(distinct(w)) >= int(min)
}

// forWindows calls f with the word ranges [lo, hi) a text of n words is
// scored over: the whole text when it fits one window, else windows of
// size words starting every size/2 words, the last one ending at n.
func forWindows(n, size int, f func(lo, hi int)) {
	if n <= size {
		f(0, n)
		return
	}
	step := max(size/2, 1)
	for lo := 0; ; lo += step {
		if lo+size >= n {
			f(n-size, n)
			return
		}
		f(lo, lo+size)
	}
}

// Windows returns the word ranges Score would score for a text of n words
// (the trainer cuts long benign texts the same way).
func Windows(n, size int) [][2]int {
	var out [][2]int
	forWindows(n, size, func(lo, hi int) { out = append(out, [2]int{lo, hi}) })
	return out
}

// Split cuts the view v into the texts of the windows Score would score
// (v itself when it fits one window): the trainer learns benign text the
// way the model reads it.
func Split(v string, size int) []string {
	var starts []int
	Features(v, func(start int) { starts = append(starts, start) }, func(uint32) {})
	if len(starts) <= size {
		return []string{v}
	}
	var out []string
	for _, w := range Windows(len(starts), size) {
		end := len(v)
		if w[1] < len(starts) {
			end = starts[w[1]]
		}
		out = append(out, v[starts[w[0]]:end])
	}
	return out
}
