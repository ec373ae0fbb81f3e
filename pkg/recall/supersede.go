package recall

import (
	"path"
	"strings"

	"github.com/rtch/rtch/pkg/fts"
	"github.com/rtch/rtch/pkg/protect"
	"github.com/rtch/rtch/pkg/secret"
)

// superseders maps each supersedes target, as written (a path, file name or
// slug), to the highest trust tier of the pages naming it. Any page may list
// any other in supersedes, so the claim counts only as far as the naming
// page is trusted (Retires).
type superseders map[string]protect.Tier

// Retires reports whether a page of tier by, naming a page of tier target
// in its supersedes list, retires it: only from at least the target's tier
// (an untrusted page cannot hide a trusted one), and operator text (the
// principles, the project overview and goals, reviewed standards) never:
// it is retired by editing it, and not even another operator page may take
// it out of every recall.
func Retires(by, target protect.Tier) bool {
	return target != protect.TierOperator && tierRank(by) >= tierRank(target)
}

// add records that a page of the given tier names target.
func (s superseders) add(target string, tier protect.Tier) {
	if tierRank(tier) > tierRank(s[target]) {
		s[target] = tier
	}
}

// addPage records every target of a page's supersedes list.
func (s superseders) addPage(rel string, m fts.PageMeta) {
	tier := pageTier(rel, m, false)
	for _, t := range m.Front.Supersedes {
		s.add(t, tier)
	}
}

// fromIndex folds an index's supersessions, each weighed by the tier of its
// naming page.
func fromIndex(list []fts.Supersession) superseders {
	s := superseders{}
	for _, x := range list {
		s.add(x.Target, pageTier(x.By, x.Page, false))
	}
	return s
}

// retires reports whether the page at rel, of metadata m, is superseded.
func (s superseders) retires(rel string, m fts.PageMeta) bool {
	by, ok := s.by(rel)
	return ok && Retires(by, pageTier(rel, m, false))
}

// by is the highest tier among the pages naming rel by path, file name or
// slug. The lists are redacted where the frontmatter is read, so a page
// whose path holds a secret (read from the files under its own path) is
// looked up under its redacted spelling as well.
func (s superseders) by(rel string) (protect.Tier, bool) {
	if len(s) == 0 {
		return "", false
	}
	names := []string{rel}
	if secret.InPath(rel) {
		names = append(names, secret.Path(rel))
	}
	var best protect.Tier
	for _, n := range names {
		slug := strings.TrimSuffix(path.Base(n), path.Ext(n))
		for _, k := range []string{n, slug, path.Base(n)} {
			if t, ok := s[k]; ok && tierRank(t) > tierRank(best) {
				best = t
			}
		}
	}
	return best, best != ""
}

// tierRank orders the tiers: untrusted 1, trusted 2, operator 3, none 0.
func tierRank(t protect.Tier) int {
	switch t {
	case protect.TierOperator:
		return 3
	case protect.TierTrusted:
		return 2
	case "":
		return 0
	}
	return 1
}
