// Package atomicfile is the toolkit's one writer: every file any tool
// writes goes through it, so that a reader sees the old content or the
// new, never a part, and so that nothing is written outside the directory
// a write is confined to.
//
// A write is confined to a root: the directory it names is reached from
// the root one component at a time, each opened relative to the one
// before with O_NOFOLLOW (what openat2's RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS
// does, on every Unix), so a symlink anywhere below the root, or a "..",
// refuses the write before a byte is written, and missing directories are
// created inside their already-opened parent. The root itself is the
// caller's (a project root, the user's cache directory): a link in its own
// path is followed. Files are then created, appended to, locked, renamed
// and removed through the directory's handle (Dir), with O_NOFOLLOW on the
// last component too, and only regular files are written.
//
// A replacement goes to a temporary file in the target's directory; Commit
// fsyncs it, renames it over the target and fsyncs the directory, so a
// power cut after Commit cannot lose the file. Temporaries are named
// .<name>.<pid>-<random>.rtchtmp; creating a file in a directory removes
// the temporaries there whose process is gone (a killed run, whatever file
// it was writing), and only those.
package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrEscapes is returned (wrapped) when a write is refused because its
// path leads out of the directory it is confined to; ErrSymlink, which
// matches it too, when a component is a symlink.
var ErrEscapes = errors.New("leads out of the directory it is confined to")

// ErrSymlink is returned (wrapped) when a component of a write's path, or
// the file itself, is a symlink: a write never follows one.
var ErrSymlink error = refusal("is a symlink (a write never follows one)")

// ErrNotRegular is returned (wrapped) when the file to append to or lock
// is not a regular file (a FIFO, a device, a socket, a directory).
var ErrNotRegular error = refusal("is not a regular file")

type refusal string

func (r refusal) Error() string        { return string(r) }
func (r refusal) Is(target error) bool { return target == ErrEscapes }

// WriteFile replaces path with data atomically; on failure the old file is
// intact and no temporary file is left behind. path is confined as Create
// confines it.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	p, err := Create(path, perm)
	if err != nil {
		return err
	}
	return write(p, data)
}

// WriteBeneath replaces root/rel with data atomically, creating missing
// directories, and refuses (nothing written) any rel that goes through a
// symlink or out of root.
func WriteBeneath(root, rel string, data []byte, perm os.FileMode) error {
	p, err := CreateBeneath(root, rel, perm, true)
	if err != nil {
		return err
	}
	return write(p, data)
}

// WriteFile replaces name in d with data atomically.
func (d *Dir) WriteFile(name string, data []byte, perm os.FileMode) error {
	p, err := d.Create(name, perm)
	if err != nil {
		return err
	}
	return write(p, data)
}

func write(p *Pending, data []byte) error {
	defer p.Cleanup()
	if _, err := p.Write(data); err != nil {
		return err
	}
	return p.Commit()
}

// Create starts writing path. A relative path is confined to the directory
// it is written relative to: the working directory, or the directory its
// leading "../" components name (the user typed those); a symlink further
// down refuses the write. An absolute path is the user's choice and only
// its last component is confined (it is replaced, never followed). An
// existing file's permissions are kept; a new file gets perm less the
// umask.
func Create(path string, perm os.FileMode) (*Pending, error) { return CreateIn("", path, perm) }

// CreateIn is Create for a path relative to dir, the working directory an
// in-process caller stands for ("" is the process's): a relative path is
// confined to dir, or to what its leading "../" components name from it.
func CreateIn(dir, path string, perm os.FileMode) (*Pending, error) {
	root, rel := anchor(path)
	if dir != "" && !filepath.IsAbs(path) {
		root = filepath.Join(dir, root)
	}
	return CreateBeneath(root, rel, perm, false)
}

// CreateAll is Create that also makes the missing directories: beneath
// the confining directory for a relative path, and with os.MkdirAll (the
// user's own path) for an absolute one.
func CreateAll(path string, perm os.FileMode) (*Pending, error) {
	if filepath.IsAbs(path) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
	}
	root, rel := anchor(path)
	return CreateBeneath(root, rel, perm, true)
}

// CreateBeneath starts writing root/rel, resolved beneath root; with mkdir,
// missing directories are created (each beneath root, mode 0755 less the
// umask).
func CreateBeneath(root, rel string, perm os.FileMode, mkdir bool) (*Pending, error) {
	rel, err := local(rel)
	if err != nil || rel == "." {
		return nil, fmt.Errorf("%s: %w", rel, ErrEscapes)
	}
	dir, name := filepath.Split(rel)
	mode := os.FileMode(0)
	if mkdir {
		mode = 0o755
	}
	d, err := OpenDir(root, filepath.Clean(dir), mode)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.Create(name, perm)
}

// local cleans rel and refuses an absolute path or one that climbs out.
func local(rel string) (string, error) {
	c := filepath.Clean(filepath.FromSlash(rel))
	if c != "." && !filepath.IsLocal(c) {
		return c, fmt.Errorf("%s: %w", rel, ErrEscapes)
	}
	return c, nil
}

// anchor splits path into the directory it is confined to and the rest.
func anchor(path string) (root, rel string) {
	c := filepath.Clean(path)
	if filepath.IsAbs(c) {
		return filepath.Dir(c), filepath.Base(c)
	}
	root = "."
	sep := string(filepath.Separator)
	for c == ".." || strings.HasPrefix(c, ".."+sep) {
		root = filepath.Join(root, "..")
		c = strings.TrimPrefix(strings.TrimPrefix(c, ".."), sep)
	}
	return root, c
}

const tempSuffix = ".rtchtmp"

// tempName is the temporary for name written by this process.
func tempName(name string, rnd uint64) string {
	return "." + name + "." + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatUint(rnd, 36) + tempSuffix
}

// staleOwner returns the pid that wrote temporary entry, or 0 when entry
// is not one. The files SQLite keeps beside a database written as a
// temporary (-journal, -wal, -shm) count as the temporary's.
func staleOwner(entry string) int {
	for _, s := range []string{"-journal", "-wal", "-shm"} {
		entry = strings.TrimSuffix(entry, s)
	}
	rest, ok := strings.CutSuffix(entry, tempSuffix)
	if !ok || !strings.HasPrefix(rest, ".") {
		return 0
	}
	i := strings.LastIndexByte(rest, '.')
	if i <= 0 {
		return 0
	}
	pid, rnd, ok := strings.Cut(rest[i+1:], "-")
	if !ok || rnd == "" {
		return 0
	}
	if _, err := strconv.ParseUint(rnd, 36, 64); err != nil {
		return 0
	}
	n, err := strconv.Atoi(pid)
	if err != nil || n <= 0 {
		return 0
	}
	return n
}
