package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// publicBase is where the sources' repositories are public: a source
// OWNER/NAME is fetched from publicBase + "/OWNER/NAME".
const publicBase = "https://github.com"

// fetchMissing makes a bare repository holding the commit of every source
// of the pairs that has no git directory under repos: repos/OWNER+NAME/repo,
// filled by one shallow fetch of exactly that commit from base/OWNER/NAME.
// A partly fetched repository is removed, so a later run starts over.
func fetchMissing(ctx context.Context, repos, base string, pairs []pair, progress func(string)) error {
	for _, g := range groupBySource(pairs) {
		p := g[0]
		if _, err := gitDir(repos, p.Repo); err == nil {
			continue
		}
		url := strings.TrimSuffix(base, "/") + "/" + p.Repo
		progress(fmt.Sprintf("fetching %s@%s from %s", p.Repo, p.Commit[:12], url))
		if err := fetchCommit(ctx, filepath.Join(repos, source{Repo: p.Repo}.name(), "repo"), url, p.Commit); err != nil {
			return fmt.Errorf("fetch %s@%s from %s: %w", p.Repo, p.Commit, url, err)
		}
	}
	return nil
}

// fetchCommit creates the bare repository dir and fetches commit from url
// into it, at depth 1.
func fetchCommit(ctx context.Context, dir, url, commit string) error {
	part := dir + ".part"
	if err := os.RemoveAll(part); err != nil {
		return err
	}
	steps := [][]string{
		{"init", "--quiet", "--bare", part},
		{"--git-dir=" + part, "fetch", "--quiet", "--depth=1", "--no-tags", url, commit},
		{"--git-dir=" + part, "update-ref", "refs/recalleval/source", commit},
	}
	for _, args := range steps {
		cmd := exec.CommandContext(ctx, "git", args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			os.RemoveAll(part)
			return fmt.Errorf("git %s: %v: %s", args[len(args)-2], err, strings.TrimSpace(stderr.String()))
		}
	}
	return os.Rename(part, dir)
}
