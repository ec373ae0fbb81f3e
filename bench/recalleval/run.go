package main

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/rtch/rtch/pkg/bm25"
	"github.com/rtch/rtch/pkg/guildconfig"
	"github.com/rtch/rtch/pkg/recall"
)

// depth is how many pages of a ranking count: guild-recall's default
// --limit (10 chunks) for the backends, the first 10 pages for the
// baseline.
const depth = 10

// system names, in report order.
const (
	sysBaseline = "bm25-pages"
	sysFile     = "file-bm25"
	sysSQLite   = "sqlite"
	sysPostgres = "postgres"
)

var allSystems = []string{sysBaseline, sysFile, sysSQLite, sysPostgres}

// answer is what one system ranked for one question: the distinct pages of
// its result, best first, the question's own page left out.
type answer struct {
	Pages []string `json:"pages"`
	// Rank is the 1-based position in Pages of the first gold page, 0 when
	// none is there.
	Rank int `json:"rank"`
}

// outcome is one question's answers by system.
type outcome struct {
	pair
	Answers map[string]answer `json:"answers"`
}

// runConfig is what evaluate needs besides the pairs.
type runConfig struct {
	repos, work string
	systems     []string
	// dsn is a database of the postgres server (postgres only).
	dsn string
	// now pins page expiry, so runs are comparable.
	now time.Time
}

// evaluate builds each source's wiki and asks every question of every
// system.
func evaluate(ctx context.Context, cfg runConfig, pairs []pair, progress func(string)) ([]outcome, error) {
	var out []outcome
	for _, g := range groupBySource(pairs) {
		src, err := sourceOf(g[0])
		if err != nil {
			return nil, err
		}
		pages, err := readTree(ctx, cfg.repos, src)
		if err != nil {
			return nil, err
		}
		if err := checkPairs(g, pages); err != nil {
			return nil, err
		}
		root := filepath.Join(cfg.work, src.name()+"@"+src.Commit[:12])
		if err := writeWiki(root, pages); err != nil {
			return nil, err
		}
		base := baselineIndex(pages)
		for _, p := range g {
			o := outcome{pair: p, Answers: map[string]answer{}}
			for _, sys := range cfg.systems {
				var ranked []string
				if sys == sysBaseline {
					ranked = base.rank(p.Question)
				} else if ranked, err = recallPages(ctx, cfg, src, root, sys, p.Question); err != nil {
					return nil, fmt.Errorf("%s: %s: %q: %w", src.Repo, sys, p.Question, err)
				}
				o.Answers[sys] = score(ranked, p)
			}
			out = append(out, o)
		}
		progress(fmt.Sprintf("%s: %d pages, %d questions", src.Repo, len(pages), len(g)))
	}
	return out, nil
}

// groupBySource splits the pairs by repository and commit, in order of
// first appearance.
func groupBySource(pairs []pair) [][]pair {
	idx := map[string]int{}
	var out [][]pair
	for _, p := range pairs {
		k := p.Repo + "@" + p.Commit
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], p)
	}
	return out
}

// sourceOf finds the source definition a pair was built from.
func sourceOf(p pair) (source, error) {
	for _, s := range sources {
		if s.Repo == p.Repo && s.Commit == p.Commit {
			return s, nil
		}
	}
	return source{}, fmt.Errorf("pair %s: no source %s@%s in sources.go; rebuild the pair list", p.ID, p.Repo, p.Commit)
}

// checkPairs makes sure every pair's pages are pages of the tree.
func checkPairs(ps []pair, pages []docPage) error {
	have := map[string]bool{}
	for _, p := range pages {
		have[wikiPath(p.Rel)] = true
	}
	for _, p := range ps {
		for _, f := range append([]string{p.From}, p.Pages...) {
			if !have[f] {
				return fmt.Errorf("pair %s: %s is not a page of %s@%s", p.ID, f, p.Repo, p.Commit)
			}
		}
	}
	return nil
}

// recallPages asks guild-recall's package (the code every backend of the
// binary runs) with the mechanism forced and returns the pages of its wiki
// chunks in order.
func recallPages(ctx context.Context, cfg runConfig, src source, root, sys, q string) ([]string, error) {
	set := guildconfig.Defaults()
	set.Mechanism = sys
	if sys == sysPostgres {
		set.Backend, set.DSN, set.Wiki = sysPostgres, cfg.dsn, src.name()
	}
	res, err := recall.Recall(ctx, recall.Options{Root: root, Query: q, Limit: depth, Settings: set, Now: cfg.now, Tool: "recalleval"})
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, c := range res.Chunks {
		paths = append(paths, c.SourcePath)
	}
	return paths, nil
}

// score reduces a ranking of paths (pages, or chunks named by their page)
// to its distinct pages without the question's own page, cut at depth,
// and finds the gold page in it.
func score(ranked []string, p pair) answer {
	var a answer
	seen := map[string]bool{p.From: true}
	for _, r := range ranked {
		if seen[r] {
			continue
		}
		seen[r] = true
		a.Pages = append(a.Pages, r)
		if a.Rank == 0 && slices.Contains(p.Pages, r) {
			a.Rank = len(a.Pages)
		}
		if len(a.Pages) == depth {
			break
		}
	}
	return a
}

// baseline is plain BM25 over whole pages (k1 1.2, b 0.75, identifier-aware
// tokens without stopwords, nothing else): the reference every backend is
// measured against, in the same run. Its tokenizer is pinned here, so a
// change to the recall tokenizer cannot move it.
type baseline struct {
	ix    *bm25.Index
	paths []string
}

func baselineIndex(pages []docPage) *baseline {
	b := &baseline{ix: bm25.New(bm25.Baseline)}
	for _, p := range pages {
		b.ix.Add(baselineTerms(string(p.Data)))
		b.paths = append(b.paths, wikiPath(p.Rel))
	}
	return b
}

// rank returns the pages best first (more than depth, so that the
// question's own page can be left out).
func (b *baseline) rank(q string) []string {
	var out []string
	for _, r := range b.ix.Search(baselineTerms(q), depth+1) {
		out = append(out, b.paths[r.Doc])
	}
	return out
}

func baselineTerms(s string) []string {
	toks := bm25.Tokenize(s)
	out := toks[:0]
	for _, t := range toks {
		if !bm25.Stopwords[t] {
			out = append(out, t)
		}
	}
	return out
}
