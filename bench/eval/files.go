package main

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// maxFileBytes is the walker's default size cap (SPEC §4): larger files are
// skipped by the pipeline, so the baseline skips them too.
const maxFileBytes = 1 << 20

// sourceFile is one file the baseline ranks.
type sourceFile struct {
	// Path is relative to the tree root, "/"-separated.
	Path string
	// Text is the file's content.
	Text []byte
}

// treeFiles returns the regular text files under root in path order, with the
// rules of the toolkit's walker that matter for a tree extracted from git: .git
// skipped, symlinks not followed, binary files (a NUL byte in the first 8 KiB)
// and files over 1 MiB skipped. Ignore files are not consulted: a tree from git
// archive holds tracked files only.
func treeFiles(ctx context.Context, root string) ([]sourceFile, error) {
	var out []sourceFile
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if d.IsDir() {
			if d.Name() == ".git" && p != root {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.Size() > maxFileBytes {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		text, err := io.ReadAll(f)
		f.Close()
		if err != nil {
			return err
		}
		if bytes.IndexByte(text[:min(len(text), 8<<10)], 0) >= 0 {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		out = append(out, sourceFile{Path: filepath.ToSlash(rel), Text: text})
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, err
}
