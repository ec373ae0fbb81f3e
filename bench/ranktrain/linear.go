package main

import (
	"math"

	"github.com/rtch/rtch/pkg/rank"
)

// linearOptions configure the pairwise linear trainer.
type linearOptions struct {
	Cols   []int   // the columns it uses
	Iters  int     // full-batch steps
	Rate   float64 // Adam's step size
	L2     float64 // weight decay on the standardised weights
	Within int     // negatives among the first Within candidates pair with each gold file
}

var defaultLinear = linearOptions{Iters: 300, Rate: 0.05, L2: 1e-3, Within: 50}

// trainLinear fits a RankNet-style pairwise logistic model: for every gold
// candidate g and every other candidate n among the first Within of a
// query, log(1 + exp(−(w·x_g − w·x_n))), each query weighing the same,
// on standardised columns, by full-batch Adam. Everything is summed in a
// fixed order, so the same data gives the same weights byte for byte.
func trainLinear(qs []query, names []string, o linearOptions) *rank.Model {
	d := len(o.Cols)
	mean, std := standardise(qs, o.Cols)
	w := make([]float64, d)
	m1 := make([]float64, d)
	m2 := make([]float64, d)
	grad := make([]float64, d)
	for it := 1; it <= o.Iters; it++ {
		for j := range grad {
			grad[j] = o.L2 * w[j]
		}
		for _, q := range qs {
			s := make([]float64, len(q.Rows))
			for i, r := range q.Rows {
				s[i] = dot(w, r, o.Cols, mean, std)
			}
			coef := pairCoefficients(q, s, o.Within)
			if coef == nil {
				continue
			}
			for i, c := range coef {
				if c == 0 {
					continue
				}
				for j, col := range o.Cols {
					if std[j] > 0 {
						grad[j] += c * (q.Rows[i][col] - mean[j]) / std[j]
					}
				}
			}
		}
		adam(w, grad, m1, m2, o.Rate, it)
	}
	m := &rank.Model{Kind: "linear", Pool: 100, Weights: make([]float64, d)}
	for j, col := range o.Cols {
		m.Features = append(m.Features, names[col])
		if std[j] > 0 {
			m.Weights[j] = w[j] / std[j]
			m.Bias -= w[j] * mean[j] / std[j]
		}
	}
	if err := m.Bind(names); err != nil {
		panic(err) // the names are the dataset's own
	}
	return m
}

// pairCoefficients is, per candidate, the derivative of the query's mean
// pair loss by its score: nil when the query has no pair.
func pairCoefficients(q query, s []float64, within int) []float64 {
	var gold, neg []int
	for i, l := range q.Labels {
		switch {
		case l == 1:
			gold = append(gold, i)
		case i < within:
			neg = append(neg, i)
		}
	}
	if len(gold) == 0 || len(neg) == 0 {
		return nil
	}
	per := 1 / float64(len(gold)*len(neg))
	coef := make([]float64, len(s))
	for _, g := range gold {
		for _, n := range neg {
			sig := 1 / (1 + math.Exp(s[g]-s[n])) // −∂loss/∂(s_g − s_n)
			coef[g] -= sig * per
			coef[n] += sig * per
		}
	}
	return coef
}

func dot(w, r []float64, cols []int, mean, std []float64) float64 {
	s := 0.0
	for j, col := range cols {
		if std[j] > 0 {
			s += w[j] * (r[col] - mean[j]) / std[j]
		}
	}
	return s
}

// standardise is each column's mean and standard deviation over every
// candidate.
func standardise(qs []query, cols []int) (mean, std []float64) {
	mean = make([]float64, len(cols))
	std = make([]float64, len(cols))
	n := 0.0
	for _, q := range qs {
		for _, r := range q.Rows {
			n++
			for j, c := range cols {
				mean[j] += r[c]
			}
		}
	}
	for j := range mean {
		mean[j] /= max(n, 1)
	}
	for _, q := range qs {
		for _, r := range q.Rows {
			for j, c := range cols {
				d := r[c] - mean[j]
				std[j] += d * d
			}
		}
	}
	for j := range std {
		std[j] = math.Sqrt(std[j] / max(n, 1))
		if std[j] < 1e-12 {
			std[j] = 0
		}
	}
	return mean, std
}

// adam takes one Adam step (β 0.9, 0.999) against grad.
func adam(w, grad, m1, m2 []float64, rate float64, t int) {
	const b1, b2, eps = 0.9, 0.999, 1e-8
	c1 := 1 - math.Pow(b1, float64(t))
	c2 := 1 - math.Pow(b2, float64(t))
	for j := range w {
		m1[j] = b1*m1[j] + (1-b1)*grad[j]
		m2[j] = b2*m2[j] + (1-b2)*grad[j]*grad[j]
		w[j] -= rate * (m1[j] / c1) / (math.Sqrt(m2[j]/c2) + eps)
	}
}
