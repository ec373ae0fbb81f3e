// Package watch follows a directory tree with fsnotify so that a long-lived
// process (rtch-mcp) can tell, before it answers, whether anything under the
// tree changed since it last looked, without walking it. A Watcher watches
// every directory below its root (not .git, apart from .git/info whose
// exclude file is an ignore rule), adds directories as they are created,
// and gathers the paths of events between two calls of Changes: a burst of
// edits is one set of paths. When it cannot vouch for the tree any more (an
// event queue overflow, a watch error, a directory it could not watch, more
// directories than its limit, a watched directory moved or removed, an
// ignore file above the root changed) it has lost track, says why, and
// stays so: the caller falls back to a walk and starts a new Watcher.
//
// Changes is exact about the past: it writes a marker file in a private
// directory watched by the same inotify instance and waits until the
// marker's event arrives. The kernel queues the events of one instance in
// the order they happened, so every event of a change made before the call
// has been read by then.
package watch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Options configure a Watcher.
type Options struct {
	// Limit caps the directories watched; a tree with more has lost track
	// from the start. 0 means the kernel's limit only
	// (fs.inotify.max_user_watches), past which adding a watch fails and
	// the watcher has lost track just the same.
	Limit int
	// Above are directories outside the tree whose ignore files apply to
	// it (the ancestors up to the enclosing git work tree's top, and the
	// git directory's info directory for its exclude file); they are
	// watched without their subdirectories, and a change to an ignore file
	// (or to an info directory's exclude) in one of them loses track.
	Above []string
	// Settle bounds the wait for the marker's event in Changes; 0 means 2 s.
	// A marker that does not arrive in time loses track.
	Settle time.Duration
}

// IgnoreFiles are the names whose change above the root loses track.
var IgnoreFiles = []string{".gitignore", ".ignore", ".rtchignore"}

// Batch is what Changes reports.
type Batch struct {
	// Paths are the root-relative, '/'-separated paths of the events since
	// the last call, sorted, each once.
	Paths []string
	// Events is how many events they came from (a burst is many events,
	// one batch).
	Events int
	// Lost, when not empty, says why the watcher can no longer vouch for
	// the tree; Paths then mean nothing.
	Lost string
}

// Watcher follows one tree.
type Watcher struct {
	root   string // absolute
	mark   string // private directory of the markers
	o      Options
	fw     *fsnotify.Watcher
	done   chan struct{}
	closed sync.Once

	mu      sync.Mutex
	dirs    map[string]bool // absolute paths of the watched directories of the tree
	above   map[string]bool
	paths   map[string]bool // root-relative paths since the last Changes
	events  int
	lost    string
	seq     int
	waiting map[string]chan struct{} // marker name -> closed when its event arrived
}

// New starts watching root. The error is for a root that cannot be watched
// at all (not a directory, no inotify); a tree too big to watch is a
// Watcher that has lost track.
func New(root string, o Options) (*Watcher, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if o.Settle <= 0 {
		o.Settle = 2 * time.Second
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", abs, err)
	}
	mark, err := os.MkdirTemp("", "rtch-watch-")
	if err != nil {
		fw.Close()
		return nil, fmt.Errorf("watch %s: %w", abs, err)
	}
	w := &Watcher{root: abs, mark: mark, o: o, fw: fw, done: make(chan struct{}),
		dirs: map[string]bool{}, above: map[string]bool{}, paths: map[string]bool{}, waiting: map[string]chan struct{}{}}
	if err := fw.Add(mark); err != nil {
		w.Close()
		return nil, fmt.Errorf("watch %s: %w", abs, err)
	}
	if err := w.addTree(abs); err != nil && len(w.dirs) == 0 {
		w.Close()
		return nil, fmt.Errorf("watch %s: %w", abs, err)
	}
	for _, d := range o.Above {
		if err := fw.Add(d); err != nil {
			w.lose(fmt.Sprintf("cannot watch %s above the root: %v", d, err))
			break
		}
		w.above[filepath.Clean(d)] = true
	}
	go w.loop()
	return w, nil
}

// Close stops watching and removes the marker directory.
func (w *Watcher) Close() error {
	var err error
	w.closed.Do(func() {
		err = w.fw.Close()
		os.RemoveAll(w.mark)
	})
	return err
}

// Root is the watched root, absolute.
func (w *Watcher) Root() string { return w.root }

