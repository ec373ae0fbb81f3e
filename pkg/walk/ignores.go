package walk

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/rtch/rtch/pkg/ignore"
)

// node carries the ignore lists that apply inside one directory, deepest
// first within each tier.
type node struct {
	rtch, dot, git []*ignore.List
	exclude        *ignore.List // .git/info/exclude of the enclosing repository
	// repo: the directory lies in a git work tree. Only there do
	// .gitignore files count, as in ripgrep: outside a repository nothing
	// tells which files were committed, and an exported tree (git archive)
	// holds only committed ones.
	repo bool
}

// loadAncestors finds the enclosing git work tree when the root lies
// inside one below its top, and loads the ignore files of the directories
// between that top and the root, so that a zone root in a subdirectory
// sees the same rules git does.
func (w *walker) loadAncestors() {
	if hasGit(w.root) {
		w.rootRepo = true
		return
	}
	var chain []string
	top := ""
	for d := filepath.Dir(w.root); ; d = filepath.Dir(d) {
		chain = append(chain, d)
		if hasGit(d) {
			top = d
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if top == "" {
		return
	}
	rel, err := filepath.Rel(top, w.root)
	if err != nil {
		return
	}
	w.prefix = filepath.ToSlash(rel)
	w.top = top
	n := &node{exclude: w.infoExclude(top), repo: true}
	for i := len(chain) - 1; i >= 0; i-- {
		d := chain[i]
		base := ""
		if d != top {
			r, _ := filepath.Rel(top, d)
			base = filepath.ToSlash(r)
		}
		n = w.extend(n, d, base, false, ignoreFilesIn(d))
	}
	w.rootNode = n
}

func hasGit(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, ".git"))
	return err == nil
}

// infoExclude loads .git/info/exclude for the repository whose work tree
// is dir (ExcludeFile).
func (w *walker) infoExclude(dir string) *ignore.List {
	path := ExcludeFile(dir)
	if path == "" {
		return nil
	}
	b, err := readSmall(path)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			w.warnf(nil, "", "%s: not used: %v", path, err)
		}
		return nil
	}
	base := w.matchRel(dir)
	return ignore.Parse(b, base, filepath.ToSlash(filepath.Join(".git", "info", "exclude")))
}

// ExcludeFile is the path of the .git/info/exclude that applies to the work
// tree dir: under dir/.git, or under the git directory a "gitdir:" file
// there names (worktrees, submodules) and its commondir; "" when dir/.git
// is a file of another form or cannot be read.
func ExcludeFile(dir string) string {
	gitdir := filepath.Join(dir, ".git")
	if st, err := os.Stat(gitdir); err == nil && !st.IsDir() {
		b, err := readSmall(gitdir)
		if err != nil {
			return ""
		}
		line := strings.TrimSpace(string(b))
		if !strings.HasPrefix(line, "gitdir:") {
			return ""
		}
		g := strings.TrimSpace(strings.TrimPrefix(line, "gitdir:"))
		if !filepath.IsAbs(g) {
			g = filepath.Join(dir, g)
		}
		gitdir = g
		if c, err := readSmall(filepath.Join(gitdir, "commondir")); err == nil {
			cd := strings.TrimSpace(string(c))
			if !filepath.IsAbs(cd) {
				cd = filepath.Join(gitdir, cd)
			}
			gitdir = cd
		}
	}
	return filepath.Join(gitdir, "info", "exclude")
}

// maxIgnoreFile caps the size of an ignore file (and of git's small
// metadata files) the walker reads: a hostile tree must not make it load a
// 2 GiB .gitignore. Real ones are a few KiB.
const maxIgnoreFile = 4 << 20

