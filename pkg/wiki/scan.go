package wiki

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/rtch/rtch/pkg/pathenc"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	treewalk "github.com/rtch/rtch/pkg/walk"
)

// DefaultMaxFileBytes is the size above which a page is skipped (SPEC §4).
const DefaultMaxFileBytes = 1 << 20

// MaxPathBytes caps a page's path as records spell it (pkg/pathenc): a
// longer one is skipped with a diagnostic. No wiki needs such a name, and
// an index must be able to key every page by its path (a PostgreSQL btree
// entry is at most 2,704 bytes: one page named past it made the server
// refuse every refresh of the wiki).
const MaxPathBytes = 1024

// PrinciplesPath is the project's principles file; it is recalled with the
// wiki because it is operator text (SPEC §10 trust rules).
const PrinciplesPath = ".guild/principles.md"

// File is a candidate page found by List, before it is read.
type File struct {
	// Path is relative to the root, slash-separated.
	Path string
	// Size is the file size in bytes.
	Size int64
	// ModTime is the modification time in Unix nanoseconds.
	ModTime int64
	// ChangeTime is the inode change time (ctime) in Unix nanoseconds, 0
	// where the platform does not report it. Unlike ModTime it cannot be
	// set back by a program (touch -d, os.Chtimes): any write, chmod or
	// rename moves it forward, so an edit that restores the mtime is still
	// seen.
	ChangeTime int64
	// Inode is the file's inode number (0 where not reported): a page
	// replaced by another file (an editor's write-and-rename) has a new one.
	Inode uint64
}

// List finds the wiki pages under root: every *.md file below wiki/ plus
// .guild/principles.md. Hidden names are skipped; symlinks are never
// followed; non-regular files, files over maxBytes and paths over
// MaxPathBytes are reported as diagnostics, never silently dropped. The result is sorted by path.
func List(root string, maxBytes int64) ([]File, []Diagnostic, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxFileBytes
	}
	var files []File
	var diags []Diagnostic
	ig := newIgnorer(root)
	consider := func(raw string, info fileInfo) {
		m, src := ig.match(raw)
		rel := pathenc.Encode(raw) // the page's spelling in records
		switch {
		case m != nil && raw != PrinciplesPath:
			diags = append(diags, Diagnostic{Path: rel, Message: fmt.Sprintf("ignored by %s:%d (%s); skipped", src, m.Line, m.Text), Skipped: true})
		case info.mode&fs.ModeSymlink != 0:
			diags = append(diags, Diagnostic{Path: rel, Message: "symlink not followed", Skipped: true})
		case !info.mode.IsRegular():
			diags = append(diags, Diagnostic{Path: rel, Message: "not a regular file; skipped", Skipped: true})
		case info.size > maxBytes:
			diags = append(diags, Diagnostic{Path: rel, Message: fmt.Sprintf("%d bytes, over the %d-byte cap; skipped", info.size, maxBytes), Skipped: true})
		case len(rel) > MaxPathBytes:
			diags = append(diags, Diagnostic{Path: rel, Message: fmt.Sprintf("a path of %d bytes, over the %d-byte cap; skipped", len(rel), MaxPathBytes), Skipped: true})
		default:
			files = append(files, File{Path: rel, Size: info.size, ModTime: info.mtime, ChangeTime: info.ctime, Inode: info.ino})
		}
	}
	wikiDir := filepath.Join(root, "wiki")
	if info, err := os.Lstat(wikiDir); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		diags = append(diags, Diagnostic{Path: "wiki", Message: "symlink not followed", Skipped: true})
	} else if err == nil {
		// Room for a directory's files before they are visited, doubling:
		// a large wiki's listing is not copied at every 25% growth.
		grow := func(n int) {
			if len(files)+n > cap(files) {
				files = slices.Grow(files, max(len(files)+n, 2*cap(files))-len(files))
			}
		}
		walk(wikiDir, "wiki", grow, func(rel string, fi fileInfo, err error) {
			if err != nil {
				diags = append(diags, Diagnostic{Path: rel, Message: "unreadable: " + unwrapPathError(err), Skipped: true})
				return
			}
			consider(rel, fi)
		})
	} else if !errors.Is(err, fs.ErrNotExist) {
		diags = append(diags, Diagnostic{Path: "wiki", Message: "unreadable: " + unwrapPathError(err), Skipped: true})
	}
	if info, err := lstat(filepath.Join(root, filepath.FromSlash(PrinciplesPath))); err == nil {
		consider(PrinciplesPath, info)
	} else if !errors.Is(err, fs.ErrNotExist) {
		diags = append(diags, Diagnostic{Path: PrinciplesPath, Message: "unreadable: " + unwrapPathError(err), Skipped: true})
	}
	// The principles file sorts first (before any "wiki/" path): move it
	// there. The walk yields sorted paths unless a name holds a byte below
	// '/' ("a-b.md" sorts before "a/…" as a path but after "a" as a name),
	// so the sort is usually skipped.
	if n := len(files); n > 1 && files[n-1].Path == PrinciplesPath {
		p := files[n-1]
		copy(files[1:], files[:n-1])
		files[0] = p
	}
	cmp := func(a, b File) int { return strings.Compare(a.Path, b.Path) }
	if !slices.IsSortedFunc(files, cmp) {
		slices.SortFunc(files, cmp)
	}
	return files, diags, nil
}

