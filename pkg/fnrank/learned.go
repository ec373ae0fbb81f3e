package fnrank

import (
	_ "embed"
	"fmt"
	"slices"
	"sync"

	"github.com/rtch/rtch/pkg/rank"
)

// The learned function ranking: gradient-boosted trees trained offline on
// the units of the training corpus's bug fixes (bench/traincorpus
// fnfeatures, bench/ranktrain/fntrain.py; never an evaluation repository),
// over FeatureNames, evaluated in pure Go by rank.Model's split rule. It
// is not the default order: over unseen repositories it wins, on the
// shared sets it lowers the briefs' line recall (docs/decisions/functions.md).

//go:embed model.json
var modelJSON []byte

var learned = sync.OnceValues(func() (*rank.Model, error) {
	m, err := rank.LoadModelOver(modelJSON, FeatureNames)
	if err != nil {
		return nil, fmt.Errorf("fnrank: model.json: %v", err)
	}
	return m, nil
})

// Model is the shipped model.
func Model() (*rank.Model, error) { return learned() }

// LearnedMaxTerms: a goal of this many terms or more keeps the
// hand-written order. The training goals are commit messages (5 to 6
// terms at the median); over unseen repositories the model wins on goals
// under 20 terms and loses on longer ones (docs/bench/functions.md), and
// an issue's goal is longer (44 terms at the median on SWE-bench dev).
const LearnedMaxTerms = 20

// RankLearned is Rank ordered by the shipped model, for a goal of fewer
// than LearnedMaxTerms terms.
func RankLearned(files []File, terms []Term) ([]Unit, error) {
	m, err := learned()
	if err != nil {
		return nil, err
	}
	units, rows := RankFeatures(files, terms, Weights{})
	if len(terms) >= LearnedMaxTerms {
		return units, nil
	}
	return Rerank(units, rows, m), nil
}

// Rerank orders the first m.Pool of units (in the hand-written order,
// rows their features) by m, best first; ties keep the hand-written order,
// and the units after the pool keep it below them. The pool's scores
// become the best hand-written score divided by 1 + (best value − value),
// so the order reads off the scores and none falls to zero; the units
// after it score below the last of the pool. A unit the model moved says
// where the hand-written order had it.
func Rerank(units []Unit, rows [][]float64, m *rank.Model) []Unit {
	if len(units) == 0 {
		return units
	}
	rest := units[min(m.Pool, len(units)):]
	units = units[:min(m.Pool, len(units))]
	type scored struct {
		at int
		v  float64
	}
	ss := make([]scored, len(units))
	top, best := 0.0, 0.0
	for i := range units {
		ss[i] = scored{i, m.Score(rows[i])}
		top = max(top, units[i].Score)
		if i == 0 || ss[i].v > best {
			best = ss[i].v
		}
	}
	slices.SortStableFunc(ss, func(a, b scored) int {
		switch {
		case a.v > b.v:
			return -1
		case a.v < b.v:
			return 1
		}
		return 0
	})
	out := make([]Unit, len(units))
	for i, s := range ss {
		u := units[s.at]
		u.Score = roundScore(top / (1 + best - s.v))
		if s.at != i {
			u.Why = append(slices.Clip(u.Why), fmt.Sprintf("learned ranking: %d in the hand-written one", s.at+1))
		}
		out[i] = u
	}
	last := out[len(out)-1].Score
	for i, u := range rest {
		u.Score = roundScore(last / float64(i+2))
		out = append(out, u)
	}
	return out
}

func roundScore(v float64) float64 { return float64(int64(v*10000+0.5)) / 10000 }