// readSmall reads a small regular file with the same guards as Read: no
// symlink followed at the last step, no FIFO opened blocking, a size cap.
func readSmall(path string) ([]byte, error) {
	h, size, mode, err := openRead(path)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, errors.New("is a symlink; not followed")
		}
		return nil, err
	}
	defer h.close()
	if !mode.IsRegular() {
		return nil, errors.New("not a regular file")
	}
	if size > maxIgnoreFile {
		return nil, fmt.Errorf("%d bytes, over the %d-byte limit for ignore files", size, maxIgnoreFile)
	}
	buf := make([]byte, 0, size+1)
	for int64(len(buf)) <= maxIgnoreFile {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		k, err := h.read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+k]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
	return nil, fmt.Errorf("grew over the %d-byte limit for ignore files", maxIgnoreFile)
}

// matchRel returns the path of an absolute directory relative to the
// matching root (the enclosing git top, or the walk root).
func (w *walker) matchRel(abs string) string {
	rel, err := filepath.Rel(w.top, abs)
	if err != nil || rel == "." {
		return ""
	}
	return filepath.ToSlash(rel)
}

func joinRel(a, b string) string {
	if a == "" {
		return b
	}
	if b == "" {
		return a
	}
	return a + "/" + b
}

// extend builds the node of directory dir (base: its path relative to the
// matching root) from its parent's, loading the ignore files it holds.
// repo marks a directory holding its own .git: git rules from above stop
// there, as they do for git and ripgrep.
func (w *walker) extend(parent *node, dir, base string, repo bool, present map[string]bool) *node {
	n := *parent
	if repo {
		n.git = nil
		n.exclude = w.infoExclude(dir)
		n.repo = true
	}
	load := func(name string, tier []*ignore.List) []*ignore.List {
		if !present[name] {
			return tier
		}
		b, err := readSmall(filepath.Join(dir, name))
		if err != nil {
			w.warnf(nil, joinRel(base, name), "%s: not used: %v", quote(joinRel(base, name)), err)
			return tier
		}
		l := ignore.Parse(b, base, joinRel(base, name))
		if len(l.Patterns) == 0 {
			return tier
		}
		out := make([]*ignore.List, 0, len(tier)+1)
		out = append(out, l)
		return append(out, tier...)
	}
	if n.repo {
		n.git = load(".gitignore", n.git)
	}
	n.dot = load(".ignore", n.dot)
	n.rtch = load(".rtchignore", n.rtch)
	return &n
}

// match decides whether path (relative to the matching root) is ignored.
// Tiers in order of precedence: the Excludes option, .rtchignore, .ignore,
// then git's rules (.gitignore deepest first, then info/exclude). Within
// a tier the deepest file that matches decides; within a file, the last
// matching line. whitelisted reports a decisive '!' match.
func (w *walker) match(n *node, path string, isDir bool) (ignored, whitelisted bool, why string) {
	if ignored, whitelisted, why = w.matchOwn(n, path, isDir); ignored || whitelisted {
		return
	}
	return matchGit(n, path, isDir)
}

// matchOwn applies the tiers git does not know: Excludes, .rtchignore and
// .ignore.
func (w *walker) matchOwn(n *node, path string, isDir bool) (ignored, whitelisted bool, why string) {
	if p := w.excludes.Match(path, isDir); p != nil {
		return verdict(w.excludes, p)
	}
	for _, tier := range [][]*ignore.List{n.rtch, n.dot} {
		for _, l := range tier {
			if p := l.Match(path, isDir); p != nil {
				return verdict(l, p)
			}
		}
	}
	return false, false, ""
}

// matchGit applies git's rules: .gitignore files deepest first, then
// .git/info/exclude.
func matchGit(n *node, path string, isDir bool) (ignored, whitelisted bool, why string) {
	for _, l := range n.git {
		if p := l.Match(path, isDir); p != nil {
			return verdict(l, p)
		}
	}
	if p := n.exclude.Match(path, isDir); p != nil {
		return verdict(n.exclude, p)
	}
	return false, false, ""
}

func verdict(l *ignore.List, p *ignore.Pattern) (bool, bool, string) {
	return !p.Negate, p.Negate, fmt.Sprintf("%s:%d: %s", l.Source, p.Line, p.Text)
}
