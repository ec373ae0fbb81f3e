package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/rtch/rtch/pkg/bm25"
	"github.com/rtch/rtch/pkg/fts"
	"github.com/rtch/rtch/pkg/wiki"
)

// The floor of the lexical design (--floor): what any ranking built from
// the words a question shares with its gold page could reach on these
// questions. Two measurements:
//
//   - overlap: does the gold page hold any of the question's terms, and is
//     one of them rare in the tree (on at most rareShare of its pages)? A
//     question whose gold page shares none, or only common terms, is out of
//     reach of any weighting of those words.
//   - variants: the ranking guild-recall's file-bm25 does (sections, BM25,
//     page demotion, ten chunks), re-implemented with its knobs open — BM25
//     k1 and b, weights of the title and heading fields, a bonus for query
//     terms adjacent in the section, idf raised to a power, whole pages
//     instead of sections — every combination scored on the tuning split,
//     the best reported on the held-out split, and the per-question oracle
//     (the best variant for each question, an upper bound no single
//     setting reaches).

// rareShare is the largest share of a tree's pages a term may be on and
// count as rare.
const rareShare = 0.1

// unit is one ranked unit of a tree: a section (or a whole page) with the
// counts of the question's terms by field.
type unit struct {
	page string
	// title, head, text are the counts of each question term (in question
	// term order) in the page's title and aliases, the heading path and
	// the text; the lengths are those fields' term counts.
	title, head, text    []int
	titleN, headN, textN int
	// adj counts occurrences of two consecutive question terms next to each
	// other, in question order.
	adj int
}

// variant is one setting of the ranking's knobs.
type variant struct {
	k1, b           float64
	wTitle, wHead   float64
	adjBonus        float64
	idfPow          float64
	pages           bool // whole pages instead of sections with demotion
	label           string
	mrrTune, mrrAll float64
}

// floorTree is one source's wiki, sectioned as recall sections it.
type floorTree struct {
	pages    []*wiki.Page
	pageTerm []map[string]bool // the distinct terms of each page
	pageDF   map[string]int
}

func loadFloorTree(root string) (*floorTree, error) {
	files, _, err := wiki.List(root, 0)
	if err != nil {
		return nil, err
	}
	t := &floorTree{pageDF: map[string]int{}}
	for _, f := range files {
		if !strings.HasPrefix(f.Path, "wiki/") {
			continue
		}
		p, _, err := wiki.Read(root, f)
		if err != nil {
			continue
		}
		seen := map[string]bool{}
		for _, s := range p.Sections {
			fts.EachSectionTerm(fts.NameOf(p), s.HeadingPath(), s.Text, func(x string) { seen[x] = true })
		}
		for x := range seen {
			t.pageDF[x]++
		}
		t.pages = append(t.pages, p)
		t.pageTerm = append(t.pageTerm, seen)
	}
	return t, nil
}

// overlapClass is "none", "common" or "rare": what the question's terms
// share with its best-sharing gold page.
func (t *floorTree) overlapClass(p pair) string {
	q := bm25.Unique(bm25.Terms(p.Question))
	class := "none"
	for i, pg := range t.pages {
		if !slices.Contains(p.Pages, pg.Path) {
			continue
		}
		for _, x := range q {
			if !t.pageTerm[i][x] {
				continue
			}
			if float64(t.pageDF[x]) <= rareShare*float64(len(t.pages)) {
				return "rare"
			}
			class = "common"
		}
	}
	return class
}

