package rtchmcp

import (
	"context"
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
// Its cost is linear in the path's length; ctx stops it.
func (r Root) Confine(ctx context.Context, arg, p string) (rel, abs string, err error) {
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
	real, err := resolveExisting(ctx, abs)
	if err != nil {
		return "", "", &PathError{arg, p, err.Error()}
	}
	if !within(r.Dir, real) {
		return "", "", &PathError{arg, p, fmt.Sprintf("leaves the root %s through a symbolic link (it resolves to %s)", r.Dir, real)}
	}
	rel, _ = filepath.Rel(r.Dir, abs)
	return filepath.ToSlash(rel), abs, nil
}

// maxLinks is how many symbolic links one path may go through, as
// filepath.EvalSymlinks allows.
const maxLinks = 255

// lstat is os.Lstat; a test counts its calls.
var lstat = os.Lstat

// resolveExisting resolves the symbolic links of the longest existing
// prefix of abs (absolute and clean) and appends the rest unchanged. It
// walks the path once from the top, each component stated once and a
// link's target taking the link's place, so its cost is linear in the
// path's length (and in the links' targets); a component that does not
// exist ends the walk. A link whose target does not exist is refused: a
// later write could follow it out of the root.
func resolveExisting(ctx context.Context, abs string) (string, error) {
	todo := reversed(strings.Split(abs, string(filepath.Separator)))
	var links []pendingLink // links being resolved, innermost last
	real, hops := string(filepath.Separator), 0
	for n := 0; len(todo) > 0; n++ {
		if n%256 == 0 && ctx.Err() != nil {
			return "", ctx.Err()
		}
		for len(links) > 0 && len(todo) <= links[len(links)-1].below {
			links = links[:len(links)-1]
		}
		c := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		switch c {
		case "", ".":
			continue
		case "..":
			real = filepath.Dir(real)
			continue
		}
		next := filepath.Join(real, c)
		st, err := lstat(next)
		if errors.Is(err, fs.ErrNotExist) {
			if len(links) > 0 {
				l := links[len(links)-1]
				return "", fmt.Errorf("goes through the dangling symbolic link %s (to %s)", l.path, l.target)
			}
			return filepath.Join(next, filepath.Join(reversed(todo)...)), nil
		}
		if err != nil {
			return "", err
		}
		if st.Mode()&fs.ModeSymlink == 0 {
			real = next
			continue
		}
		if hops++; hops > maxLinks {
			return "", fmt.Errorf("goes through more than %d symbolic links", maxLinks)
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", err
		}
		links = append(links, pendingLink{path: next, target: target, below: len(todo)})
		if filepath.IsAbs(target) {
			real = string(filepath.Separator)
		}
		todo = append(todo, reversed(strings.Split(target, string(filepath.Separator)))...)
	}
	return real, nil
}

// pendingLink is a link whose target is being walked: its components are
// those of todo above below.
type pendingLink struct {
	path, target string
	below        int
}

func reversed(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[len(s)-1-i] = x
	}
	return out
}

func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
