package zone

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/rtch/rtch/pkg/schema"
)

// GitCache keeps the git snapshot of one watched work tree for a
// long-lived host (rtch-mcp), so that a call on an unchanged tree does not
// run `git status` and its two companions again (about 0.1 s of wall and
// more of CPU on a 13,000-file checkout). What git reads to answer falls
// in two parts, and a kept snapshot is handed on while both stand:
//
//   - the work tree, which the host's watcher follows: Version moves on
//     whenever anything below Root changed;
//   - git's own state, which nothing watches: the .git directory and the
//     files in it that status, HEAD and the branch come from (index, HEAD,
//     the branch's ref, packed-refs, the repository's configuration and
//     info files), every configuration file git said it read (includes
//     too) with the excludes and attributes files they name, and git's
//     environment. Each is compared by its Lstat identity (absent, or
//     mode, size, mtime, ctime and inode); one changed within
//     walk.RacyWindow vouches for nothing.
//
// It answers only for the top of a work tree whose git directory is a
// plain .git directory there, without submodules (their state lies in
// other git directories): anywhere else every call asks git, as a shell's
// run does.
type GitCache struct {
	// Root is the directory the watcher follows.
	Root string
	// Version is the watched tree's version (snapshot.Tree.Version) and
	// whether a watcher vouches for it.
	Version func(ctx context.Context) (v uint64, watched bool, err error)

	mu   sync.Mutex
	kept *keptGit
	// Runs counts the snapshots taken from git, for tests.
	Runs int
}

// keptGit is one snapshot with what it stood on.
type keptGit struct {
	dir      string
	maxLines int
	version  uint64
	deps     []string // configuration, excludes and attributes files
	marks    string
	snap     *schema.GitSnapshot
}

// snapshot is Snapshot(ctx, dir, maxLines) through the cache.
func (c *GitCache) snapshot(ctx context.Context, dir string, maxLines int) (*schema.GitSnapshot, error) {
	if !c.answersFor(dir) {
		return Snapshot(ctx, dir, maxLines)
	}
	v, watched, err := c.Version(ctx)
	if err != nil || !watched {
		return Snapshot(ctx, dir, maxLines)
	}
	if snap := c.keptAt(dir, maxLines, v); snap != nil {
		return snap, nil
	}
	return c.take(ctx, dir, maxLines, v)
}

// keptAt is the kept snapshot of dir at the tree's version v, if git's
// state still stands; nil otherwise.
func (c *GitCache) keptAt(dir string, maxLines int, v uint64) *schema.GitSnapshot {
	c.mu.Lock()
	k := c.kept
	c.mu.Unlock()
	if k == nil || k.dir != dir || k.maxLines != maxLines || k.version != v {
		return nil
	}
	if m := gitStateMarks(dir, k.deps); m == "" || m != k.marks {
		return nil
	}
	return cloneSnapshot(k.snap)
}

// take asks git and keeps the answer when git's state could be marked
// before it ran and the tree stayed at version v while it ran.
func (c *GitCache) take(ctx context.Context, dir string, maxLines int, v uint64) (*schema.GitSnapshot, error) {
	deps, err := configFiles(ctx, dir)
	if err != nil {
		return Snapshot(ctx, dir, maxLines)
	}
	marks := gitStateMarks(dir, deps)
	if mayHoldGitlinks(dir) {
		marks = ""
	}
	snap, err := Snapshot(ctx, dir, maxLines)
	c.mu.Lock()
	c.Runs++
	c.mu.Unlock()
	if err != nil || snap == nil || marks == "" || ctx.Err() != nil {
		return snap, err
	}
	if after, still, err := c.Version(ctx); err != nil || !still || after != v {
		return snap, nil
	}
	c.mu.Lock()
	c.kept = &keptGit{dir: dir, maxLines: maxLines, version: v, deps: deps, marks: marks, snap: cloneSnapshot(snap)}
	c.mu.Unlock()
	return snap, nil
}

// answersFor says whether dir is a work tree's top the cache can vouch
// for: the watched root itself, holding a .git directory and no
// submodules.
func (c *GitCache) answersFor(dir string) bool {
	if c == nil || c.Version == nil || filepath.Clean(dir) != filepath.Clean(c.Root) {
		return false
	}
	for _, e := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY"} {
		if os.Getenv(e) != "" {
			return false
		}
	}
	if st, err := os.Lstat(filepath.Join(dir, ".git")); err != nil || !st.IsDir() {
		return false
	}
	for _, p := range []string{".gitmodules", filepath.Join(".git", "modules")} {
		if _, err := os.Lstat(filepath.Join(dir, p)); err == nil {
			return false
		}
	}
	return true
}

