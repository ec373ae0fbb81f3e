package probe

import (
	"github.com/rtch/rtch/pkg/rank"
)

// featurePool is how many of the ranking's first files get features for
// Options.Features: the rank record's default cap.
const featurePool = DefaultRankCap

// features hands the features of the first files to Options.Features.
func (r *run) features(terms []rank.Term, links []rank.Link, p rank.Params) error {
	if r.o.Features == nil {
		return nil
	}
	paths := make([]string, len(r.files))
	for i, f := range r.files {
		paths[i] = f.Path
	}
	cx := rank.Context{Goal: r.o.Intake.Goal, Packages: rank.Packages(paths)}
	rows := rank.Features(terms, r.scored, links, p, cx, featurePool)
	top := make([]string, len(rows))
	for i := range rows {
		top[i] = r.scored[i].Path
	}
	return r.o.Features(top, rows)
}