// Read loads and parses one listed page. A binary file (a NUL byte
// anywhere) is refused with an error so callers can report it as a skip.
func Read(root string, f File) (*Page, []Diagnostic, error) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(pathenc.Decode(f.Path))))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %s", f.Path, unwrapPathError(err))
	}
	// A NUL anywhere (not only in the first 8 KiB, bad-inputs W06) makes the
	// file binary: the decision must not depend on a buffer size, and pages
	// are small enough (caps.max_page_bytes) to scan whole.
	if bytes.IndexByte(data, 0) >= 0 {
		return nil, nil, fmt.Errorf("%s: binary file (NUL byte); skipped", f.Path)
	}
	// The lane's rule (walk.Each): a Git LFS pointer is not the page.
	if treewalk.IsLFSPointer(data) {
		return nil, nil, fmt.Errorf("%s: Git LFS pointer, the page's content is not in the tree; skipped", f.Path)
	}
	p, diags := Parse(f.Path, data)
	return p, diags, nil
}

// Load lists and reads every page under root. Unreadable and binary files
// become diagnostics; the walk goes on.
func Load(root string, maxBytes int64) ([]*Page, []Diagnostic, error) {
	files, diags, err := List(root, maxBytes)
	if err != nil {
		return nil, diags, err
	}
	pages := make([]*Page, 0, len(files))
	for _, f := range files {
		p, d, err := Read(root, f)
		diags = append(diags, d...)
		if err != nil {
			diags = append(diags, ReadError(f.Path, err))
			continue
		}
		pages = append(pages, p)
	}
	return pages, diags, nil
}

// fileInfo is what List needs of a file.
type fileInfo struct {
	mode  fs.FileMode
	size  int64
	mtime int64
	ctime int64
	ino   uint64
}

// walk visits every *.md file below dir (rel is its slash path from the
// root), skipping hidden names, in sorted order. Files are stat'ed without
// following symlinks, relative to their open directory (statAt), which
// saves resolving the whole path for each of thousands of pages; the files
// of a large directory are stat'ed by several goroutines at once (statAll).
func walk(dir, rel string, grow func(n int), visit func(rel string, fi fileInfo, err error)) {
	d, err := os.Open(dir)
	if err != nil {
		visit(rel, fileInfo{}, err)
		return
	}
	defer d.Close()
	ents, err := readDir(d)
	if err != nil {
		visit(rel, fileInfo{}, err)
		return
	}
	kept := ents[:0]
	nFiles := 0
	for _, e := range ents {
		if strings.HasPrefix(e.name, ".") {
			continue
		}
		if !e.dir {
			if !strings.HasSuffix(strings.ToLower(e.name), ".md") {
				continue
			}
			nFiles++
		}
		kept = append(kept, e)
	}
	slices.SortFunc(kept, func(a, b dirEntry) int { return strings.Compare(a.name, b.name) })
	files := make([]string, 0, nFiles)
	for _, e := range kept {
		if !e.dir {
			files = append(files, e.name)
		}
	}
	grow(nFiles)
	stats := statAll(d, dir, files)
	k := 0
	for _, e := range kept {
		child := rel + "/" + e.name
		if e.dir {
			walk(filepath.Join(dir, e.name), child, grow, visit)
			continue
		}
		visit(child, stats[k].fi, stats[k].err)
		k++
	}
}

// dirEntry is a directory entry as listed.
type dirEntry struct {
	name string
	// dir is true for a directory (never for a symlink to one).
	dir bool
}

type statResult struct {
	fi  fileInfo
	err error
}

// parallelStatMin is the number of files from which a directory's files are
// stat'ed by more than one goroutine.
const parallelStatMin = 512

// statAll stat's names inside the open directory d, on up to GOMAXPROCS
// goroutines for a large directory; the results are in the order of names.
func statAll(d *os.File, dir string, names []string) []statResult {
	out := make([]statResult, len(names))
	if len(names) == 0 {
		return out
	}
	fd := dirFD(d)
	defer runtime.KeepAlive(d)
	workers := runtime.GOMAXPROCS(0)
	if len(names) < parallelStatMin || workers < 2 {
		for i, name := range names {
			out[i].fi, out[i].err = statAt(fd, dir, name)
		}
		return out
	}
	var wg sync.WaitGroup
	per := (len(names) + workers - 1) / workers
	for lo := 0; lo < len(names); lo += per {
		hi := min(lo+per, len(names))
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				out[i].fi, out[i].err = statAt(fd, dir, names[i])
			}
		}(lo, hi)
	}
	wg.Wait()
	return out
}

func unwrapPathError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