// gitlinkMode is a submodule entry's mode (0160000) as the index stores
// it, a big-endian 32-bit word.
var gitlinkMode = []byte{0, 0, 0xe0, 0}

// mayHoldGitlinks says whether the index may record a repository embedded
// without .gitmodules, whose commits status compares but whose git
// directory nobody watches: any occurrence of the gitlink mode's bytes
// says so (a false alarm only costs the cache), an unreadable index too.
func mayHoldGitlinks(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	return err != nil || bytes.Contains(b, gitlinkMode)
}

// repoFiles are the files of the .git directory a snapshot reads, beside
// the directory itself (git replaces each by a rename, which moves the
// directory's mtime) and the branch's loose ref.
var repoFiles = []string{"index", "HEAD", "packed-refs", "config", "config.worktree", "info/exclude", "info/attributes", "info/sparse-checkout", "refs/replace", "shallow"}

// gitStateMarks describes git's state for dir beside deps; "" when an
// entry is racy (markPaths).
func gitStateMarks(dir string, deps []string) string {
	var b strings.Builder
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "GIT_") || k == "HOME" || k == "XDG_CONFIG_HOME" {
			b.WriteString(kv + "\x00")
		}
	}
	gitDir := filepath.Join(dir, ".git")
	paths := []string{gitDir}
	for _, f := range repoFiles {
		paths = append(paths, filepath.Join(gitDir, filepath.FromSlash(f)))
	}
	if head, err := os.ReadFile(filepath.Join(gitDir, "HEAD")); err == nil {
		if ref, ok := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: "); ok {
			paths = append(paths, filepath.Join(gitDir, filepath.FromSlash(ref)))
		}
	}
	if !markPaths(&b, append(paths, deps...)) {
		return ""
	}
	return b.String()
}

// configFiles are the files outside the .git directory git's answers
// depend on for dir: every configuration file `git config --list
// --show-origin` names (includes too), the ones git would read were they
// there, the files include paths point to, and the excludes and
// attributes files the configuration names (or their defaults).
func configFiles(ctx context.Context, dir string) ([]string, error) {
	out, err := runGit(ctx, dir, "config", "--list", "--show-origin", "-z")
	if err != nil {
		return nil, err
	}
	home, xdg := os.Getenv("HOME"), os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	files := map[string]bool{}
	add := func(p string) {
		if p != "" {
			files[filepath.Clean(p)] = true
		}
	}
	for _, p := range []string{"/etc/gitconfig", os.Getenv("GIT_CONFIG_SYSTEM"), os.Getenv("GIT_CONFIG_GLOBAL")} {
		add(p)
	}
	if home != "" {
		add(filepath.Join(home, ".gitconfig"))
	}
	excludes, attributes := "", ""
	if xdg != "" {
		add(filepath.Join(xdg, "git", "config"))
		excludes, attributes = filepath.Join(xdg, "git", "ignore"), filepath.Join(xdg, "git", "attributes")
	}
	// -z: each entry is its origin, NUL, then key, newline, value, NUL.
	fields := strings.Split(out, "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		origin, entry := fields[i], fields[i+1]
		file, isFile := strings.CutPrefix(origin, "file:")
		if isFile && !filepath.IsAbs(file) {
			file = filepath.Join(dir, file)
		}
		if isFile {
			add(file)
		}
		key, value, _ := strings.Cut(entry, "\n")
		switch key = strings.ToLower(key); {
		case key == "core.excludesfile":
			excludes = configPath(value, home, dir)
		case key == "core.attributesfile":
			attributes = configPath(value, home, dir)
		case strings.HasSuffix(key, ".path") && (key == "include.path" || strings.HasPrefix(key, "includeif.")):
			base := dir
			if isFile {
				base = filepath.Dir(file)
			}
			add(configPath(value, home, base))
		}
	}
	add(excludes)
	add(attributes)
	deps := make([]string, 0, len(files))
	for f := range files {
		deps = append(deps, f)
	}
	sort.Strings(deps)
	return deps, nil
}

// configPath is a path value of git's configuration: "~/" is the home
// directory, a relative path is relative to base.
func configPath(v, home, base string) string {
	if rest, ok := strings.CutPrefix(v, "~/"); ok && home != "" {
		return filepath.Join(home, rest)
	}
	if v == "" || filepath.IsAbs(v) {
		return v
	}
	return filepath.Join(base, v)
}

func cloneSnapshot(s *schema.GitSnapshot) *schema.GitSnapshot {
	c := *s
	c.Status = append([]string{}, s.Status...)
	return &c
}
