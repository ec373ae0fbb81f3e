package model

import (
	"cmp"
	"math"
	"slices"
)

// Example is one training text: its detection view, its label and the
// weight of its loss.
type Example struct {
	View      string
	Injection bool
	Weight    float64
}

// Config sets the model's shape and its training.
type Config struct {
	Bits   uint8   // log2 of the bucket count
	Window int     // words per scored window
	Epochs int     // passes over the examples
	Rate   float64 // AdaGrad step size
	L2     float64 // L2 penalty on the weights an example touches
	Seed   uint64  // order of the examples in each pass
	// MinFeatures is the fewest distinct features a vector is normalised
	// over (see Model.MinFeatures); 0 or 1 normalises over the features
	// present.
	MinFeatures uint8
	// Check gives every bucket an owner (Model.Check): the features that do
	// not own their bucket are dropped from training and weigh nothing when
	// scored. A feature owns a bucket only when seen in at least MinCount
	// training examples.
	Check    bool
	MinCount int
	// MinWords is Model.MinWords: examples of fewer distinct words are not
	// trained on, as windows of fewer are not scored.
	MinWords uint16
}

// feature is one bucket of a vectorised example and its value.
type feature struct {
	i int32
	x float64
}

// DistinctWords is the number of distinct words of a view.
func DistinctWords(v string) int {
	var w []uint32
	first := false
	Features(v, func(int) { first = true }, func(h uint32) {
		if first {
			w, first = append(w, h), false
		}
	})
	return len(distinct(w))
}

// keysOf returns the distinct features of a view (signed buckets, with
// their check bits when checked), sorted.
func keysOf(v string, mask uint32, checked bool) []uint32 {
	var keys []uint32
	Features(v, func(int) {}, func(h uint32) { keys = append(keys, key(h, mask, checked)) })
	return distinct(keys)
}

// owners returns the check byte of every bucket: that of the feature found
// in the most examples among those hashed there (at least minCount; ties go
// to the lower check byte), 0 for a bucket none reached.
func owners(keys [][]uint32, mask uint32, minCount int) []uint8 {
	count := map[uint32]int32{}
	for _, ks := range keys {
		for _, k := range ks {
			count[k&mask|uint32(checkOf(k))<<24]++
		}
	}
	check := make([]uint8, mask+1)
	best := make([]int32, mask+1)
	for c, n := range count {
		b, ch := c&mask, uint8(c>>24)
		if int(n) < minCount {
			continue
		}
		if n > best[b] || n == best[b] && ch < check[b] {
			best[b], check[b] = n, ch
		}
	}
	return check
}

// vector is the sparse input of an example's distinct features: each
// feature's sign over the square root of the number of distinct features
// (at least minF), summed per bucket and sorted by bucket; a feature that
// does not own its bucket (check) adds nothing but is counted. Score reads
// a window the same way.
func vector(keys []uint32, mask uint32, minF uint8, check []uint8) []feature {
	nrm := norm(len(keys), minF)
	ks := slices.Clone(keys)
	slices.SortFunc(ks, func(a, b uint32) int { return cmp.Compare(a&mask, b&mask) })
	var out []feature
	for _, k := range ks {
		i := int32(k & mask)
		if check != nil && check[i] != checkOf(k) {
			continue
		}
		x := 1 / nrm
		if k>>31 != 0 {
			x = -x
		}
		if n := len(out); n > 0 && out[n-1].i == i {
			out[n-1].x += x
			continue
		}
		out = append(out, feature{i, x})
	}
	return out
}

// Train fits a logistic regression by AdaGrad over the examples in an order
// drawn from cfg.Seed. It is deterministic: one goroutine, a fixed order,
// every product rounded before it is added (no fused multiply-add), and its
// own exponential, so the same examples give the same weights everywhere.
func Train(ex []Example, cfg Config) *Model {
	if cfg.MinWords > 1 {
		ex = slices.DeleteFunc(slices.Clone(ex), func(e Example) bool { return DistinctWords(e.View) < int(cfg.MinWords) })
	}
	n := 1 << cfg.Bits
	mask := uint32(n - 1)
	keys := make([][]uint32, len(ex))
	for i, e := range ex {
		keys[i] = keysOf(e.View, mask, cfg.Check)
	}
	var check []uint8
	if cfg.Check {
		check = owners(keys, mask, max(cfg.MinCount, 1))
	}
	xs := make([][]feature, len(ex))
	for i := range ex {
		xs[i] = vector(keys[i], mask, cfg.MinFeatures, check)
	}
	w, g2 := make([]float64, n), make([]float64, n)
	var b, bg2 float64
	order := make([]int, len(ex))
	for i := range order {
		order[i] = i
	}
	rng := cfg.Seed
	for range cfg.Epochs {
		shuffle(order, &rng)
		for _, k := range order {
			z := b
			for _, f := range xs[k] {
				z += float64(w[f.i] * f.x)
			}
			y := 0.0
			if ex[k].Injection {
				y = 1
			}
			g := float64(Sigmoid(z)-y) * ex[k].Weight
			for _, f := range xs[k] {
				gi := float64(g*f.x) + float64(cfg.L2*w[f.i])
				g2[f.i] += float64(gi * gi)
				w[f.i] -= float64(cfg.Rate*gi) / math.Sqrt(g2[f.i]+1e-8)
			}
			bg2 += float64(g * g)
			b -= float64(cfg.Rate*g) / math.Sqrt(bg2+1e-8)
		}
	}
	m := &Model{Bits: cfg.Bits, MinFeatures: cfg.MinFeatures, MinWords: cfg.MinWords, Window: cfg.Window, Bias: float32(b), W: make([]float32, n), Check: check}
	for i, x := range w {
		m.W[i] = float32(x)
	}
	return m
}

// shuffle permutes order (Fisher-Yates) with splitmix64 draws from *state.
func shuffle(order []int, state *uint64) {
	for i := len(order) - 1; i > 0; i-- {
		*state += 0x9e3779b97f4a7c15
		z := *state
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		z ^= z >> 31
		j := int(z % uint64(i+1))
		order[i], order[j] = order[j], order[i]
	}
}

// Sigmoid is the logistic function, computed with exp below.
func Sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + exp(-z))
	}
	e := exp(z)
	return e / (1 + e)
}

// exp is e^x for x ≤ 0 by range reduction (x = k·ln2 + r, |r| ≤ ln2/2) and
// a degree-12 Taylor polynomial, every step rounded: math.Exp may use fused
// instructions on some processors, and training must not depend on them.
func exp(x float64) float64 {
	if x < -745 {
		return 0
	}
	k := math.Floor(x/math.Ln2 + 0.5)
	r := x - float64(k*math.Ln2)
	p := 1.0
	for i := 12; i >= 1; i-- {
		p = 1 + float64(float64(r*p)/float64(i))
	}
	return math.Ldexp(p, int(k))
}
