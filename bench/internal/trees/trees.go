// Package trees finds the git directories of task repositories and
// materialises their trees at a commit, for the tools that run the lane on
// real repositories (bench/eval, bench/traincorpus).
package trees

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// candidates lists the places under dir where the git directory or clone of
// "owner/name" may live, in the order they are tried. The first is the layout
// of a mirror store (owner+name/repo), the others the usual ways of keeping
// clones side by side.
func candidates(dir, repo string) []string {
	owner, name, _ := strings.Cut(repo, "/")
	plus := owner + "+" + name
	return []string{
		filepath.Join(dir, plus, "repo"),
		filepath.Join(dir, plus),
		filepath.Join(dir, plus+".git"),
		filepath.Join(dir, owner, name),
		filepath.Join(dir, owner, name+".git"),
		filepath.Join(dir, owner+"__"+name),
		filepath.Join(dir, owner+"__"+name+".git"),
		filepath.Join(dir, name),
		filepath.Join(dir, name+".git"),
	}
}

// FindGitDir returns the git directory of repo under dir: a bare repository
// (HEAD and objects/ inside) or a clone (a .git entry inside, directory or
// gitfile). A plain directory that merely sits inside some other repository is
// never taken for the repository itself.
func FindGitDir(dir, repo string) (string, error) {
	cands := candidates(dir, repo)
	for _, c := range cands {
		if _, err := os.Stat(filepath.Join(c, ".git")); err == nil {
			return filepath.Join(c, ".git"), nil
		}
		if isFile(filepath.Join(c, "HEAD")) && isDir(filepath.Join(c, "objects")) {
			return c, nil
		}
	}
	var rel []string
	for _, c := range cands {
		r, err := filepath.Rel(dir, c)
		if err != nil {
			r = c
		}
		rel = append(rel, r)
	}
	return "", fmt.Errorf("no git directory or clone of %s under %s (looked for %s)", repo, dir, strings.Join(rel, ", "))
}

func isFile(p string) bool { st, err := os.Stat(p); return err == nil && st.Mode().IsRegular() }
func isDir(p string) bool  { st, err := os.Stat(p); return err == nil && st.IsDir() }

// Materialiser extracts task trees with git archive into a cache keyed by
// repository and commit, and reuses what is already there.
type Materialiser struct {
	// Cache is the root of the tree cache.
	Cache string

	mu    sync.Mutex
	locks map[string]*sync.Mutex
}

// lock serialises work on one cache key inside this process; across processes
// the final rename decides who wins.
func (m *Materialiser) lock(key string) *sync.Mutex {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.locks == nil {
		m.locks = map[string]*sync.Mutex{}
	}
	l := m.locks[key]
	if l == nil {
		l = &sync.Mutex{}
		m.locks[key] = l
	}
	return l
}

// Tree returns the directory holding repo's tree at commit, extracting it with
// `git --git-dir=GITDIR archive COMMIT | tar -x` on first use. reused is true
// when the tree came from the cache. The extraction goes to a temporary
// sibling directory that is renamed into place only when complete, so an
// interrupted run never leaves a half tree that a later run would trust.
func (m *Materialiser) Tree(ctx context.Context, gitDir, repo, commit string) (dir string, reused bool, err error) {
	if !validCommit(commit) {
		return "", false, fmt.Errorf("commit %q is not a hex object name", commit)
	}
	key := strings.ReplaceAll(repo, "/", "+")
	dir = filepath.Join(m.Cache, key, commit)
	l := m.lock(dir)
	l.Lock()
	defer l.Unlock()
	if isDir(dir) {
		return dir, true, nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", false, err
	}
	var rnd [6]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return "", false, err
	}
	tmp := filepath.Join(filepath.Dir(dir), "."+commit+".tmp-"+hex.EncodeToString(rnd[:]))
	if err := os.Mkdir(tmp, 0o755); err != nil {
		return "", false, err
	}
	defer os.RemoveAll(tmp)
	if err := archive(ctx, gitDir, commit, tmp, nil); err != nil {
		// A mirror may lack the blobs of very large files (a partial
		// snapshot). Those files are over the walker's size cap and would be
		// skipped anyway, so the tree is extracted without them and the
		// omitted paths are listed beside it, never inside it.
		missing, merr := missingBlobs(ctx, gitDir, commit)
		if merr != nil || len(missing) == 0 {
			return "", false, fmt.Errorf("materialise %s@%s: %w", repo, commit, err)
		}
		if err := os.RemoveAll(tmp); err != nil {
			return "", false, err
		}
		if err := os.Mkdir(tmp, 0o755); err != nil {
			return "", false, err
		}
		if err := archive(ctx, gitDir, commit, tmp, missing); err != nil {
			return "", false, fmt.Errorf("materialise %s@%s without %d missing blobs: %w", repo, commit, len(missing), err)
		}
		note := strings.Join(missing, "\n") + "\n"
		if err := os.WriteFile(dir+".missing", []byte(note), 0o644); err != nil {
			return "", false, err
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another process may have finished the same tree first.
		if isDir(dir) {
			return dir, true, nil
		}
		return "", false, err
	}
	return dir, false, nil
}

