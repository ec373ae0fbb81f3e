// Package walk is the one file walker every rtch stage uses. Files lists
// the candidate files under a zone root, honouring .gitignore (nested, with
// git's exact pattern semantics, see package ignore) and .git/info/exclude
// inside a git work tree, as ripgrep does, and .ignore and .rtchignore
// everywhere, skipping .git, hidden entries, symlinks (never
// followed), special files and oversize files; Each reads the listed files
// in parallel, classifies binary files and Git LFS pointers, and hands the
// text ones to a callback. Everything not handed on is reported as a Skip,
// never dropped silently. The policy choices are written down in
// docs/decisions/walk.md.
package walk

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/rtch/rtch/pkg/ignore"
	"github.com/rtch/rtch/pkg/pathenc"
)

// DefaultMaxFileSize is the size cap used when Options.MaxFileSize is 0.
const DefaultMaxFileSize = 1 << 20

// Skip reasons.
const (
	ReasonBinary          = "binary"           // NUL byte in the file
	ReasonTooLarge        = "too_large"        // larger than MaxFileSize (by stat, never read)
	ReasonUnreadable      = "unreadable"       // permission denied, vanished, I/O error
	ReasonSpecial         = "special"          // FIFO, socket, device: never opened
	ReasonSymlink         = "symlink"          // in-root symlink: not followed, its target is walked under its own path
	ReasonSymlinkEscape   = "symlink_escape"   // symlink resolving outside the root: never followed
	ReasonSymlinkLoop     = "symlink_loop"     // symlink to an ancestor directory or a link cycle
	ReasonDanglingSymlink = "dangling_symlink" // symlink whose target does not exist
	ReasonLFSPointer      = "lfs_pointer"      // Git LFS pointer instead of content
	ReasonIgnored         = "ignored"          // matched an ignore rule or hidden (only with ReportIgnored)
)

// Options configure a walk.
type Options struct {
	// Root is the zone root; relative paths are made absolute.
	Root string
	// MaxFileSize is the size cap in bytes; 0 means DefaultMaxFileSize.
	MaxFileSize int64
	// Excludes are extra gitignore-style patterns relative to Root (from
	// configuration or forbidden assumptions), one per entry ("#x" is a
	// pattern here, not a comment; "./x" is anchored like "/x"). They take
	// precedence over every ignore file, and apply even with NoIgnore; a
	// skip or ignore report names them as "Excludes:<n>: <pattern>".
	Excludes []string
	// NoIgnore disables .gitignore, .git/info/exclude, .ignore and
	// .rtchignore. .git is still skipped.
	NoIgnore bool
	// Hidden includes entries whose name starts with '.'; by default they
	// are skipped (as ripgrep does) unless an ignore file whitelists them
	// with a '!' pattern.
	Hidden bool
	// ReportIgnored reports every ignored or hidden entry through skip
	// with reason "ignored" (a directory once, its contents not walked).
	ReportIgnored bool
	// GitFastPath lists the files of a root inside a git work tree with
	// `git ls-files -co --exclude-standard` instead of walking it; .ignore,
	// .rtchignore, Excludes, hidden and the size, type and symlink rules
	// still apply. Git's semantics then hold in full: a tracked file is
	// listed even when an ignore rule matches it, and a .ignore or
	// .rtchignore '!' rule cannot bring back a file .gitignore excludes.
	// FIFOs, sockets and devices are invisible to git, so they are neither
	// listed nor reported. Nested repositories and submodules are walked.
	// Falls back to the walk, with a warning, when git fails. Off by
	// default: it is slower than the walk (docs/bench/walk.md).
	GitFastPath bool
	// ReuseBuffers lets Each read every file of one worker into the same
	// buffer, sparing an allocation and fresh-memory page faults per file;
	// fn must then not keep data (or anything slicing it) after returning.
	ReuseBuffers bool
	// Workers bounds the parallelism; 0 means GOMAXPROCS.
	Workers int
	// Progress, if set, is called by Each after each file is read (or
	// skipped) with the count so far and the total; it is called from the
	// reading goroutines, concurrently, and must be cheap.
	Progress func(done, total int)
	// Pace, if set, is called by Each before each file it takes up, from
	// the reading goroutines; it may block, to hold back the reads of a
	// run made in the background while its host serves something more
	// urgent, and returns at the latest when ctx ends.
	Pace func(ctx context.Context)
	// Warn receives warnings (unreadable entries, symlink escapes, loops,
	// dangling links), after the walk, sorted by path; may be nil.
	Warn func(format string, args ...any)
}

