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
const Magic = "rtchinj1"

// headerLen is the size of the fixed header that follows Magic.
const headerLen = len(Magic) + 2 + 2 + 4*3

// Model is a trained classifier.
type Model struct {
	// Bits is log2 of the number of hashed feature buckets.
	Bits uint8
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

// Encode returns m as bytes: Magic, bits (uint8), a zero byte, the window
// (uint16), bias, threshold and weight scale (float32), then one int16 per
// bucket (weight / scale, rounded), all little-endian. Encoding is the
// quantisation: Decode(Encode(m)) holds the weights a scale step apart at
// most.
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
	b = append(b, m.Bits, 0)
	b = binary.LittleEndian.AppendUint16(b, uint16(m.Window))
	for _, f := range []float32{m.Bias, m.Threshold, scale} {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
	}
	for _, w := range m.W {
		b = binary.LittleEndian.AppendUint16(b, uint16(int16(math.Round(float64(w)/float64(scale)))))
	}
	return b
}

// Decode reads a model written by Encode.
func Decode(b []byte) (*Model, error) {
	if len(b) < headerLen || string(b[:len(Magic)]) != Magic {
		return nil, errors.New("not an injection model (bad magic)")
	}
	p := b[len(Magic):]
	m := &Model{Bits: p[0], Window: int(binary.LittleEndian.Uint16(p[2:]))}
	if m.Bits < 8 || m.Bits > 24 || m.Window < 1 {
		return nil, fmt.Errorf("bad header: %d bits, window %d", m.Bits, m.Window)
	}
	f := func(i int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(p[4+4*i:])) }
	m.Bias, m.Threshold = f(0), f(1)
	scale := f(2)
	n := 1 << m.Bits
	if len(b) != headerLen+2*n {
		return nil, fmt.Errorf("%d bytes, want %d for %d buckets", len(b), headerLen+2*n, n)
	}
	m.W = make([]float32, n)
	w := b[headerLen:]
	for i := range m.W {
		m.W[i] = float32(int16(binary.LittleEndian.Uint16(w[2*i:]))) * scale
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
// root of their number, for the best window of m.Window words (overlapping
// by half). Distinct, not counted: a phrase repeated a hundred times says
// no more than once.
func (m *Model) Score(v string) Result {
	var keys []uint32 // signed buckets, in order
	var seg, starts []int
	mask := uint32(1)<<m.Bits - 1
	Features(v, func(start int) {
		seg = append(seg, len(keys))
		starts = append(starts, start)
	}, func(h uint32) { keys = append(keys, key(h, mask)) })
	seg = append(seg, len(keys))
	coded := codedWords(v, starts)
	best := Result{Margin: math.Inf(-1)}
	var win []uint32
	forWindows(len(starts), m.Window, func(lo, hi int) {
		if !prose(coded, lo, hi) {
			return
		}
		win = distinct(append(win[:0], keys[seg[lo]:seg[hi]]...))
		if len(win) == 0 {
			return
		}
		s := 0.0
		for _, k := range win {
			w := float64(m.W[k&mask])
			if k>>31 != 0 {
				w = -w
			}
			s += w
		}
		mg := float64(m.Bias) + s/math.Sqrt(float64(len(win)))
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

// key is a feature hash reduced to its bucket and sign.
func key(h, mask uint32) uint32 { return h&mask | h&(1<<31) }

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
