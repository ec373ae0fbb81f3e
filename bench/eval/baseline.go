package main

import (
	"context"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/rtch/rtch/pkg/evalscore"
)

// baselineOptions configure the BM25 baseline.
type baselineOptions struct {
	// K1 and B are the BM25 parameters.
	K1, B float64
	// SkipTests leaves test files (evalscore.IsTestPath) out of the ranking.
	SkipTests bool
	// Exts, when not empty, limits the ranking to files with these extensions.
	Exts []string
}

// baselineResult is the BM25 ranking of one task's tree.
type baselineResult struct {
	// Ranked holds every file with a positive score, best first.
	Ranked []string
	// Files is the number of files indexed.
	Files int
	// Seconds is the wall time of walking, indexing and ranking.
	Seconds float64
}

// runBaseline ranks the files of tree for the intent with plain BM25 over
// whole-file contents.
func runBaseline(ctx context.Context, tree, intent string, o baselineOptions) (baselineResult, error) {
	start := time.Now()
	files, err := treeFiles(ctx, tree)
	if err != nil {
		return baselineResult{}, err
	}
	idx := evalscore.NewBM25(o.K1, o.B)
	for _, f := range files {
		if o.SkipTests && evalscore.IsTestPath(f.Path) {
			continue
		}
		if len(o.Exts) > 0 && !slices.Contains(o.Exts, path.Ext(f.Path)) {
			continue
		}
		idx.Add(f.Path, evalscore.Tokenize(strings.ToValidUTF8(string(f.Text), "\uFFFD")))
	}
	scored := idx.Rank(evalscore.Tokenize(intent))
	res := baselineResult{Files: idx.Len()}
	for _, s := range scored {
		res.Ranked = append(res.Ranked, s.ID)
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}