// File is a candidate file found by Files.
type File struct {
	// Path is relative to the root, '/'-separated.
	Path string
	// Abs is the absolute path used to open the file.
	Abs string
	// Size is the size in bytes at walk time (from lstat).
	Size int64
	// ID is the rest of what lstat said at walk time, the identity a
	// persistent index compares (zero where the platform gives none).
	ID Ident
}

// Ident is a file's identity beyond its size: an edit, a replacement or a
// rename over it changes at least one field.
type Ident struct {
	Dev, Ino         uint64
	MtimeNs, CtimeNs int64
}

// IdentOf is the identity of a file from its FileInfo (zero where the
// platform gives none).
func IdentOf(fi fs.FileInfo) Ident { return identOf(fi) }

// RacyWindow is how young an mtime, against the start of the read that
// took a file's identity, leaves a same-size edit in the same timestamp
// tick possible: an identity that young cannot vouch for the bytes read.
const RacyWindow = 2 * time.Second

// Racy reports whether f's identity, taken by a read that started at
// start, cannot vouch for the bytes read: there is none, or its mtime is
// within RacyWindow of start.
func (f File) Racy(start time.Time) bool {
	return f.ID == (Ident{}) || f.ID.MtimeNs >= start.Add(-RacyWindow).UnixNano()
}

// Unchanged reports whether f has the size and identity stored for it
// (and an identity at all): what a persistent cache trusts without
// reading the file, unless the stored identity was racy.
func (f File) Unchanged(size int64, id Ident) bool {
	return f.ID != (Ident{}) && f.Size == size && f.ID == id
}

// Skip reports an entry that is not handed on as text.
type Skip struct {
	// Path is relative to the root, '/'-separated.
	Path string
	// Reason is one of the Reason* constants.
	Reason string
	// SizeBytes is the entry's size when known (0 otherwise).
	SizeBytes int64
	// Detail explains the reason for a human (link target, error, rule).
	Detail string
}

func (o *Options) maxSize() int64 {
	if o.MaxFileSize > 0 {
		return o.MaxFileSize
	}
	return DefaultMaxFileSize
}

