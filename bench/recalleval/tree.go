package main

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// docPage is one Markdown page of a documentation tree.
type docPage struct {
	// Rel is the path below the source's Root.
	Rel string
	// Data is the file's bytes.
	Data []byte
}

// wikiPath is where a documentation page lives in the guild wiki built from
// its tree: under wiki/, with .mdx pages stored as .md.
func wikiPath(rel string) string {
	if strings.HasSuffix(rel, ".mdx") {
		rel = strings.TrimSuffix(rel, "x")
	}
	return "wiki/" + rel
}

// gitDir finds the bare repository or clone of repo under dir: the
// mirror-store layout OWNER+NAME/repo, or OWNER+NAME, OWNER+NAME.git,
// OWNER/NAME, OWNER/NAME.git.
func gitDir(dir, repo string) (string, error) {
	owner, name, _ := strings.Cut(repo, "/")
	plus := owner + "+" + name
	for _, c := range []string{
		filepath.Join(dir, plus, "repo"), filepath.Join(dir, plus), filepath.Join(dir, plus+".git"),
		filepath.Join(dir, owner, name), filepath.Join(dir, owner, name+".git"),
	} {
		if st, err := os.Stat(filepath.Join(c, ".git")); err == nil && st.IsDir() {
			return filepath.Join(c, ".git"), nil
		}
		if st, err := os.Stat(filepath.Join(c, "objects")); err == nil && st.IsDir() {
			return c, nil
		}
	}
	return "", fmt.Errorf("no git directory of %s under %s; get it with: git clone --bare https://github.com/%s %s",
		repo, dir, repo, filepath.Join(dir, plus, "repo"))
}

// readTree returns the Markdown pages (.md, .mdx) of src's documentation at
// its commit, sorted by path, read from the repository with git archive.
func readTree(ctx context.Context, reposDir string, src source) ([]docPage, error) {
	gd, err := gitDir(reposDir, src.Repo)
	if err != nil {
		return nil, err
	}
	args := []string{"--git-dir=" + gd, "archive", "--format=tar", src.Commit}
	// Only the pages are asked for: a partial mirror may lack the blobs
	// of large assets next to them.
	root := src.Root
	if root != "" {
		root += "/"
	}
	args = append(args, "--", ":(glob)"+root+"**/*.md*")
	cmd := exec.CommandContext(ctx, "git", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git archive %s@%s: %v: %s", src.Repo, src.Commit, err, strings.TrimSpace(stderr.String()))
	}
	var pages []docPage
	seen := map[string]bool{}
	tr := tar.NewReader(bytes.NewReader(out))
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("git archive %s@%s: %w", src.Repo, src.Commit, err)
		}
		rel, ok := docRel(src, h)
		if !ok {
			continue
		}
		if seen[wikiPath(rel)] {
			continue // foo.mdx beside foo.md: the .md page is kept
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			return nil, err
		}
		seen[wikiPath(rel)] = true
		pages = append(pages, docPage{Rel: rel, Data: data})
	}
	sort.Slice(pages, func(i, j int) bool { return pages[i].Rel < pages[j].Rel })
	return pages, nil
}

// docRel is a tar entry's path below src.Root when it is a documentation
// page: a regular .md or .mdx file outside the excluded directories.
func docRel(src source, h *tar.Header) (string, bool) {
	if h.Typeflag != tar.TypeReg {
		return "", false
	}
	rel := h.Name
	if src.Root != "" {
		var ok bool
		if rel, ok = strings.CutPrefix(rel, src.Root+"/"); !ok {
			return "", false
		}
	}
	if ext := path.Ext(rel); ext != ".md" && ext != ".mdx" {
		return "", false
	}
	return rel, !excluded(src, rel)
}

// excluded reports a page below one of src.Exclude's directories; a
// pattern (path.Match syntax) is matched against as many leading path
// elements as it has.
func excluded(src source, rel string) bool {
	elems := strings.Split(rel, "/")
	for _, x := range src.Exclude {
		n := strings.Count(x, "/") + 1
		if n >= len(elems) {
			continue
		}
		if ok, _ := path.Match(x, strings.Join(elems[:n], "/")); ok {
			return true
		}
	}
	return false
}

// writeWiki writes the pages as a guild project under dir (wiki/ and an
// empty .guild/), replacing an earlier copy only when the pages differ.
func writeWiki(dir string, pages []docPage) error {
	stamp := filepath.Join(dir, ".guild", "recalleval-pages")
	want := pageListDigest(pages)
	if got, err := os.ReadFile(stamp); err == nil && string(got) == want {
		return nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	for _, p := range pages {
		dst := filepath.Join(dir, filepath.FromSlash(wikiPath(p.Rel)))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, p.Data, 0o644); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Dir(stamp), 0o755); err != nil {
		return err
	}
	return os.WriteFile(stamp, []byte(want), 0o644)
}