// units counts the question's terms in every section of the tree that
// holds one (a section holding none scores 0 under every variant), and
// returns the section statistics every variant needs.
func (t *floorTree) units(q []string) (secs []unit, st stats) {
	pos := map[string]int{}
	for i, x := range q {
		pos[x] = i
	}
	var sum [3]int
	for _, p := range t.pages {
		name := fts.NameOf(p)
		for j, s := range p.Sections {
			u := unit{page: p.Path, title: make([]int, len(q)), head: make([]int, len(q)), text: make([]int, len(q))}
			prev := -1
			count := func(field []int, n *int) func(string) {
				return func(x string) {
					*n++
					i, ok := pos[x]
					if ok {
						field[i]++
						if prev >= 0 && i == prev+1 {
							u.adj++
						}
						prev = i
					} else {
						prev = -1
					}
				}
			}
			bm25.EachTerm(name.Title, count(u.title, &u.titleN))
			for _, a := range name.Aliases {
				bm25.EachTerm(a, count(u.title, &u.titleN))
			}
			bm25.EachTerm(s.HeadingPath(), count(u.head, &u.headN))
			bm25.EachTerm(s.Text, count(u.text, &u.textN))
			st.n++
			sum[0] += u.titleN
			sum[1] += u.headN
			sum[2] += u.textN
			if j == 0 {
				st.pageLen[0] += float64(u.titleN)
			}
			st.pageLen[1] += float64(u.headN)
			st.pageLen[2] += float64(u.textN)
			if slices.ContainsFunc(q, func(x string) bool { i := pos[x]; return u.title[i]+u.head[i]+u.text[i] > 0 }) {
				secs = append(secs, u)
			}
		}
	}
	for i := range st.avg {
		st.avg[i] = float64(sum[i]) / float64(max(st.n, 1))
		st.pageLen[i] /= float64(max(len(t.pages), 1))
	}
	st.pages = len(t.pages)
	return secs, st
}

// stats are the collection statistics of a tree for BM25 over sections
// (n, avg) and over pages (pages, pageLen: average field lengths).
type stats struct {
	n, pages     int
	avg, pageLen [3]float64
}

// df is each question term's document frequency among units.
func df(us []unit, terms int) []int {
	out := make([]int, terms)
	for _, u := range us {
		for i := range out {
			if u.title[i]+u.head[i]+u.text[i] > 0 {
				out[i]++
			}
		}
	}
	return out
}

// pageUnits sums a tree's sections into pages (the title counted once).
func pageUnits(secs []unit) []unit {
	var out []unit
	at := map[string]int{}
	for _, s := range secs {
		i, ok := at[s.page]
		if !ok {
			at[s.page] = len(out)
			c := s
			c.head, c.text = slices.Clone(s.head), slices.Clone(s.text)
			out = append(out, c)
			continue
		}
		u := &out[i]
		for k := range s.head {
			u.head[k] += s.head[k]
			u.text[k] += s.text[k]
		}
		u.headN += s.headN
		u.textN += s.textN
		u.adj += s.adj
	}
	return out
}

// rankGold ranks the units under a variant as recall would answer (ten
// chunks, their distinct pages, the question's own page left out) and
// returns the 1-based rank of the first gold page, 0 when it is not there.
func rankGold(v variant, units []unit, st stats, p pair) int {
	n, avg := st.n, st.avg
	if v.pages {
		n, avg = st.pages, st.pageLen
	}
	var idf []float64
	if len(units) > 0 {
		for _, d := range df(units, len(units[0].text)) {
			idf = append(idf, math.Pow(bm25.IDF(d, n), v.idfPow))
		}
	}
	lenAvg := v.wTitle*avg[0] + v.wHead*avg[1] + avg[2]
	type scored struct {
		page  string
		score float64
	}
	ss := make([]scored, 0, len(units))
	for _, u := range units {
		dl := v.wTitle*float64(u.titleN) + v.wHead*float64(u.headN) + float64(u.textN)
		norm := v.k1 * (1 - v.b + v.b*dl/lenAvg)
		score := 0.0
		for i := range idf {
			tf := v.wTitle*float64(u.title[i]) + v.wHead*float64(u.head[i]) + float64(u.text[i])
			if tf > 0 {
				score += idf[i] * tf * (v.k1 + 1) / (tf + norm)
			}
		}
		if u.adj > 0 {
			score += v.adjBonus * math.Log1p(float64(u.adj))
		}
		ss = append(ss, scored{u.page, score})
	}
	sort.SliceStable(ss, func(i, j int) bool { return ss[i].score > ss[j].score })
	var chunks []string
	if v.pages {
		for _, s := range ss {
			chunks = append(chunks, s.page)
		}
	} else {
		// recall's diversify: three times the chunks, halved per better
		// chunk of the same page, the best ten kept
		ss = ss[:min(len(ss), 3*depth)]
		seen := map[string]int{}
		for i := range ss {
			k := seen[ss[i].page]
			seen[ss[i].page] = k + 1
			ss[i].score *= math.Pow(0.5, float64(k))
		}
		sort.SliceStable(ss, func(i, j int) bool { return ss[i].score > ss[j].score })
		for _, s := range ss[:min(len(ss), depth)] {
			chunks = append(chunks, s.page)
		}
	}
	return score(chunks, p).Rank
}

