package recall

import "sort"

// pageDemotion is what each earlier chunk of the same page multiplies a
// chunk's score by when the wiki chunks are ordered (diversify).
const pageDemotion = 0.5

// spread is how many candidates per wanted chunk a mechanism is asked for,
// so that diversify can fill the list from other pages.
const spread = 3

// diversify orders wiki chunks by their score times pageDemotion to the
// number of better chunks of the same page, keeps the first limit, and
// gives them their demoted scores.
func diversify(cs []chunk, limit int) []chunk {
	seen := map[string]int{}
	for i := range cs {
		k := seen[cs[i].path]
		seen[cs[i].path] = k + 1
		for ; k > 0; k-- {
			cs[i].score *= pageDemotion
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].score > cs[j].score })
	if len(cs) > limit {
		cs = cs[:limit]
	}
	for i := range cs {
		cs[i].score = round4(cs[i].score)
	}
	return cs
}
