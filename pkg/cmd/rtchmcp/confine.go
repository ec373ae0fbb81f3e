package rtchmcp

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Root is the one directory the server serves. Every path a client names is
// confined to it: resolved against it, and refused when it leaves it, either
// by name (../, an absolute path elsewhere) or through a symbolic link.
type Root struct {
	// Dir is absolute and free of symbolic links.
	Dir string
}

// NewRoot canonicalises dir.
func NewRoot(dir string) (Root, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Root{}, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return Root{}, err
	}
	st, err := os.Stat(real)
	if err != nil {
		return Root{}, err
	}
	if !st.IsDir() {
		return Root{}, fmt.Errorf("%s: not a directory", dir)
	}
	return Root{Dir: real}, nil
}

// PathError is a path argument the root refuses.
type PathError struct {
	// Arg names the tool argument, Path is the value as given.
	Arg, Path string
	// Why is the reason, e.g. "outside the root /srv/repo".
	Why string
}

func (e *PathError) Error() string { return fmt.Sprintf("%s %q: %s", e.Arg, e.Path, e.Why) }

// Confine resolves p (relative to the root, or absolute) and returns it
// relative to the root, slash-separated, and absolute. The path need not
// exist; the part of it that does must not leave the root through a link.
func (r Root) Confine(arg, p string) (rel, abs string, err error) {
	if p == "" {
		return "", "", &PathError{arg, p, "empty path"}
	}
	if strings.ContainsRune(p, 0) {
		return "", "", &PathError{arg, p, "contains a NUL byte"}
	}
	abs = filepath.Clean(p)
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(r.Dir, abs)
	}
	if !within(r.Dir, abs) {
		return "", "", &PathError{arg, p, "outside the root " + r.Dir}
	}
	real, err := resolveExisting(abs)
	if err != nil {
		return "", "", &PathError{arg, p, err.Error()}
	}
	if !within(r.Dir, real) {
		return "", "", &PathError{arg, p, fmt.Sprintf("leaves the root %s through a symbolic link (it resolves to %s)", r.Dir, real)}
	}
	rel, _ = filepath.Rel(r.Dir, abs)
	return filepath.ToSlash(rel), abs, nil
}

// resolveExisting resolves the symbolic links of the longest existing prefix
// of abs and appends the rest unchanged.
func resolveExisting(abs string) (string, error) {
	rest := ""
	for p := abs; ; p = filepath.Dir(p) {
		real, err := filepath.EvalSymlinks(p)
		if err == nil {
			return filepath.Join(real, rest), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		if st, lerr := os.Lstat(p); lerr == nil && st.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			return "", fmt.Errorf("goes through the dangling symbolic link %s (to %s)", p, target)
		}
		if filepath.Dir(p) == p {
			return abs, nil
		}
		rest = filepath.Join(filepath.Base(p), rest)
	}
}

func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