func (o *Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// Files lists the candidate files under o.Root in sorted path order,
// without reading their content. Entries skipped on the way (too large by
// stat, special files, symlinks, unreadable directories) go to skip, which
// is called after the walk, from one goroutine, in path order; skip may be
// nil. The error is non-nil only when the root itself cannot be walked or
// ctx is cancelled.
func Files(ctx context.Context, o Options, skip func(Skip)) ([]File, error) {
	w, err := newWalker(ctx, &o)
	if err != nil {
		return nil, err
	}
	if o.GitFastPath && !o.NoIgnore && (w.rootRepo || w.top != w.root) {
		jobs, err := w.gitFast()
		if err != nil {
			w.warnf(nil, "", "git ls-files failed, walking the tree instead: %v", err)
			w.run(job{abs: w.root, parent: w.rootNode})
		} else {
			w.run(jobs...)
		}
	} else {
		w.run(job{abs: w.root, parent: w.rootNode})
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if w.rootErr != nil {
		return nil, w.rootErr
	}
	var files []File
	var skips []Skip
	var warns []warning
	for _, r := range w.results {
		files = append(files, r.files...)
		skips = append(skips, r.skips...)
		warns = append(warns, r.warns...)
	}
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	encodeNames(files, skips)
	emit(&o, skips, warns, skip)
	return files, nil
}

// encodeNames gives files and skips their record spelling (pkg/pathenc):
// a name that is not UTF-8 is carried with ¤xHH escapes, so two names that
// differ in such bytes stay two paths; Abs keeps the bytes to open.
func encodeNames(files []File, skips []Skip) {
	for i := range files {
		files[i].Path = pathenc.Encode(files[i].Path)
	}
	for i := range skips {
		skips[i].Path = pathenc.Encode(skips[i].Path)
		skips[i].Detail = pathenc.Encode(skips[i].Detail)
	}
}

type warning struct {
	path string
	msg  string
}

// emit delivers skips and warnings in a deterministic order.
func emit(o *Options, skips []Skip, warns []warning, skip func(Skip)) {
	sort.SliceStable(skips, func(i, j int) bool { return skips[i].Path < skips[j].Path })
	sort.SliceStable(warns, func(i, j int) bool { return warns[i].path < warns[j].path })
	if o.Warn != nil {
		for _, w := range warns {
			o.Warn("%s", w.msg)
		}
	}
	if skip != nil {
		for _, s := range skips {
			skip(s)
		}
	}
}

type job struct {
	abs, rel string // rel is "" for the root
	parent   *node
}

type result struct {
	files []File
	skips []Skip
	warns []warning
	buf   []byte // directory-listing scratch space of one worker
}

type walker struct {
	ctx      context.Context
	o        *Options
	root     string // absolute root as given
	rootSep  string // root with a trailing separator
	top      string // matching root: the enclosing git work tree's top, else root
	realRoot string // root with symlinks resolved, for escape checks
	prefix   string // root relative to the matching root ("" when they coincide)
	excludes *ignore.List
	rootNode *node
	rootRepo bool // the root itself holds .git
	maxSize  int64
	results  []*result

	mu      sync.Mutex
	rootErr error // the root itself could not be listed
	cond    *sync.Cond
	queue   []job
	pending int // jobs queued or running
}

func newWalker(ctx context.Context, o *Options) (*walker, error) {
	if o.Root == "" {
		return nil, errors.New("walk: no root directory given")
	}
	root, err := filepath.Abs(o.Root)
	if err != nil {
		return nil, fmt.Errorf("walk: %w", err)
	}
	st, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("walk: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("walk: %s: not a directory", root)
	}
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, fmt.Errorf("walk: %w", err)
	}
	w := &walker{ctx: ctx, o: o, root: root, top: root, realRoot: real, maxSize: o.maxSize()}
	w.cond = sync.NewCond(&w.mu)
	w.rootSep = root
	if !strings.HasSuffix(root, string(os.PathSeparator)) {
		w.rootSep += string(os.PathSeparator)
	}
	w.rootNode = &node{}
	if !o.NoIgnore {
		w.loadAncestors()
	}
	if len(o.Excludes) > 0 {
		w.excludes = &ignore.List{Source: "Excludes", Base: w.prefix}
		for i, e := range o.Excludes {
			// Each entry is one pattern, taken literally: no comment or
			// trailing-space rules; "./x" means "/x" (anchored at the root).
			neg := strings.HasPrefix(e, "!")
			body := strings.TrimPrefix(e, "!")
			if strings.HasPrefix(body, "./") {
				body = body[1:]
			}
			if neg {
				body = "!" + body
			}
			if p, ok := ignore.NewPattern(body); ok {
				p.Line = i + 1
				w.excludes.Patterns = append(w.excludes.Patterns, p)
			}
		}
	}
	return w, nil
}

func (w *walker) warnf(r *result, path, format string, args ...any) {
	wr := warning{path: path, msg: fmt.Sprintf(format, args...)}
	if r == nil {
		w.mu.Lock()
		if len(w.results) == 0 {
			w.results = append(w.results, &result{})
		}
		w.results[0].warns = append(w.results[0].warns, wr)
		w.mu.Unlock()
		return
	}
	r.warns = append(r.warns, wr)
}

// run walks the given directories, and everything below them, in
// parallel.
func (w *walker) run(jobs ...job) {
	n := w.o.workers()
	w.queue = append(w.queue, jobs...)
	w.pending = len(jobs)
	var wg sync.WaitGroup
	rs := make([]*result, n)
	for i := range n {
		rs[i] = &result{}
		wg.Add(1)
		go func(r *result) {
			defer wg.Done()
			for {
				j, ok := w.pop()
				if !ok {
					return
				}
				if w.ctx.Err() == nil {
					w.dir(j, r)
				}
				w.done()
			}
		}(rs[i])
	}
	wg.Wait()
	w.results = append(w.results, rs...)
}

func (w *walker) push(j job) {
	w.mu.Lock()
	w.queue = append(w.queue, j)
	w.pending++
	w.mu.Unlock()
	w.cond.Signal()
}

func (w *walker) pop() (job, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for len(w.queue) == 0 {
		if w.pending == 0 {
			return job{}, false
		}
		w.cond.Wait()
	}
	j := w.queue[len(w.queue)-1]
	w.queue = w.queue[:len(w.queue)-1]
	return j, true
}

func (w *walker) done() {
	w.mu.Lock()
	w.pending--
	last := w.pending == 0
	w.mu.Unlock()
	if last {
		w.cond.Broadcast()
	}
}

// dir lists one directory and classifies its entries.
func (w *walker) dir(j job, r *result) {
	if r.buf == nil {
		r.buf = make([]byte, 32<<10)
	}
	prefix := j.abs + string(os.PathSeparator)
	if j.rel == "" {
		prefix = w.rootSep
	}
	h, entries, err := openDir(j.abs, prefix, j.rel == "", r.buf)
	defer h.close()
	if err != nil && j.rel == "" && entries == nil {
		w.mu.Lock()
		w.rootErr = fmt.Errorf("walk: cannot list the root: %w", err)
		w.mu.Unlock()
		return
	}
	if err != nil {
		// Keep whatever was listed; report the failure.
		w.unreadable(r, j.rel, err)
	}
	n := j.parent
	if !w.o.NoIgnore {
		var present map[string]bool
		repo := false
		for _, e := range entries {
			switch name := e.name; name {
			case ".gitignore", ".ignore", ".rtchignore":
				if e.typ == 0 || e.typ == typeUnknown {
					if present == nil {
						present = map[string]bool{}
					}
					present[name] = true
				}
			case ".git":
				repo = true
			}
		}
		if j.rel == "" {
			repo = w.rootRepo
		}
		if repo || present != nil {
			n = w.extend(n, j.abs, joinRel(w.prefix, j.rel), repo, present)
		}
	}
	filtering := w.excludes != nil || n.git != nil || n.dot != nil || n.rtch != nil || n.exclude != nil
	for _, e := range entries {
		name := e.name
		if name == ".git" {
			continue
		}
		// Path and Abs share one string: rel is abs without the root.
		abs := e.abs
		rel := filepath.ToSlash(abs[len(w.rootSep):])
		typ := e.typ
		var size int64
		var id Ident
		statted := false
		if typ == typeUnknown || typ == 0 {
			// Regular files need their size; unknown types need a look.
			sz, t, ident, err := h.lstat(abs, name)
			if err != nil {
				w.unreadable(r, rel, err)
				continue
			}
			size, typ, id, statted = sz, t, ident, true
		}
		isDir := typ.IsDir()
		ignored, whitelisted := false, false
		why := ""
		if filtering {
			ignored, whitelisted, why = w.match(n, joinRel(w.prefix, rel), isDir)
		}
		if !ignored && !whitelisted && !w.o.Hidden && name[0] == '.' {
			ignored, why = true, "hidden"
		}
		if ignored {
			if w.o.ReportIgnored {
				r.skips = append(r.skips, Skip{Path: rel, Reason: ReasonIgnored, Detail: why})
			}
			continue
		}
		switch {
		case isDir:
			w.push(job{abs: abs, rel: rel, parent: n})
		case typ&fs.ModeSymlink != 0:
			w.symlink(r, abs, rel)
		case typ.IsRegular() && statted:
			if size > w.maxSize {
				r.skips = append(r.skips, Skip{Path: rel, Reason: ReasonTooLarge, SizeBytes: size,
					Detail: fmt.Sprintf("%d bytes over the %d-byte cap; not read", size, w.maxSize)})
				continue
			}
			r.files = append(r.files, File{Path: rel, Abs: abs, Size: size, ID: id})
		default:
			r.skips = append(r.skips, special(rel, typ))
		}
	}
}

func special(rel string, m fs.FileMode) Skip {
	kind := "special file"
	switch {
	case m&fs.ModeNamedPipe != 0:
		kind = "named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		kind = "socket"
	case m&fs.ModeCharDevice != 0:
		kind = "character device"
	case m&fs.ModeDevice != 0:
		kind = "block device"
	case m.IsDir():
		kind = "directory"
	}
	return Skip{Path: rel, Reason: ReasonSpecial, Detail: kind + "; never opened"}
}

func (w *walker) unreadable(r *result, rel string, err error) {
	shown := rel
	if shown == "" {
		shown = "."
	}
	msg := errText(err)
	r.skips = append(r.skips, Skip{Path: shown, Reason: ReasonUnreadable, Detail: msg})
	w.warnf(r, shown, "%s: unreadable, skipped: %s", quote(shown), msg)
}

// errText is the error without the path os already put into it.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err.Error()
	}
	return err.Error()
}

