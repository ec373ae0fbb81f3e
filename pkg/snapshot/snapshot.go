// Package snapshot keeps a tree's walk between the runs of a long-lived
// process (rtch-mcp): the listing walk.Files gave, with each file's
// identity, its skips and its warnings, is handed again to the next run as
// long as a watcher (pkg/watch) says nothing under the tree changed. A file
// edited in place is looked at again (lstat) and keeps its place with its
// new identity, so the tree index re-reads it; any other change (a file
// added, removed or renamed, a directory event, an ignore file, a path the
// listing does not hold) drops the listing, and the next run walks. A
// watcher that lost track is replaced and the tree walked again.
//
// Tree.Files has walk.Files' contract and gives the same result a walk
// would at that moment: the same files, skips and warnings in the same
// order.
package snapshot

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/rtch/rtch/pkg/pathenc"
	"github.com/rtch/rtch/pkg/walk"
	"github.com/rtch/rtch/pkg/watch"
)

// Stats count how the listings were served, for tests and diagnostics.
type Stats struct {
	// Walks are listings made by walking the tree.
	Walks int
	// Reused are listings handed on unchanged.
	Reused int
	// Patched are listings handed on after restating edited files.
	Patched int
	// Batches are watcher reports with changes; Events the events in them.
	Batches, Events int
	// Lost counts the times the watcher lost track; LastLost says why.
	Lost     int
	LastLost string
}

// Tree is one root's kept walk.
type Tree struct {
	root string
	wo   watch.Options
	// newWatcher starts the watcher (watch.New; a test stands in a kernel
	// without inotify).
	newWatcher func(string, watch.Options) (*watch.Watcher, error)

	mu    sync.Mutex
	w     *watch.Watcher // nil until the first listing, or when it cannot run
	lists map[string]*listing
	stats Stats
	// noWatch says watching failed to start: every listing walks.
	noWatch string
	// version counts the changes seen: it moves on every batch with
	// changes, every lost track and every new watcher.
	version uint64
}

// listing is what one walk gave.
type listing struct {
	files []walk.File
	skips []walk.Skip
	warns []string
	// maxSize is the walk's size cap, for restating.
	maxSize int64
	// patched: files were restated since the listing was last handed on.
	patched bool
}

// New keeps listings of root; wo configures its watcher. Unless wo.Above
// names them, the directories whose ignore files the walk reads above the
// root (up to the enclosing git work tree's top) are watched too.
func New(root string, wo watch.Options) (*Tree, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if wo.Above == nil {
		wo.Above = ignoredAbove(abs)
	}
	return &Tree{root: abs, wo: wo, newWatcher: watch.New, lists: map[string]*listing{}}, nil
}

// ignoredAbove are the directories outside root whose ignore files the
// walk reads (walk.Files, loadAncestors): those between root and the top of
// the git work tree it lies in, the top included, when root is below that
// top, and the directory of the .git/info/exclude that applies
// (walk.ExcludeFile) when it is not inside root (a worktree's, or the top's
// when root is below it). None when root lies in no work tree.
func ignoredAbove(root string) []string {
	var chain []string
	top := root
	for !hasGit(top) {
		if filepath.Dir(top) == top {
			return nil
		}
		top = filepath.Dir(top)
		chain = append(chain, top)
	}
	if ex := walk.ExcludeFile(top); ex != "" {
		dir := filepath.Dir(ex)
		if rel, err := filepath.Rel(root, dir); err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			if st, err := os.Stat(dir); err == nil && st.IsDir() {
				chain = append(chain, dir)
			}
		}
	}
	return chain
}

func hasGit(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, ".git"))
	return err == nil
}

// Close stops the watcher.
func (t *Tree) Close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.w != nil {
		t.w.Close()
		t.w = nil
	}
}

// Stats are the counts so far.
func (t *Tree) Stats() Stats {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.stats
}

