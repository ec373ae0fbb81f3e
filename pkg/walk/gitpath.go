package walk

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// dirState is what the git fast path knows of one directory.
type dirState struct {
	n       *node // non-git ignore tiers that apply inside it
	ignored bool  // excluded (or hidden): nothing below it is listed
}

// gitFast lists the root with git and applies the walker's own rules to
// the result. It returns the directories git does not list into (nested
// repositories, submodules), to be walked.
func (w *walker) gitFast() ([]job, error) {
	cmd := exec.CommandContext(w.ctx, "git", "-c", "core.excludesFile="+os.DevNull, "-c", "core.quotePath=off",
		"ls-files", "-co", "--exclude-standard", "-z")
	cmd.Dir = w.root
	// Hooks export GIT_DIR and friends; they must not redirect this call.
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k == "GIT_DIR" || k == "GIT_WORK_TREE" || k == "GIT_INDEX_FILE" ||
			k == "GIT_COMMON_DIR" || k == "GIT_PREFIX" || k == "GIT_NAMESPACE" || k == "GIT_OBJECT_DIRECTORY" {
			continue
		}
		cmd.Env = append(cmd.Env, kv)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
	}
	var list []string
	for len(out) > 0 {
		i := bytes.IndexByte(out, 0)
		if i < 0 {
			i = len(out)
		}
		if i > 0 {
			list = append(list, string(out[:i]))
		}
		out = out[min(i+1, len(out)):]
	}
	slices.Sort(list)
	list = slices.Compact(list) // unmerged paths appear once per stage

	// git has applied its rules; the nodes carry them anyway, but only so
	// that a '!' rule can un-hide a hidden entry, as in the walk.
	rootNode := w.rootNode
	dirs := map[string]*dirState{}
	r := &result{}
	var jobs []job
	var state func(rel string) *dirState
	state = func(rel string) *dirState {
		if d, ok := dirs[rel]; ok {
			return d
		}
		var d *dirState
		if rel == "." || rel == "" {
			d = &dirState{n: w.extend(rootNode, w.root, w.prefix, w.rootRepo, ignoreFilesIn(w.root))}
		} else {
			parent := state(path.Dir(rel))
			d = &dirState{ignored: parent.ignored}
			if !d.ignored {
				d.ignored = w.filtered(r, parent.n, rel, true)
			}
			d.n = parent.n
			if !d.ignored {
				d.n = w.extend(parent.n, w.abs(rel), joinRel(w.prefix, rel), false, ignoreFilesIn(w.abs(rel)))
			}
		}
		dirs[rel] = d
		return d
	}
	for _, rel := range list {
		if w.ctx.Err() != nil {
			return nil, w.ctx.Err()
		}
		rel = strings.TrimSuffix(rel, "/") // an untracked nested repository
		parent := state(path.Dir(rel))
		if parent.ignored || path.Base(rel) == ".git" {
			continue
		}
		abs := w.abs(rel)
		st, err := os.Lstat(abs)
		if err != nil {
			if !os.IsNotExist(err) { // deleted but still in the index: not in the tree
				w.unreadable(r, rel, err)
			}
			continue
		}
		typ := st.Mode().Type()
		if w.filtered(r, parent.n, rel, typ.IsDir()) {
			continue
		}
		switch {
		case typ.IsDir():
			// A submodule or a nested repository: walk it.
			jobs = append(jobs, job{abs: abs, rel: rel, parent: parent.n})
		case typ&fs.ModeSymlink != 0:
			w.symlink(r, abs, rel)
		case typ.IsRegular():
			if size := st.Size(); size > w.maxSize {
				r.skips = append(r.skips, Skip{Path: rel, Reason: ReasonTooLarge, SizeBytes: size,
					Detail: fmt.Sprintf("%d bytes over the %d-byte cap; not read", size, w.maxSize)})
				continue
			}
			r.files = append(r.files, File{Path: rel, Abs: abs, Size: st.Size(), ID: identOf(st)})
		default:
			r.skips = append(r.skips, special(rel, typ))
		}
	}
	w.results = append(w.results, r)
	return jobs, nil
}

func (w *walker) abs(rel string) string {
	return w.root + string(os.PathSeparator) + filepath.FromSlash(rel)
}

// filtered applies Excludes, the non-git ignore tiers in n and the hidden
// rule to an entry git listed, reporting it when asked to. Git's own
// rules count only as a '!' that un-hides: git has applied them already,
// and what it lists despite them (tracked files) stays listed.
func (w *walker) filtered(r *result, n *node, rel string, isDir bool) bool {
	mp := joinRel(w.prefix, rel)
	ignored, whitelisted, why := w.matchOwn(n, mp, isDir)
	if !ignored && !whitelisted && !w.o.Hidden {
		_, whitelisted, _ = matchGit(n, mp, isDir)
	}
	if !ignored && !whitelisted && !w.o.Hidden && path.Base(rel)[0] == '.' {
		ignored, why = true, "hidden"
	}
	if ignored && w.o.ReportIgnored {
		r.skips = append(r.skips, Skip{Path: rel, Reason: ReasonIgnored, Detail: why})
	}
	return ignored
}

// ignoreFilesIn reports which ignore files a directory holds.
func ignoreFilesIn(dir string) map[string]bool {
	var m map[string]bool
	for _, n := range []string{".gitignore", ".ignore", ".rtchignore"} {
		if st, err := os.Stat(filepath.Join(dir, n)); err == nil && st.Mode().IsRegular() {
			if m == nil {
				m = map[string]bool{}
			}
			m[n] = true
		}
	}
	return m
}
