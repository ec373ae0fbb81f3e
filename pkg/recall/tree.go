package recall

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/rtch/rtch/pkg/atomicfile"
	"github.com/rtch/rtch/pkg/secret"
)

// TreeIdentity names the tree a wiki is refreshed from, to which a shared
// PostgreSQL index binds the wiki's name (pgfts.Options.Tree): clones of one
// repository must share a wiki, two repositories that happen to use one name
// must not overwrite each other.
//
// In a git work tree it is "git:" and the root commit HEAD reaches by first
// parents — every clone of the repository has it, another repository has
// another, and merging an unrelated history into the branch keeps it —
// followed by "/" and root's path below the top level when root is not the
// top level, so two guild roots of one repository stay apart. A shallow
// clone cannot see that commit: TreeIdentity fails with *ShallowError
// rather than report another identity. Outside git, or before the first
// commit: "dir:", the host name, ":" and root's absolute path (its
// secrets masked, as the index masks page paths): such a tree shares with
// no other.
func TreeIdentity(ctx context.Context, root string) (string, error) {
	out, err := gitOut(ctx, root, "rev-parse", "--is-shallow-repository", "--show-prefix", "--show-toplevel", "--git-path", treeCache, "HEAD")
	f := strings.Split(out, "\n")
	if err != nil || len(f) != 5 {
		return dirIdentity(root), nil // outside git, or no commit yet
	}
	if f[0] == "true" {
		return "", &ShallowError{Root: root}
	}
	cache := f[3]
	if !filepath.IsAbs(cache) {
		// relative to root, as git sees it (links resolved, as in the top level)
		base, err := filepath.EvalSymlinks(root)
		if err != nil {
			base = root
		}
		cache = filepath.Join(base, cache)
	}
	commit, err := rootCommit(ctx, root, treeFile{top: f[2], path: cache}, f[4])
	if err != nil {
		return "", err
	}
	id := "git:" + commit
	if p := strings.TrimSuffix(f[1], "/"); p != "" {
		id += "/" + p
	}
	return id, nil
}

// treeCache is the file in the git directory (per worktree) that keeps the
// last HEAD and its root commit. Walking the first parents costs 0.1–0.2 s
// of CPU in a repository of 14,000–25,000 of them, once per HEAD instead of
// once per recall. It lives in the git directory because the work tree is
// the repository's to write: a cache there could name any root commit.
const treeCache = "guild-tree-identity"

// treeFile is the cache file's path and the work tree's top level, which
// its write may not leave.
type treeFile struct{ top, path string }

// save writes the cache through the confined writer when the git directory
// is inside the work tree (a clone's .git): a symlink planted there is
// never followed. A git directory elsewhere (a linked worktree, a gitfile)
// is not written at all: writes stay in the tree.
func (c treeFile) save(data []byte) {
	rel, err := filepath.Rel(c.top, c.path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return
	}
	_ = atomicfile.WriteBeneath(c.top, rel, data, 0o644) // a cache: a refused or failed write costs the next walk
}

// rootCommit is the root commit head reaches by first parents, from the
// cache when it was written for head.
func rootCommit(ctx context.Context, root string, cache treeFile, head string) (string, error) {
	if b, err := os.ReadFile(cache.path); err == nil {
		if h, r, ok := strings.Cut(strings.TrimSpace(string(b)), " "); ok && h == head && isObjectName(r) {
			return r, nil
		}
	}
	out, err := gitOut(ctx, root, "rev-list", "--first-parent", "--max-parents=0", head)
	if err != nil {
		return "", fmt.Errorf("%s: the root commit names the tree to the shared wiki index: %w", root, err)
	}
	r, _, _ := strings.Cut(out, "\n")
	if !isObjectName(r) {
		return "", fmt.Errorf("%s: git rev-list gave no root commit of HEAD (%q)", root, out)
	}
	cache.save([]byte(head + " " + r + "\n"))
	return r, nil
}

// isObjectName reports a full SHA-1 or SHA-256 object name.
func isObjectName(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// ShallowError is a shallow clone, whose root commit git cannot see.
type ShallowError struct{ Root string }

func (e *ShallowError) Error() string {
	return fmt.Sprintf("%s is a shallow git clone: its root commit, which names the tree to the shared wiki index, is not fetched", e.Root)
}

// Hint tells how to get the history.
func (e *ShallowError) Hint() string {
	return "git fetch --unshallow (or clone with the whole history, e.g. fetch-depth: 0 in CI)"
}

// gitOut runs git in dir and returns its trimmed standard output.
func gitOut(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
	out, err := cmd.Output()
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// dirIdentity is a tree outside git: this host and the root's absolute
// path.
func dirIdentity(root string) string {
	abs, err := filepath.Abs(root)
	if err == nil {
		if r, err := filepath.EvalSymlinks(abs); err == nil {
			abs = r
		}
	}
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "unknown-host"
	}
	return "dir:" + host + ":" + secret.Path(filepath.ToSlash(abs))
}
