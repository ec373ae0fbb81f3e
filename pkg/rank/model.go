package rank

import (
	"bytes"
	"cmp"
	_ "embed"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
)

// Model is a learned ranking over Features: a linear model (Weights, Bias)
// or an ensemble of regression trees (Trees) whose outputs add up. It
// re-orders the first Pool files of the hand-written ranking. Evaluation
// is pure Go and deterministic: the same features give the same order on
// every run and machine.
type Model struct {
	// Kind is "linear" or "trees".
	Kind string `json:"kind"`
	// Features names the model's inputs, each one of FeatureNames.
	Features []string `json:"features"`
	// Pool is how many of the hand-written ranking's first files it
	// re-orders.
	Pool    int       `json:"pool"`
	Weights []float64 `json:"weights,omitempty"`
	Bias    float64   `json:"bias,omitempty"`
	Trees   [][]Node  `json:"trees,omitempty"`
	// BaseFeature and BaseScale are where the trees start: every score
	// is BaseScale times the input BaseFeature (one of Features) plus the
	// trees' sum, so the trees learn changes to the order that input
	// gives (the hand-written score's).
	BaseFeature string  `json:"base_feature,omitempty"`
	BaseScale   float64 `json:"base_scale,omitempty"`
	// Trained says what the model was trained on, for people.
	Trained string `json:"trained,omitempty"`

	cols []int // each input's column in FeatureNames
	base int   // BaseFeature's column
}

// Node is one node of a tree, stored as XGBoost evaluates it: an inner
// node sends x to Yes when float32(x[F]) < T, else to No; a leaf (F < 0)
// holds its value in Leaf.
type Node struct {
	F    int     `json:"f"`
	T    float32 `json:"t,omitempty"`
	Yes  int     `json:"yes,omitempty"`
	No   int     `json:"no,omitempty"`
	Leaf float64 `json:"leaf,omitempty"`
}

// LoadModel decodes a model file and checks it against FeatureNames and
// itself: every input a known feature, as many weights as inputs, every
// tree's nodes in range and acyclic (children after their parent).
func LoadModel(data []byte) (*Model, error) { return LoadModelOver(data, FeatureNames) }

// LoadModelOver is LoadModel for rows whose columns are named by columns
// (a training tool's rows carry columns the lane does not compute).
func LoadModelOver(data []byte, columns []string) (*Model, error) {
	var m Model
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("model: %v", err)
	}
	return &m, m.check(columns)
}

// check binds the model to columns and checks it against itself.
func (m *Model) check(columns []string) error {
	if err := m.Bind(columns); err != nil {
		return err
	}
	if m.Pool < 1 {
		return fmt.Errorf("model: pool %d, want at least 1", m.Pool)
	}
	switch m.Kind {
	case "linear":
		if len(m.Weights) != len(m.Features) || len(m.Trees) > 0 {
			return fmt.Errorf("model: linear with %d weights for %d inputs and %d trees", len(m.Weights), len(m.Features), len(m.Trees))
		}
	case "trees":
		if len(m.Trees) == 0 || len(m.Weights) > 0 {
			return fmt.Errorf("model: trees with %d trees and %d weights", len(m.Trees), len(m.Weights))
		}
		for ti, t := range m.Trees {
			for ni, n := range t {
				if n.F >= len(m.Features) || n.F >= 0 && (n.Yes <= ni || n.No <= ni || n.Yes >= len(t) || n.No >= len(t)) {
					return fmt.Errorf("model: tree %d node %d is malformed", ti, ni)
				}
			}
		}
	default:
		return fmt.Errorf("model: kind %q, want linear or trees", m.Kind)
	}
	return nil
}

// Bind maps the model's inputs to the columns of the rows it will score,
// named by columns; an input that is none of them is an error.
func (m *Model) Bind(columns []string) error {
	col := map[string]int{}
	for i, n := range columns {
		col[n] = i
	}
	m.cols = m.cols[:0]
	for _, f := range m.Features {
		c, ok := col[f]
		if !ok {
			return fmt.Errorf("model: input %q is not a feature this ranking computes", f)
		}
		m.cols = append(m.cols, c)
	}
	if m.BaseScale != 0 {
		c, ok := col[m.BaseFeature]
		if !ok {
			return fmt.Errorf("model: base %q is not a feature this ranking computes", m.BaseFeature)
		}
		m.base = c
	}
	return nil
}

// Score is the model's value of one row of Features (higher ranks first).
func (m *Model) Score(row []float64) float64 {
	if m.Kind == "linear" {
		s := m.Bias
		for i, c := range m.cols {
			s += m.Weights[i] * row[c]
		}
		return s
	}
	s := 0.0
	if m.BaseScale != 0 {
		s = m.BaseScale * float64(float32(row[m.base]))
	}
	for _, t := range m.Trees {
		n := 0
		for t[n].F >= 0 {
			if float32(row[m.cols[t[n].F]]) < t[n].T {
				n = t[n].Yes
			} else {
				n = t[n].No
			}
		}
		s += t[n].Leaf
	}
	return s
}

