package zone

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/rtch/rtch/pkg/walk"
)

// discovery keeps, for the life of the process, what git said of where a
// directory stands (its work tree's top, whether it is inside one), so that
// a long-lived host (rtch-mcp) asking on every call does not run git for
// it every time. Git finds a work tree from the ".git" entries of the
// directory and its ancestors and from its GIT_* environment; an answer is
// reused while the Lstat of every such entry (absent, or its mode, size,
// mtime and inode) and that environment are as they were. Git renames
// files into .git on every commit, add or checkout, which moves the
// directory's mtime; an entry changed within walk.RacyWindow is not
// trusted. A bare repository made out of an ancestor directory (HEAD,
// objects and refs created in it) is not seen.
var discovery sync.Map // discoveryKey -> discovered

type discoveryKey struct {
	dir  string
	args string
}

type discovered struct {
	marks string
	out   string
	err   error
}

// runGit runs git, and now is the clock the racy rule reads; tests change
// both.
var (
	runGit = git
	now    = time.Now
)

// discover is runGit(ctx, dir, args...) for a discovery question, answered
// again while dir's .git marks stand.
func discover(ctx context.Context, dir string, args ...string) (string, error) {
	k := discoveryKey{dir, strings.Join(args, "\x00")}
	marks := gitMarks(dir)
	if v, ok := discovery.Load(k); ok && marks != "" && v.(discovered).marks == marks {
		d := v.(discovered)
		return d.out, d.err
	}
	out, err := runGit(ctx, dir, args...)
	if marks != "" && ctx.Err() == nil {
		discovery.Store(k, discovered{marks, out, err})
	}
	return out, err
}

// gitMarks describes what git's discovery reads for dir: the environment
// that steers it and the .git entry of dir and of each ancestor. It is ""
// (not to be trusted) when an entry is racy (see markPaths).
func gitMarks(dir string) string {
	var b strings.Builder
	for _, e := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM"} {
		fmt.Fprintf(&b, "%s=%s\x00", e, os.Getenv(e))
	}
	var entries []string
	for d := dir; ; d = filepath.Dir(d) {
		entries = append(entries, filepath.Join(d, ".git"))
		if filepath.Dir(d) == d {
			break
		}
	}
	if !markPaths(&b, entries) {
		return ""
	}
	return b.String()
}

// markPaths writes the Lstat identity of each path to b (absent, or its
// path, mode, size and walk.Ident) and reports false when one is racy
// (walk.File.Racy: no identity, or changed within walk.RacyWindow), as a
// timestamp tick could then hide a change.
func markPaths(b *strings.Builder, paths []string) bool {
	t := now()
	for _, p := range paths {
		st, err := os.Lstat(p)
		if err != nil {
			b.WriteString("-\x00")
			continue
		}
		f := walk.File{Size: st.Size(), ID: walk.IdentOf(st)}
		if f.Racy(t) {
			return false
		}
		fmt.Fprintf(b, "%s %v %d %+v\x00", p, st.Mode(), f.Size, f.ID)
	}
	return true
}
