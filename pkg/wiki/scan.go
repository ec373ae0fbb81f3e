package wiki

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// DefaultMaxFileBytes is the size above which a page is skipped (SPEC §4).
const DefaultMaxFileBytes = 1 << 20

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
}

// List finds the wiki pages under root: every *.md file below wiki/ plus
// .guild/principles.md. Hidden names are skipped; symlinks are never
// followed; non-regular files and files over maxBytes are reported as
// diagnostics, never silently dropped. The result is sorted by path.
func List(root string, maxBytes int64) ([]File, []Diagnostic, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxFileBytes
	}
	var files []File
	var diags []Diagnostic
	consider := func(rel string, info fileInfo) {
		switch {
		case info.mode&fs.ModeSymlink != 0:
			diags = append(diags, Diagnostic{Path: rel, Message: "symlink not followed"})
		case !info.mode.IsRegular():
			diags = append(diags, Diagnostic{Path: rel, Message: "not a regular file; skipped"})
		case info.size > maxBytes:
			diags = append(diags, Diagnostic{Path: rel, Message: fmt.Sprintf("%d bytes, over the %d-byte cap; skipped", info.size, maxBytes)})
		default:
			files = append(files, File{Path: rel, Size: info.size, ModTime: info.mtime})
		}
	}
	wikiDir := filepath.Join(root, "wiki")
	if info, err := os.Lstat(wikiDir); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		diags = append(diags, Diagnostic{Path: "wiki", Message: "symlink not followed"})
	} else if err == nil {
		walk(wikiDir, "wiki", func(rel string, fi fileInfo, err error) {
			if err != nil {
				diags = append(diags, Diagnostic{Path: rel, Message: "unreadable: " + unwrapPathError(err)})
				return
			}
			consider(rel, fi)
		})
	} else if !errors.Is(err, fs.ErrNotExist) {
		diags = append(diags, Diagnostic{Path: "wiki", Message: "unreadable: " + unwrapPathError(err)})
	}
	if info, err := os.Lstat(filepath.Join(root, filepath.FromSlash(PrinciplesPath))); err == nil {
		consider(PrinciplesPath, fileInfo{mode: info.Mode(), size: info.Size(), mtime: info.ModTime().UnixNano()})
	} else if !errors.Is(err, fs.ErrNotExist) {
		diags = append(diags, Diagnostic{Path: PrinciplesPath, Message: "unreadable: " + unwrapPathError(err)})
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, diags, nil
}

// Read loads and parses one listed page. A binary file (a NUL byte
// anywhere) is refused with an error so callers can report it as a skip.
func Read(root string, f File) (*Page, []Diagnostic, error) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f.Path)))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %s", f.Path, unwrapPathError(err))
	}
	// A NUL anywhere (not only in the first 8 KiB, bad-inputs W06) makes the
	// file binary: the decision must not depend on a buffer size, and pages
	// are small enough (caps.max_page_bytes) to scan whole.
	if bytes.IndexByte(data, 0) >= 0 {
		return nil, nil, fmt.Errorf("%s: binary file (NUL byte); skipped", f.Path)
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
			diags = append(diags, Diagnostic{Path: f.Path, Message: strings.TrimPrefix(err.Error(), f.Path+": ")})
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
}

// walk visits every *.md file below dir (rel is its slash path from the
// root), skipping hidden names, in sorted order. Files are stat'ed without
// following symlinks, relative to their open directory (statAt), which
// saves resolving the whole path for each of thousands of pages.
func walk(dir, rel string, visit func(rel string, fi fileInfo, err error)) {
	d, err := os.Open(dir)
	if err != nil {
		visit(rel, fileInfo{}, err)
		return
	}
	defer d.Close()
	ents, err := d.ReadDir(-1)
	if err != nil {
		visit(rel, fileInfo{}, err)
		return
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	for _, e := range ents {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		child := rel + "/" + name
		if e.IsDir() {
			walk(filepath.Join(dir, name), child, visit)
			continue
		}
		if !strings.HasSuffix(strings.ToLower(name), ".md") {
			continue
		}
		fi, err := statAt(d, dir, name)
		visit(child, fi, err)
	}
}

func unwrapPathError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