// Files lists the tree as walk.Files(ctx, o, skip) would now. Options for
// another root, or with GitFastPath (git's own index decides that listing,
// and it is not watched), walk every time.
func (t *Tree) Files(ctx context.Context, o walk.Options, skip func(walk.Skip)) ([]walk.File, error) {
	key, ok := t.key(o)
	if !ok {
		t.mu.Lock()
		t.version++ // a listing no watcher vouches for
		t.mu.Unlock()
		return walk.Files(ctx, o, skip)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.sync(ctx); err != nil {
		return nil, err
	}
	l := t.lists[key]
	switch {
	case l == nil:
		var err error
		if l, err = t.walk(ctx, o); err != nil {
			return nil, err
		}
		if t.w != nil {
			t.lists[key] = l
		}
	case l.patched:
		t.stats.Patched++
		l.patched = false
	default:
		t.stats.Reused++
	}
	return l.replay(o, skip), nil
}

// Version reports the tree's version after bringing the kept listings up
// to what the watcher saw, as Files would: two calls that give the same
// version with ok saw no change in between, to the watcher's exactness
// (pkg/watch). ok is false when no watcher vouches for the tree (it could
// not start, or it has lost track): a version then means nothing.
func (t *Tree) Version(ctx context.Context) (v uint64, ok bool, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.sync(ctx); err != nil {
		return 0, false, err
	}
	return t.version, t.w != nil, nil
}

// key identifies the options that decide a listing; ok is false for those
// not kept.
func (t *Tree) key(o walk.Options) (string, bool) {
	root, err := filepath.Abs(o.Root)
	if err != nil || root != t.root || o.GitFastPath {
		return "", false
	}
	return fmt.Sprintf("%d|%v|%v|%v|%q", o.MaxFileSize, o.NoIgnore, o.Hidden, o.ReportIgnored, o.Excludes), true
}

// sync brings the kept listings up to what the watcher saw: a watcher is
// started before the first walk; changes patch or drop listings; a watcher
// that lost track is replaced, before the walk that follows, and every
// listing dropped.
func (t *Tree) sync(ctx context.Context) error {
	if t.w == nil {
		t.start()
		return nil
	}
	b := t.w.Changes(ctx)
	if err := ctx.Err(); err != nil {
		return err
	}
	if b.Lost != "" {
		t.stats.Lost++
		t.stats.LastLost = b.Lost
		t.w.Close()
		t.w = nil
		t.start()
		return nil
	}
	if len(b.Paths) == 0 {
		return nil
	}
	t.version++
	t.stats.Batches++
	t.stats.Events += b.Events
	for k, l := range t.lists {
		if !l.patch(b.Paths) {
			delete(t.lists, k)
		}
	}
	return nil
}

// start drops every listing and starts a watcher; when it cannot start,
// listings are not kept.
func (t *Tree) start() {
	t.version++
	clear(t.lists)
	w, err := t.newWatcher(t.root, t.wo)
	if err != nil {
		t.noWatch = err.Error()
		return
	}
	t.w = w
}

// walk lists the tree and records the skips and warnings it reports.
func (t *Tree) walk(ctx context.Context, o walk.Options) (*listing, error) {
	l := &listing{maxSize: o.MaxFileSize}
	o.Warn = func(format string, args ...any) { l.warns = append(l.warns, fmt.Sprintf(format, args...)) }
	files, err := walk.Files(ctx, o, func(s walk.Skip) { l.skips = append(l.skips, s) })
	if err != nil {
		return nil, err
	}
	l.files = files
	t.stats.Walks++
	return l, nil
}

// replay delivers what the walk delivered, in its order (warnings, then
// skips, as walk.Files does), and a copy of the files.
func (l *listing) replay(o walk.Options, skip func(walk.Skip)) []walk.File {
	if o.Warn != nil {
		for _, w := range l.warns {
			o.Warn("%s", w)
		}
	}
	if skip != nil {
		for _, s := range l.skips {
			skip(s)
		}
	}
	return append([]walk.File(nil), l.files...)
}

// patch restates the files at paths; false when a path is not a listed
// file that is still one (anything else may change the listing).
func (l *listing) patch(paths []string) bool {
	for _, p := range paths {
		enc := pathenc.Encode(p)
		i := sort.Search(len(l.files), func(i int) bool { return l.files[i].Path >= enc })
		if i == len(l.files) || l.files[i].Path != enc {
			return false
		}
		f, ok := walk.Restat(l.files[i], walk.Options{MaxFileSize: l.maxSize})
		if !ok {
			return false
		}
		l.files[i] = f
	}
	l.patched = true
	return true
}
