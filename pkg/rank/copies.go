package rank

import (
	"bytes"
	"cmp"
	"hash/fnv"
	"path"
	"slices"
	"strings"
)

// copyDice is how alike two files' lines must be for one to be a copy of
// the other: Dice's coefficient of their trimmed, non-blank lines as
// multisets. A generated mirror (a deno_dist/ tree beside src/) differs
// from its source only in a few import lines; a sibling crate's file of
// the same name is other code.
const copyDice = 0.9

// copySize is how far apart two copies' sizes may be, as a share of the
// larger: the cheap test before any file is read.
const copySize = 0.15

// CopyPairs are the pairs among the first pool files that may be copies
// of each other: the same file name and sizes within copySize. Only these
// are read (Copies).
func CopyPairs(scored []Scored, pool int) [][2]int {
	pool = min(pool, len(scored))
	byBase := map[string][]int{}
	var order []string
	for i, s := range scored[:pool] {
		b := path.Base(s.Path)
		if byBase[b] == nil {
			order = append(order, b)
		}
		byBase[b] = append(byBase[b], i)
	}
	var out [][2]int
	for _, b := range order {
		ix := byBase[b]
		for x := 0; x < len(ix); x++ {
			for y := x + 1; y < len(ix); y++ {
				sa, sb := scored[ix[x]].Bytes, scored[ix[y]].Bytes
				if sa > 0 && sb > 0 && float64(abs(sa-sb)) <= copySize*float64(max(sa, sb)) {
					out = append(out, [2]int{ix[x], ix[y]})
				}
			}
		}
	}
	return out
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// Alike is Dice's coefficient of two texts' trimmed, non-blank lines as
// multisets.
func Alike(a, b []byte) float64 {
	ca, na := lineCounts(a)
	cb, nb := lineCounts(b)
	if na+nb == 0 {
		return 1
	}
	common := 0
	for h, n := range ca {
		common += min(n, cb[h])
	}
	return 2 * float64(common) / float64(na+nb)
}

func lineCounts(b []byte) (map[uint64]int, int) {
	m := map[uint64]int{}
	n := 0
	for _, l := range bytes.Split(b, []byte("\n")) {
		l = bytes.TrimSpace(l)
		if len(l) == 0 {
			continue
		}
		h := fnv.New64a()
		h.Write(l)
		m[h.Sum64()]++
		n++
	}
	return m, n
}

// Copies ranks each group of copies (pairs whose contents are Alike at
// copyDice or more, content holding the files of CopyPairs) as one file:
// its source, at the best place any of them had, with the others named in
// its reasons and taken out of the ranking. Of two copies the source is
// the one whose tree is larger: the path without the part both share at
// the end (src/ against deno_dist/ for src/hono.ts and deno_dist/hono.ts)
// is its tree, and files counts the walked files under a tree (a
// generated mirror leaves the tests and the build files behind); then the
// shorter tree, then the path.
func Copies(scored []Scored, pairs [][2]int, content map[string][]byte, files func(tree string) int) []Scored {
	// Union by the better place, so each group's root is its first member.
	root := map[int]int{}
	find := func(x int) int {
		for root[x] != x {
			x = root[x]
		}
		return x
	}
	for _, pr := range pairs {
		a, b := content[scored[pr[0]].Path], content[scored[pr[1]].Path]
		if a == nil || b == nil || Alike(a, b) < copyDice {
			continue
		}
		for _, i := range pr {
			if _, ok := root[i]; !ok {
				root[i] = i
			}
		}
		ra, rb := find(pr[0]), find(pr[1])
		root[max(ra, rb)] = min(ra, rb)
	}
	if len(root) == 0 {
		return scored
	}
	groups := map[int][]int{}
	for i := range scored {
		if _, ok := root[i]; ok {
			groups[find(i)] = append(groups[find(i)], i)
		}
	}
	keep := make([]bool, len(scored))
	for i := range keep {
		_, inGroup := root[i]
		keep[i] = !inGroup
	}
	for first, g := range groups {
		src := sourceOf(scored, g, files)
		var copies []string
		for _, i := range g {
			if i != src {
				copies = append(copies, scored[i].Path)
			}
		}
		s := scored[src]
		s.Score = scored[first].Score
		s.Why = append(s.Why, "copies of this file (the same lines, not ranked): "+strings.Join(copies, ", "))
		scored[first] = s
		keep[first] = true
	}
	out := scored[:0]
	for i, s := range scored {
		if keep[i] {
			out = append(out, s)
		}
	}
	return out
}

// sourceOf picks the source of a group of copies (see Copies).
func sourceOf(scored []Scored, g []int, files func(string) int) int {
	paths := make([]string, len(g))
	for k, i := range g {
		paths[k] = scored[i].Path
	}
	suffix := commonSuffix(paths)
	tree := func(i int) string {
		return strings.TrimSuffix(strings.TrimSuffix(scored[i].Path, suffix), "/")
	}
	best := g[0]
	for _, i := range g[1:] {
		ti, tb := tree(i), tree(best)
		if c := cmp.Or(cmp.Compare(files(tb), files(ti)), cmp.Compare(len(ti), len(tb)), strings.Compare(scored[i].Path, scored[best].Path)); c < 0 {
			best = i
		}
	}
	return best
}

// commonSuffix is the longest run of whole path components at the end of
// every path.
func commonSuffix(paths []string) string {
	parts := make([][]string, len(paths))
	for i, p := range paths {
		parts[i] = strings.Split(p, "/")
		slices.Reverse(parts[i])
	}
	var out []string
	for k := 0; ; k++ {
		for _, p := range parts {
			if k >= len(p) || p[k] != parts[0][k] {
				slices.Reverse(out)
				return strings.Join(out, "/")
			}
		}
		out = append(out, parts[0][k])
	}
}