// quote shows a path safely in a one-line diagnostic: names with a
// character that does not print (controls, C1 ones included, bidi
// overrides, zero-width characters), quotes or invalid UTF-8 are Go-quoted,
// so a file name can neither send a terminal escape nor reorder the line.
func quote(p string) string {
	for _, c := range p {
		if !unicode.IsPrint(c) || c == '"' || c == '\\' || c == utf8.RuneError {
			return fmt.Sprintf("%q", p)
		}
	}
	return p
}

// symlink classifies a symlink without following it for reading. stat
// resolves the link (a stat never opens the target, so a FIFO or
// /dev/zero behind it is harmless) to tell dangling links and cycles
// apart; EvalSymlinks gives the resolved path for the containment check.
func (w *walker) symlink(r *result, abs, rel string) {
	target, err := os.Readlink(abs)
	if err != nil {
		w.unreadable(r, rel, err)
		return
	}
	st, err := os.Stat(abs)
	if err != nil {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			r.skips = append(r.skips, Skip{Path: rel, Reason: ReasonDanglingSymlink, Detail: "-> " + target})
			w.warnf(r, rel, "%s: dangling symlink to %s, skipped", quote(rel), quote(target))
		case errors.Is(err, syscall.ELOOP):
			r.skips = append(r.skips, Skip{Path: rel, Reason: ReasonSymlinkLoop, Detail: "-> " + target + ": " + errText(err)})
			w.warnf(r, rel, "%s: symlink loop via %s, skipped", quote(rel), quote(target))
		default:
			w.unreadable(r, rel, err)
		}
		return
	}
	resolved, err := filepath.EvalSymlinks(abs)
	if err != nil || !within(w.realRoot, resolved) {
		r.skips = append(r.skips, Skip{Path: rel, Reason: ReasonSymlinkEscape, SizeBytes: 0,
			Detail: "-> " + target + " (outside the root; never followed)"})
		w.warnf(r, rel, "%s: symlink to %s leads outside the root, skipped", quote(rel), quote(target))
		return
	}
	if st.IsDir() {
		parent := filepath.Join(w.realRoot, filepath.FromSlash(filepath.Dir(filepath.FromSlash(rel))))
		if within(resolved, parent) {
			r.skips = append(r.skips, Skip{Path: rel, Reason: ReasonSymlinkLoop,
				Detail: "-> " + target + " (an ancestor directory; file system loop)"})
			w.warnf(r, rel, "%s: symlink to ancestor directory %s (file system loop), skipped", quote(rel), quote(target))
			return
		}
	}
	var size int64
	if st.Mode().IsRegular() {
		size = st.Size()
	}
	r.skips = append(r.skips, Skip{Path: rel, Reason: ReasonSymlink, SizeBytes: size,
		Detail: "-> " + target + " (inside the root; not followed, the target is walked under its own path)"})
}

// within reports whether path equals dir or lies below it.
func within(dir, path string) bool {
	if path == dir {
		return true
	}
	if dir == string(os.PathSeparator) {
		return strings.HasPrefix(path, dir)
	}
	return strings.HasPrefix(path, dir+string(os.PathSeparator))
}
