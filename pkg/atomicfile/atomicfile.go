// Package atomicfile writes files so that a reader sees the old content or the
// new, never a part, and so that nothing is written outside the directory a
// write is confined to: every file the toolkit writes goes through it.
//
// A write goes to a temporary file in the target's directory, opened by a
// directory handle resolved beneath its root (openat2 RESOLVE_BENEATH on
// Linux, a component-by-component check elsewhere), so a symlink that leads
// out of the root fails the write before a byte is written. Commit fsyncs
// the file, renames it over the target and fsyncs the directory, so a power
// cut after Commit cannot lose the file. Temporaries are named
// .<name>.<pid>-<random>.rtchtmp; creating a file removes the temporaries
// for the same name whose process is gone (a killed run), and only those.
package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrEscapes is returned (wrapped) when the target resolves outside its root.
var ErrEscapes = errors.New("resolves outside the directory it is confined to (a symlink leads out)")

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
// directories, and refuses (nothing written) any rel that resolves outside
// root, through ".." or a symlink.
func WriteBeneath(root, rel string, data []byte, perm os.FileMode) error {
	p, err := CreateBeneath(root, rel, perm, true)
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
// down that leads out refuses the write. An absolute path is the user's
// choice and only its last component is confined (it is replaced, never
// followed). An existing file's permissions are kept; a new file gets perm
// less the umask.
func Create(path string, perm os.FileMode) (*Pending, error) {
	root, rel := anchor(path)
	return CreateBeneath(root, rel, perm, false)
}

// CreateBeneath starts writing root/rel, resolved beneath root; with mkdir,
// missing directories are created (each beneath root).
func CreateBeneath(root, rel string, perm os.FileMode, mkdir bool) (*Pending, error) {
	rel = filepath.Clean(filepath.FromSlash(rel))
	if filepath.IsAbs(rel) || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, fmt.Errorf("%s: %w", rel, ErrEscapes)
	}
	dir, name := filepath.Split(rel)
	return create(root, filepath.Clean(dir), name, perm, mkdir)
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

// tempName is the temporary for name written by this process.
func tempName(name string, rnd uint64) string {
	return "." + name + "." + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatUint(rnd, 36) + ".rtchtmp"
}

// staleOwner returns the pid that wrote temporary entry for name, or 0 when
// entry is not such a temporary.
func staleOwner(entry, name string) int {
	rest, ok := strings.CutPrefix(entry, "."+name+".")
	if !ok {
		return 0
	}
	rest, ok = strings.CutSuffix(rest, ".rtchtmp")
	if !ok {
		return 0
	}
	pid, _, ok := strings.Cut(rest, "-")
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(pid)
	if err != nil || n <= 0 {
		return 0
	}
	return n
}
