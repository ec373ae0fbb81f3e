package main

import (
	"context"
	"sort"
	"sync"

	"github.com/rtch/rtch/pkg/walk"
)

// sourceFile is one file the baseline ranks.
type sourceFile struct {
	// Path is relative to the tree root, "/"-separated.
	Path string
	// Text is the file's content, decoded as the toolkit decodes it.
	Text string
}

// treeFiles returns the text files of root that the pipeline's walker hands on
// (pkg/walk with its defaults: ignore files honoured, hidden entries, symlinks,
// binary and oversize files skipped), in path order, so the baseline ranks the
// same files the pipeline sees. The count of skipped entries is returned too.
func treeFiles(ctx context.Context, root string) ([]sourceFile, int, error) {
	skipped := 0
	onSkip := func(walk.Skip) { skipped++ }
	o := walk.Options{Root: root}
	files, err := walk.Files(ctx, o, onSkip)
	if err != nil {
		return nil, 0, err
	}
	var mu sync.Mutex
	out := make([]sourceFile, 0, len(files))
	err = walk.Each(ctx, o, files, func(f walk.File, data []byte) error {
		text := walk.DecodeText(data)
		mu.Lock()
		out = append(out, sourceFile{Path: f.Path, Text: text})
		mu.Unlock()
		return nil
	}, onSkip)
	if err != nil {
		return nil, 0, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, skipped, nil
}
