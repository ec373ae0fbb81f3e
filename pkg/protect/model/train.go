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
}

// feature is one bucket of a vectorised example and its value.
type feature struct {
	i int32
	x float64
}

// Vector is the sparse input of a view for a model of bits buckets: each
// distinct feature (bucket and sign) once, its sign over the square root of
// the number of distinct features, summed per bucket and sorted by bucket.
// Score reads a window the same way.
func Vector(v string, bits uint8) []feature {
	mask := uint32(1)<<bits - 1
	var keys []uint32
	Features(v, func(int) {}, func(h uint32) { keys = append(keys, key(h, mask)) })
	keys = distinct(keys)
	norm := math.Sqrt(float64(max(len(keys), 1)))
	slices.SortFunc(keys, func(a, b uint32) int { return cmp.Compare(a&mask, b&mask) })
	var out []feature
	for _, k := range keys {
		x := 1 / norm
		if k>>31 != 0 {
			x = -x
		}
		i := int32(k & mask)
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
	xs := make([][]feature, len(ex))
	for i, e := range ex {
		xs[i] = Vector(e.View, cfg.Bits)
	}
	n := 1 << cfg.Bits
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
	m := &Model{Bits: cfg.Bits, Window: cfg.Window, Bias: float32(b), W: make([]float32, n)}
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
