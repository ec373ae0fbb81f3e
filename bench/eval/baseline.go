package main

import (
	"context"
	"path"
	"slices"
	"sort"
	"time"

	"github.com/rtch/rtch/pkg/bm25"
	"github.com/rtch/rtch/pkg/evalscore"
)

// baselineOptions configure the BM25 baseline.
type baselineOptions struct {
	// K1 and B are the BM25 parameters.
	K1 float64 `json:"k1"`
	B  float64 `json:"b"`
	// Exts limits the reference baseline to files with these extensions;
	// empty means the tree's main source language (mainLanguage).
	Exts []string `json:"exts,omitempty"`
}

// baselineResult holds the two BM25 rankings of one task's tree.
type baselineResult struct {
	// Ref ranks the non-test files of the tree's main source language, the
	// protocol of the reference numbers in shared/eval/README.md; RefFiles is
	// how many files it indexed and RefExts which extensions it kept.
	Ref      []string
	RefFiles int
	RefExts  []string
	// All ranks every file the pipeline's walker hands on, tests and docs
	// included: the same candidates the pipeline chooses from.
	All      []string
	AllFiles int
	// Seconds is the wall time of walking, indexing and ranking.
	Seconds float64
}

// sourceExts are the extensions that count as source code when the main
// language of a tree is chosen.
var sourceExts = []string{".go", ".py", ".js", ".ts", ".tsx", ".jsx", ".rs", ".java", ".kt", ".c", ".h",
	".cc", ".cpp", ".hpp", ".rb", ".php", ".cs", ".swift", ".scala"}

// mainLanguage returns the source extension most non-test files of the tree
// carry (ties broken by the order of sourceExts), or nil when none does.
func mainLanguage(files []sourceFile) []string {
	count := map[string]int{}
	for _, f := range files {
		if !evalscore.IsTestPath(f.Path) {
			count[path.Ext(f.Path)]++
		}
	}
	best := ""
	for _, e := range sourceExts {
		if count[e] > count[best] {
			best = e
		}
	}
	if best == "" {
		return nil
	}
	return []string{best}
}

// baselineTerms is the baseline's tokenizer: the shared identifier-aware
// bm25.Tokenize without English stopwords, and nothing more. It is pinned
// here rather than taken from bm25.Terms so that tuning the shared recall
// tokenizer (plural folding, say) cannot move the baseline the pipeline is
// measured against.
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

// runBaseline ranks the files of tree for the intent with plain BM25 over
// whole-file contents, baselineTerms for documents and query alike.
func runBaseline(ctx context.Context, tree, intent string, o baselineOptions) (baselineResult, error) {
	start := time.Now()
	files, _, err := treeFiles(ctx, tree)
	if err != nil {
		return baselineResult{}, err
	}
	exts := o.Exts
	if len(exts) == 0 {
		exts = mainLanguage(files)
	}
	p := bm25.Params{K1: o.K1, B: o.B}
	all, ref := bm25.New(p), bm25.New(p)
	var allPaths, refPaths []string
	for _, f := range files {
		terms := baselineTerms(f.Text)
		all.Add(terms)
		allPaths = append(allPaths, f.Path)
		if !evalscore.IsTestPath(f.Path) && slices.Contains(exts, path.Ext(f.Path)) {
			ref.Add(terms)
			refPaths = append(refPaths, f.Path)
		}
	}
	query := baselineTerms(intent)
	res := baselineResult{
		Ref: ranked(ref, refPaths, query), RefFiles: len(refPaths), RefExts: exts,
		All: ranked(all, allPaths, query), AllFiles: len(allPaths),
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// ranked returns the paths of the documents matching query, best first, ties
// broken by path so the order does not depend on walk order.
func ranked(ix *bm25.Index, paths []string, query []string) []string {
	rs := ix.Search(query, 0)
	sort.SliceStable(rs, func(i, j int) bool {
		if rs[i].Score != rs[j].Score {
			return rs[i].Score > rs[j].Score
		}
		return paths[rs[i].Doc] < paths[rs[j].Doc]
	})
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = paths[r.Doc]
	}
	return out
}
