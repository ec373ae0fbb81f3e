package hydrate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/rtch/rtch/pkg/pathenc"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/rtch/rtch/pkg/secret"
	"github.com/rtch/rtch/pkg/walk"
)

// DefaultMaxLineRunes caps one line of chunk text. A longer line (minified code,
// a 10 MB data line) is cut and the chunk flagged, so no single line can blow the
// budget; the chunk's sha256 still covers the whole original line.
const DefaultMaxLineRunes = 400

// File is a text file read for hydration: its bytes and where each line starts.
type File struct {
	// Path is relative to the zone root, '/'-separated.
	Path string
	// Data is the whole file.
	Data []byte
	// SHA256 is the hex sha256 of Data.
	SHA256 string
	// starts[i] is the byte offset of line i+1.
	starts []int
	// shown holds the lines as chunk text shows them: the file decoded,
	// then redacted range by range as windows are rendered (see Render)
	shownOnce sync.Once
	shownMu   sync.Mutex
	shown     *secret.Lines
}

// ReadError says why a file could not be hydrated; Reason is a skip reason
// (unreadable, binary, too_large, forbidden, special).
type ReadError struct {
	Path   string
	Reason string
	Size   int64
	Err    error
}

func (e *ReadError) Error() string {
	return fmt.Sprintf("%s: %s: %v", e.Path, e.Reason, e.Err)
}

func (e *ReadError) Unwrap() error { return e.Err }

// CleanRel turns p (relative to root, or absolute inside root) into a clean,
// '/'-separated path relative to root, refusing anything that leaves the root.
func CleanRel(root, p string) (string, error) {
	if p == "" {
		return "", errors.New("empty path")
	}
	if strings.ContainsRune(p, 0) {
		return "", errors.New("path contains a NUL byte")
	}
	if filepath.IsAbs(p) {
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return "", fmt.Errorf("%s is not under the zone root %s", p, root)
		}
		p = rel
	}
	c := filepath.ToSlash(filepath.Clean(filepath.FromSlash(p)))
	if c == "." || c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Errorf("%s is not a file under the zone root %s", p, root)
	}
	return c, nil
}

// ReadFile reads root/rel as a text file for hydration, refusing paths that
// leave the root (also through symlinks), special files, files over maxSize
// bytes (0: no cap) and binary files.
func ReadFile(root, rel string, maxSize int64) (*File, error) {
	return (*Cache)(nil).ReadFile(root, rel, maxSize)
}

// ReadFile is ReadFile keeping the file in c (nil keeps nothing).
func (c *Cache) ReadFile(root, rel string, maxSize int64) (*File, error) {
	// a path that reached us redacted stands for the file it was redacted
	// from (redacted.go)
	named, err := unredact(root, rel)
	if err != nil {
		return nil, &ReadError{Path: rel, Reason: "unreadable", Err: err}
	}
	rel = named
	// rel is spelt as in records (pkg/pathenc): ¤xHH is a byte of the name
	abs := filepath.Join(root, filepath.FromSlash(pathenc.Decode(rel)))
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, &ReadError{Path: rel, Reason: "unreadable", Err: unwrapPath(err)}
	}
	rootReal, err := filepath.EvalSymlinks(root)
	if err != nil {
		rootReal = root
	}
	if r, err := filepath.Rel(rootReal, real); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return nil, &ReadError{Path: rel, Reason: "symlink_escape", Err: errors.New("resolves outside the zone root")}
	}
	st, err := os.Stat(real)
	if err != nil {
		return nil, &ReadError{Path: rel, Reason: "unreadable", Err: unwrapPath(err)}
	}
	if !st.Mode().IsRegular() {
		return nil, &ReadError{Path: rel, Reason: "special", Size: st.Size(), Err: fmt.Errorf("not a regular file (%s)", st.Mode().Type())}
	}
	if maxSize > 0 && st.Size() > maxSize {
		return nil, &ReadError{Path: rel, Reason: "too_large", Size: st.Size(), Err: fmt.Errorf("%d bytes is over the %d-byte cap", st.Size(), maxSize)}
	}
	data, err := os.ReadFile(real)
	if err != nil {
		return nil, &ReadError{Path: rel, Reason: "unreadable", Size: st.Size(), Err: unwrapPath(err)}
	}
	if walk.IsBinary(data) {
		return nil, &ReadError{Path: rel, Reason: "binary", Size: int64(len(data)), Err: errors.New("NUL byte in the file")}
	}
	return c.file(rel, data), nil
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// NewFile indexes data's lines.
func NewFile(rel string, data []byte) *File { return newFile(rel, data, sha256.Sum256(data)) }