func variants() []variant {
	var out []variant
	for _, pages := range []bool{false, true} {
		for _, k1 := range []float64{0.6, 1.2, 1.5, 2.0} {
			for _, b := range []float64{0.3, 0.5, 0.75, 0.9} {
				for _, wt := range []float64{1, 2, 3} {
					for _, wh := range []float64{1, 2} {
						for _, adj := range []float64{0, 1} {
							for _, pw := range []float64{1, 2} {
								unit := "sections"
								if pages {
									unit = "pages"
								}
								out = append(out, variant{k1: k1, b: b, wTitle: wt, wHead: wh, adjBonus: adj, idfPow: pw, pages: pages,
									label: fmt.Sprintf("%s k1 %.1f b %.2f title×%g heading×%g adjacency %g idf^%g", unit, k1, b, wt, wh, adj, pw)})
							}
						}
					}
				}
			}
		}
	}
	return out
}

// floorQuestion is one question's measurements.
type floorQuestion struct {
	pair
	class string
	ranks []int // by variant
}

// floor measures the lexical floor over the pairs' wikis (built as
// evaluate builds them) and writes its report.
func floor(ctx context.Context, cfg runConfig, pairs []pair, w io.Writer, progress func(string)) error {
	vs := variants()
	var qs []floorQuestion
	for _, g := range groupBySource(pairs) {
		src, err := sourceOf(g[0])
		if err != nil {
			return err
		}
		pages, err := readTree(ctx, cfg.repos, src)
		if err != nil {
			return err
		}
		root := cfg.work + "/" + src.name() + "@" + src.Commit[:12]
		if err := writeWiki(root, pages); err != nil {
			return err
		}
		t, err := loadFloorTree(root)
		if err != nil {
			return err
		}
		for _, p := range g {
			fq := floorQuestion{pair: p, class: t.overlapClass(p), ranks: make([]int, len(vs))}
			q := bm25.Unique(bm25.Terms(p.Question))
			secs, st := t.units(q)
			pgs := pageUnits(secs)
			for i, v := range vs {
				us := secs
				if v.pages {
					us = pgs
				}
				fq.ranks[i] = rankGold(v, us, st, p)
			}
			qs = append(qs, fq)
		}
		progress(fmt.Sprintf("floor: %s: %d questions", src.Repo, len(g)))
	}
	printFloor(w, qs, vs)
	return nil
}

func rr(rank int) float64 {
	if rank == 0 {
		return 0
	}
	return 1 / float64(rank)
}

