package probe

import (
	"cmp"
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/rtch/rtch/pkg/rank"
	"github.com/rtch/rtch/pkg/walk"
)

// The rankings rtch-probe offers (--ranker).
const (
	// RankerLearned re-orders the hand-written ranking's first files by
	// the model of rank.DefaultModel.
	RankerLearned = "learned"
	// RankerClassic is the hand-written ranking (pkg/rank's weighted
	// evidence and Spread). Under both, a file and its copies are ranked
	// as one (rank.Copies).
	RankerClassic = "classic"
	// DefaultRanker is the ranking used when none is chosen.
	DefaultRanker = RankerClassic
)

// featurePool is how many of the hand-written ranking's first files get
// features: the rank record's default cap.
const featurePool = DefaultRankCap

// learn hands the features of the first files to Options.Features,
// re-orders them by the model under the learned ranking, and, under
// either ranking, ranks a file and its copies as one (rank.Copies).
func (r *run) learn(ctx context.Context, terms []rank.Term, links []rank.Link, p rank.Params) error {
	m, err := r.model()
	if err != nil {
		return err
	}
	paths := make([]string, len(r.files))
	for i, f := range r.files {
		paths[i] = f.Path
	}
	pool := featurePool
	if m != nil {
		pool = max(pool, m.Pool)
	}
	if m != nil || r.o.Features != nil {
		cx := rank.Context{Goal: r.o.Intake.Goal, Packages: rank.Packages(paths)}
		rows := rank.Features(terms, r.scored, links, p, cx, pool)
		if err := r.giveFeatures(rows); err != nil {
			return err
		}
		if m != nil {
			r.scored = m.Rerank(r.scored, rows)
		}
	}
	return r.foldCopies(ctx, paths, pool)
}

// model is the learned ranking's model, nil under the classic one.
func (r *run) model() (*rank.Model, error) {
	switch name := cmp.Or(r.o.Ranker, DefaultRanker); name {
	case RankerClassic:
		return nil, nil
	case RankerLearned:
		return rank.DefaultModel()
	default:
		return nil, fmt.Errorf("ranker %q: want %s or %s", name, RankerLearned, RankerClassic)
	}
}

// giveFeatures hands the rows of the first files to Options.Features.
func (r *run) giveFeatures(rows [][]float64) error {
	if r.o.Features == nil {
		return nil
	}
	top := make([]string, len(rows))
	for i := range rows {
		top[i] = r.scored[i].Path
	}
	return r.o.Features(top, rows)
}

// foldCopies ranks a file and its copies among the first pool files as
// one (rank.Copies): only the files of same-named, same-sized pairs are
// read.
func (r *run) foldCopies(ctx context.Context, paths []string, pool int) error {
	pairs := rank.CopyPairs(r.scored, pool)
	if len(pairs) == 0 {
		return nil
	}
	need := map[string]bool{}
	for _, pr := range pairs {
		need[r.scored[pr[0]].Path] = true
		need[r.scored[pr[1]].Path] = true
	}
	var read []walk.File
	for p := range need {
		if i, ok := r.index[p]; ok {
			read = append(read, r.files[i])
		}
	}
	sort.Slice(read, func(i, j int) bool { return read[i].Path < read[j].Path })
	var mu sync.Mutex
	content := map[string][]byte{}
	err := walk.Each(ctx, r.o.Walk, read, func(f walk.File, data []byte) error {
		mu.Lock()
		content[f.Path] = append([]byte(nil), data...)
		mu.Unlock()
		return nil
	}, nil)
	if err != nil {
		return err
	}
	under := func(tree string) int {
		n := 0
		for _, p := range paths {
			if tree == "" || strings.HasPrefix(p, tree+"/") {
				n++
			}
		}
		return n
	}
	r.scored = rank.Copies(r.scored, pairs, content, under)
	return nil
}