// Changes waits until the events of everything done before the call have
// been read, then returns the paths changed since the last call and forgets
// them; or why the watcher lost track.
func (w *Watcher) Changes(ctx context.Context) Batch {
	if err := w.barrier(ctx); err != nil {
		w.lose(err.Error())
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.lost != "" {
		return Batch{Lost: w.lost}
	}
	b := Batch{Events: w.events}
	for p := range w.paths {
		b.Paths = append(b.Paths, p)
	}
	sort.Strings(b.Paths)
	w.paths, w.events = map[string]bool{}, 0
	return b
}

// barrier writes a marker and waits for its event.
func (w *Watcher) barrier(ctx context.Context) error {
	w.mu.Lock()
	if w.lost != "" {
		w.mu.Unlock()
		return nil
	}
	w.seq++
	name := strconv.Itoa(w.seq)
	ch := make(chan struct{})
	w.waiting[name] = ch
	w.mu.Unlock()
	p := filepath.Join(w.mark, name)
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		return fmt.Errorf("watch marker: %v", err)
	}
	defer os.Remove(p)
	t := time.NewTimer(w.o.Settle)
	defer t.Stop()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return fmt.Errorf("the watch marker's event did not arrive within %v", w.o.Settle)
	case <-w.done:
		return errors.New("the watcher stopped")
	}
}

// lose records why the watcher can no longer vouch for the tree (the first
// reason stays).
func (w *Watcher) lose(why string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.lost == "" {
		w.lost = why
	}
}

// addTree watches dir and every directory below it but .git (apart from
// .git/info). The error is the first watch that failed; the watcher has
// then lost track.
func (w *Watcher) addTree(dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir && errors.Is(err, fs.ErrNotExist) {
				return nil // created and removed again: its parent's event says so
			}
			w.lose(fmt.Sprintf("cannot list %s: %v", p, err))
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if d.Name() == ".git" && p != w.root {
			info := filepath.Join(p, "info")
			if st, err := os.Lstat(info); err == nil && st.IsDir() {
				if err := w.addDir(info); err != nil {
					return err
				}
			}
			return filepath.SkipDir
		}
		return w.addDir(p)
	})
}

func (w *Watcher) addDir(p string) error {
	w.mu.Lock()
	n := len(w.dirs)
	w.mu.Unlock()
	if w.o.Limit > 0 && n >= w.o.Limit {
		err := fmt.Errorf("more than %d directories to watch (the watch limit)", w.o.Limit)
		w.lose(err.Error())
		return err
	}
	if err := w.fw.Add(p); err != nil {
		w.lose(fmt.Sprintf("cannot watch %s: %v", p, err))
		return err
	}
	w.mu.Lock()
	w.dirs[p] = true
	w.mu.Unlock()
	return nil
}

// loop reads the events until the watcher is closed.
func (w *Watcher) loop() {
	defer close(w.done)
	for {
		select {
		case ev, ok := <-w.fw.Events:
			if !ok {
				return
			}
			w.event(ev)
		case err, ok := <-w.fw.Errors:
			if !ok {
				return
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				w.lose("the event queue overflowed")
			} else {
				w.lose(fmt.Sprintf("watch error: %v", err))
			}
		}
	}
}

// event records one event: a marker's releases its waiter; a new directory
// is watched; a watched directory moved or removed loses track.
func (w *Watcher) event(ev fsnotify.Event) {
	dir, name := filepath.Split(ev.Name)
	dir = filepath.Clean(dir)
	if dir == w.mark {
		w.mu.Lock()
		if ch, ok := w.waiting[name]; ok {
			close(ch)
			delete(w.waiting, name)
		}
		w.mu.Unlock()
		return
	}
	w.mu.Lock()
	isAbove := w.above[dir]
	watched := w.dirs[ev.Name]
	w.mu.Unlock()
	if isAbove {
		if slices.Contains(IgnoreFiles, name) || name == "exclude" && filepath.Base(dir) == "info" {
			w.lose(fmt.Sprintf("%s changed", ev.Name))
		}
		return
	}
	rel, ok := w.rel(ev.Name)
	if !ok {
		return
	}
	if watched && ev.Has(fsnotify.Remove|fsnotify.Rename) {
		w.lose(fmt.Sprintf("watched directory %s was moved or removed", rel))
		return
	}
	if ev.Has(fsnotify.Create) {
		if st, err := os.Lstat(ev.Name); err == nil && st.IsDir() {
			w.addTree(ev.Name) // a failure loses track
		}
	}
	w.mu.Lock()
	w.paths[rel] = true
	w.events++
	w.mu.Unlock()
}

// rel is abs relative to the root, '/'-separated.
func (w *Watcher) rel(abs string) (string, bool) {
	if abs == w.root {
		return ".", true
	}
	r, ok := strings.CutPrefix(abs, w.root+string(os.PathSeparator))
	if !ok {
		return "", false
	}
	return filepath.ToSlash(r), true
}