func printFloor(w io.Writer, qs []floorQuestion, vs []variant) {
	split := func(s string) []floorQuestion {
		var out []floorQuestion
		for _, q := range qs {
			if s == "" || q.Split == s {
				out = append(out, q)
			}
		}
		return out
	}
	tune, held := split("tune"), split("heldout")
	mrr := func(qs []floorQuestion, i int) float64 {
		s := 0.0
		for _, q := range qs {
			s += rr(q.ranks[i])
		}
		return s / float64(max(len(qs), 1))
	}
	at5 := func(qs []floorQuestion, i int) float64 {
		n := 0
		for _, q := range qs {
			if q.ranks[i] >= 1 && q.ranks[i] <= 5 {
				n++
			}
		}
		return 100 * float64(n) / float64(max(len(qs), 1))
	}
	// the variant recall runs: sections, k1 1.5, b 0.75, the heading path
	// twice (fts.EachSectionTerm)
	cur := slices.IndexFunc(vs, func(v variant) bool {
		return !v.pages && v.k1 == 1.5 && v.b == 0.75 && v.wTitle == 1 && v.wHead == 2 && v.adjBonus == 0 && v.idfPow == 1
	})
	best := 0
	for i := range vs {
		if mrr(tune, i) > mrr(tune, best) {
			best = i
		}
	}
	fmt.Fprintf(w, "## The lexical floor on %d questions\n\n", len(qs))
	fmt.Fprintf(w, "### What the question shares with its gold page\n\n")
	fmt.Fprintf(w, "| gold page shares | questions | share | MRR (recall's ranking) | recall@5 |\n|---|---|---|---|---|\n")
	for _, c := range []string{"none", "common", "rare"} {
		var cq []floorQuestion
		for _, q := range qs {
			if q.class == c {
				cq = append(cq, q)
			}
		}
		fmt.Fprintf(w, "| %s | %d | %.1f %% | %.3f | %.1f %% |\n", classLabel[c], len(cq), 100*float64(len(cq))/float64(len(qs)), mrr(cq, cur), at5(cq, cur))
	}
	fmt.Fprintf(w, "\n### %d variants of the ranking\n\n", len(vs))
	fmt.Fprintf(w, "| variant | MRR tune | MRR held out | MRR all | recall@5 all |\n|---|---|---|---|---|\n")
	for _, r := range []struct {
		name string
		i    int
	}{{"recall's ranking: " + vs[cur].label, cur}, {"best on the tuning split: " + vs[best].label, best}} {
		fmt.Fprintf(w, "| %s | %.3f | %.3f | %.3f | %.1f %% |\n", r.name, mrr(tune, r.i), mrr(held, r.i), mrr(qs, r.i), at5(qs, r.i))
	}
	// one knob at a time, from recall's ranking
	for i, v := range vs {
		if i != cur && oneKnob(v, vs[cur]) {
			fmt.Fprintf(w, "| one change: %s | %.3f | %.3f | %.3f | %.1f %% |\n", v.label, mrr(tune, i), mrr(held, i), mrr(qs, i), at5(qs, i))
		}
	}
	// the oracle: each question ranked by the variant best for it
	var orr, o5 float64
	for _, q := range qs {
		b := 0
		for _, r := range q.ranks {
			if r > 0 && (b == 0 || r < b) {
				b = r
			}
		}
		orr += rr(b)
		if b >= 1 && b <= 5 {
			o5++
		}
	}
	n := float64(len(qs))
	fmt.Fprintf(w, "| oracle: the best variant for each question | — | — | %.3f | %.1f %% |\n", orr/n, 100*o5/n)
}

var classLabel = map[string]string{
	"none":   "no term of the question",
	"common": "only terms on more than 10 % of the tree's pages",
	"rare":   "a term on at most 10 % of the tree's pages",
}

// oneKnob reports a variant that differs from base in exactly one knob.
func oneKnob(v, base variant) bool {
	diff := 0
	for _, d := range []bool{v.k1 != base.k1, v.b != base.b, v.wTitle != base.wTitle, v.wHead != base.wHead,
		v.adjBonus != base.adjBonus, v.idfPow != base.idfPow, v.pages != base.pages} {
		if d {
			diff++
		}
	}
	return diff == 1
}