func newFile(rel string, data []byte, sum [sha256.Size]byte) *File {
	f := &File{Path: rel, Data: data, SHA256: hex.EncodeToString(sum[:])}
	if len(data) > 0 {
		f.starts = append(f.starts, 0)
		for i, b := range data {
			if b == '\n' && i+1 < len(data) {
				f.starts = append(f.starts, i+1)
			}
		}
	}
	return f
}

// LineAt is the 1-based line that holds byte offset off.
func (f *File) LineAt(off int) int {
	return sort.Search(len(f.starts), func(i int) bool { return f.starts[i] > off })
}

// Lines is the number of lines, counted as sed counts them.
func (f *File) Lines() int { return len(f.starts) }

// Bytes returns the original bytes of lines s..e (1-based, inclusive) with their
// terminators: exactly what `sed -n 's,ep'` prints.
func (f *File) Bytes(s, e int) []byte {
	if s < 1 || e < s || s > len(f.starts) {
		return nil
	}
	if e > len(f.starts) {
		e = len(f.starts)
	}
	end := len(f.Data)
	if e < len(f.starts) {
		end = f.starts[e]
	}
	return f.Data[f.starts[s-1]:end]
}

// Line returns line n's text without its terminator, decoded (invalid UTF-8
// replaced), uncapped.
func (f *File) Line(n int) string {
	b := f.Bytes(n, n)
	b = bytes.TrimSuffix(b, []byte("\n"))
	b = bytes.TrimSuffix(b, []byte("\r"))
	if n == 1 {
		return walk.DecodeText(b)
	}
	return decodeNoBOM(b)
}

func decodeNoBOM(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	// DecodeText strips a leading BOM; only line 1 may legitimately have one,
	// so shield any other line's leading bytes from it.
	s := walk.DecodeText(append([]byte("x"), b...))
	return s[1:]
}

// shownLines returns lines s..e (1-based) of the file's redacted text,
// without their terminators: exactly those lines of the whole decoded file
// redacted (secret.Lines), so a window inside a multi-line secret is masked
// too, while the rules' regexps run only where a window reaches.
func (f *File) shownLines(s, e int) []string {
	l := f.lines()
	f.shownMu.Lock()
	defer f.shownMu.Unlock()
	return l.Get(s, e)
}

// rawLines returns lines s..e as shownLines cuts them, not redacted.
func (f *File) rawLines(s, e int) []string {
	l := f.lines()
	f.shownMu.Lock()
	defer f.shownMu.Unlock()
	return l.Raw(s, e)
}

func (f *File) lines() *secret.Lines {
	f.shownOnce.Do(func() { f.shown = secret.NewLines(walk.DecodeText(f.Data)) })
	return f.shown
}

// SHA256Of returns the hex sha256 of lines s..e's original bytes.
func (f *File) SHA256Of(s, e int) string {
	sum := sha256.Sum256(f.Bytes(s, e))
	return hex.EncodeToString(sum[:])
}

// Render returns lines s..e as chunk text: decoded, line-ending "\r" dropped
// and any other shown as ␍, each line
// capped at maxRunes (0: DefaultMaxLineRunes) and "\n"-terminated; truncated
// lists the line numbers that were cut.
func (f *File) Render(s, e, maxRunes int) (text string, truncated []int) {
	return f.render(f.shownLines, s, e, maxRunes)
}

// renderRaw is Render before redaction: the text a step is priced from
// until it may be taken (such a price is marked "~", see unread).
func (f *File) renderRaw(s, e, maxRunes int) string {
	text, _ := f.render(f.rawLines, s, e, maxRunes)
	return text
}

func (f *File) render(lines func(s, e int) []string, s, e, maxRunes int) (text string, truncated []int) {
	if maxRunes <= 0 {
		maxRunes = DefaultMaxLineRunes
	}
	s = max(s, 1)
	var b strings.Builder
	for i, line := range lines(s, min(e, f.Lines())) {
		n := s + i
		// A carriage return inside a line would let text overwrite itself on
		// a terminal; it is shown as the visible symbol ␍ instead.
		line = strings.ReplaceAll(strings.TrimSuffix(line, "\r"), "\r", "\u240d")
		if cut, more := capRunes(line, maxRunes); more > 0 {
			b.WriteString(cut)
			fmt.Fprintf(&b, " …[line truncated: %d more bytes]", more)
			truncated = append(truncated, n)
		} else {
			b.WriteString(line)
		}
		b.WriteByte('\n')
	}
	return b.String(), truncated
}

// capRunes returns the first max runes of s and how many bytes were left out.
func capRunes(s string, max int) (string, int) {
	if len(s) <= max {
		return s, 0
	}
	n := 0
	for i := range s {
		if n == max {
			return s[:i], len(s) - i
		}
		n++
	}
	return s, 0
}