// Rerank orders the first Pool files of scored (rows are their Features)
// by the model, best first; ties keep the hand-written order. Their scores
// become the first file's score divided by 1 + (best value − value), so
// the order reads off the scores as before and none falls to zero; the
// files after the pool keep their order below the last of it.
func (m *Model) Rerank(scored []Scored, rows [][]float64) []Scored {
	n := min(m.Pool, len(rows), len(scored))
	if n < 2 {
		return scored
	}
	type cand struct {
		s   Scored
		v   float64
		was int
	}
	cs := make([]cand, n)
	for i := range n {
		cs[i] = cand{scored[i], m.Score(rows[i]), i}
	}
	slices.SortStableFunc(cs, func(a, b cand) int { return cmp.Or(cmp.Compare(b.v, a.v), cmp.Compare(a.was, b.was)) })
	top := scored[0].Score
	last := top
	for i, c := range cs {
		c.s.Score = math.Round(top/(1+cs[0].v-c.v)*10000) / 10000
		if c.was != i {
			c.s.Why = append(c.s.Why, fmt.Sprintf("learned ranking: %d in the hand-written one", c.was+1))
		}
		scored[i] = c.s
		last = c.s.Score
	}
	if n < len(scored) && scored[n].Score > 0 {
		// The tail keeps its order, scaled below the pool's last file.
		scale := last / scored[n].Score * 0.5
		for i := n; i < len(scored); i++ {
			scored[i].Score = math.Round(scored[i].Score*scale*10000) / 10000
		}
	}
	return scored
}

//go:embed model.bin
var packedModel []byte

// DefaultModel is the model trained by `make train`: pkg/rank/model.json
// as Pack writes it (model.bin; TestPackedModelIsTheModelFile), decoded
// once. Decoding the packed trees takes a fraction of a millisecond where
// the JSON's took tens of them, at every rtch-probe start.
var DefaultModel = sync.OnceValues(func() (*Model, error) { return Unpack(packedModel) })

// packMagic opens a packed model: the JSON of everything but the trees,
// its length before it, then each tree's node count and nodes (feature
// int32, threshold float32, yes and no int32, leaf float64), little-endian.
const packMagic = "rtch-rank-model\x00"

// Pack is the model in the packed form DefaultModel decodes.
func Pack(m *Model) ([]byte, error) {
	head := *m
	head.Trees = nil
	hj, err := json.Marshal(head)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString(packMagic)
	w := func(v any) { binary.Write(&b, binary.LittleEndian, v) }
	w(uint32(len(hj)))
	b.Write(hj)
	w(uint32(len(m.Trees)))
	for _, t := range m.Trees {
		w(uint32(len(t)))
		for _, n := range t {
			w(int32(n.F))
			w(n.T)
			w(int32(n.Yes))
			w(int32(n.No))
			w(n.Leaf)
		}
	}
	return b.Bytes(), nil
}

// Unpack decodes a packed model and checks it as LoadModel does.
func Unpack(data []byte) (*Model, error) {
	r := bytes.NewReader(data)
	magic := make([]byte, len(packMagic))
	if _, err := r.Read(magic); err != nil || string(magic) != packMagic {
		return nil, errors.New("packed model: no magic")
	}
	var n uint32
	if err := binary.Read(r, binary.LittleEndian, &n); err != nil || int(n) > r.Len() {
		return nil, errors.New("packed model: truncated header")
	}
	hj := make([]byte, n)
	r.Read(hj)
	var m Model
	if err := json.Unmarshal(hj, &m); err != nil {
		return nil, fmt.Errorf("packed model: %v", err)
	}
	if err := binary.Read(r, binary.LittleEndian, &n); err != nil || int(n) > r.Len() {
		return nil, errors.New("packed model: truncated trees")
	}
	const nodeSize = 4 + 4 + 4 + 4 + 8
	for range n {
		var k uint32
		if err := binary.Read(r, binary.LittleEndian, &k); err != nil || int(k)*nodeSize > r.Len() {
			return nil, errors.New("packed model: truncated tree")
		}
		raw := make([]byte, int(k)*nodeSize)
		r.Read(raw)
		t := make([]Node, k)
		for i := range t {
			o := raw[i*nodeSize:]
			t[i] = Node{F: int(int32(binary.LittleEndian.Uint32(o))), T: math.Float32frombits(binary.LittleEndian.Uint32(o[4:])),
				Yes: int(int32(binary.LittleEndian.Uint32(o[8:]))), No: int(int32(binary.LittleEndian.Uint32(o[12:]))),
				Leaf: math.Float64frombits(binary.LittleEndian.Uint64(o[16:]))}
		}
		m.Trees = append(m.Trees, t)
	}
	if r.Len() != 0 {
		return nil, errors.New("packed model: trailing bytes")
	}
	return &m, m.check(FeatureNames)
}