func validCommit(c string) bool {
	if len(c) < 7 || len(c) > 64 {
		return false
	}
	_, err := hex.DecodeString(c[:len(c)&^1])
	return err == nil
}

// archive runs git archive COMMIT | tar -x -C dest, leaving out the paths in
// exclude.
func archive(ctx context.Context, gitDir, commit, dest string, exclude []string) error {
	args := []string{"--git-dir=" + gitDir, "archive", "--format=tar", commit}
	if len(exclude) > 0 {
		args = append(args, "--", ".")
		for _, p := range exclude {
			args = append(args, ":(exclude,literal)"+p)
		}
	}
	git := exec.CommandContext(ctx, "git", args...)
	tar := exec.CommandContext(ctx, "tar", "-x", "-f", "-", "-C", dest)
	var gitErr, tarErr bytes.Buffer
	git.Stderr, tar.Stderr = &gitErr, &tarErr
	pipe, err := git.StdoutPipe()
	if err != nil {
		return err
	}
	tar.Stdin = pipe
	if err := git.Start(); err != nil {
		return fmt.Errorf("git archive: %w", err)
	}
	if err := tar.Start(); err != nil {
		git.Process.Kill()
		git.Wait()
		return fmt.Errorf("tar: %w", err)
	}
	tarWait := tar.Wait()
	gitWait := git.Wait()
	switch {
	case gitWait != nil:
		return fmt.Errorf("git archive %s: %v: %s", commit, gitWait, strings.TrimSpace(gitErr.String()))
	case tarWait != nil:
		return fmt.Errorf("tar -x: %v: %s", tarWait, strings.TrimSpace(tarErr.String()))
	}
	return nil
}

// missingBlobs lists the paths of commit's tree whose blobs gitDir lacks.
func missingBlobs(ctx context.Context, gitDir, commit string) ([]string, error) {
	ls, err := exec.CommandContext(ctx, "git", "--git-dir="+gitDir, "ls-tree", "-r", "-z", commit).Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-tree %s: %w", commit, err)
	}
	var paths, objs []string
	for _, ent := range bytes.Split(ls, []byte{0}) {
		meta, p, ok := bytes.Cut(ent, []byte{'\t'})
		f := strings.Fields(string(meta))
		if !ok || len(f) != 3 || f[1] != "blob" {
			continue
		}
		paths = append(paths, string(p))
		objs = append(objs, f[2])
	}
	check := exec.CommandContext(ctx, "git", "--git-dir="+gitDir, "cat-file", "--batch-check=%(objectname)")
	check.Stdin = strings.NewReader(strings.Join(objs, "\n") + "\n")
	out, err := check.Output()
	if err != nil {
		return nil, fmt.Errorf("git cat-file --batch-check: %w", err)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != len(objs) {
		return nil, fmt.Errorf("git cat-file --batch-check: %d answers for %d objects", len(lines), len(objs))
	}
	var missing []string
	for i, l := range lines {
		if strings.HasSuffix(l, " missing") {
			missing = append(missing, paths[i])
		}
	}
	return missing, nil
}

// HasCommit reports whether gitDir holds commit.
func HasCommit(ctx context.Context, gitDir, commit string) error {
	out, err := exec.CommandContext(ctx, "git", "--git-dir="+gitDir, "cat-file", "-e", commit+"^{commit}").CombinedOutput()
	if err != nil {
		msg := strings.TrimSpace(string(out))
		if msg == "" {
			msg = err.Error()
		}
		return fmt.Errorf("%s has no commit %s: %s", gitDir, commit, msg)
	}
	return nil
}

// errNotDir is returned when --repos is not a directory.
var errNotDir = errors.New("not a directory")

func CheckDir(p string) error {
	st, err := os.Stat(p)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return &fs.PathError{Op: "stat", Path: p, Err: errNotDir}
	}
	return nil
}
