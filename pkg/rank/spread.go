package rank

import (
	"fmt"
	"math"
	"slices"

	"github.com/rtch/rtch/pkg/symbols"
)

// Link says that From, one of the strongest files, uses Uses distinct names
// that To defines.
type Link struct {
	From, To string
	Uses     int
}

// Spread lifts the structural neighbours of the strongest files: for each
// link from one of the first w.SpreadSources files to a file ranked below
// it, that file's score becomes
// min(score + SpreadShare·source·min(1, uses/SpreadSat), SpreadCap·source)
// (the best over its sources), and the order is sorted again. SpreadShare
// grows with the top file's lead over the second (SpreadLead). Targets that
// are not plain source code (tests, docs, vendored code, non-code files) are
// never lifted. Then a file that each of those first files uses is raised
// by SpreadShared, below the second file (spreadShared).
func Spread(scored []Scored, links []Link, w Weights) []Scored {
	if w.SpreadSources <= 0 || w.SpreadShare <= 0 || w.SpreadSat <= 0 || len(links) == 0 {
		return scored
	}
	at := make(map[string]int, len(scored))
	for i, s := range scored {
		at[s.Path] = i
	}
	orig := make([]float64, len(scored))
	for i, s := range scored {
		orig[i] = s.Score
	}
	share := w.SpreadShare
	if w.SpreadLead > 1 && len(orig) > 1 && orig[1] > 0 {
		share *= min(w.SpreadLead, orig[0]/orig[1])
	}
	lifted := map[int]string{}
	for _, l := range links {
		src, ok1 := at[l.From]
		dst, ok2 := at[l.To]
		if !ok1 || !ok2 || src >= w.SpreadSources || src == dst || l.Uses <= 0 {
			continue
		}
		s, d := orig[src], orig[dst]
		if d >= s {
			continue
		}
		if !liftable(w, l.To) {
			continue
		}
		gain := share * s * min(1, float64(l.Uses)/float64(w.SpreadSat))
		v := min(d+gain, w.SpreadCap*s)
		v = math.Round(v*10000) / 10000
		if v > scored[dst].Score {
			scored[dst].Score = v
			lifted[dst] = fmt.Sprintf("uses-neighbour of %s (%d of its names used): +%.4g", l.From, l.Uses, v-d)
		}
	}
	if len(lifted) > 0 {
		for i, why := range lifted {
			scored[i].Why = append(scored[i].Why, why)
		}
		slices.SortFunc(scored, byScore)
	}
	return spreadShared(scored, links, at, w)
}

// liftable: only plain source code is lifted, never tests, docs, vendored
// or non-code files.
func liftable(w Weights, p string) bool {
	f, _ := codePathFactor(w, p)
	return f == 1 && symbols.Lang(p) != ""
}

// spreadShared raises the files that every one of the sources (the first
// w.SpreadSources files of the ranking before Spread, whose positions at
// holds) uses, below the second file.
func spreadShared(scored []Scored, links []Link, at map[string]int, w Weights) []Scored {
	sources := min(w.SpreadSources, len(scored))
	if w.SpreadShared <= 0 || sources < 3 || len(scored) < 3 {
		return scored
	}
	users := map[string]map[string]bool{}
	for _, l := range links {
		if i, ok := at[l.From]; !ok || i >= sources || l.Uses <= 0 || l.From == l.To {
			continue
		}
		if users[l.To] == nil {
			users[l.To] = map[string]bool{}
		}
		users[l.To][l.From] = true
	}
	limit := w.SpreadCap * scored[1].Score
	changed := false
	for i := 2; i < len(scored); i++ {
		s := &scored[i]
		if len(users[s.Path]) < sources || !liftable(w, s.Path) {
			continue
		}
		v := math.Round(min(s.Score*(1+w.SpreadShared), limit)*10000) / 10000
		if v > s.Score {
			s.Why = append(s.Why, fmt.Sprintf("used by each of the %d best files: +%.4g", w.SpreadSources, v-s.Score))
			s.Score = v
			changed = true
		}
	}
	if changed {
		slices.SortFunc(scored, byScore)
	}
	return scored
}
