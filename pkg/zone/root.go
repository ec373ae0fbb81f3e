// Package zone orients a lane (SPEC §6): it resolves the zone root and says
// which rule decided it, finds the rung chain between the root and the target
// directory with each rung's instruction file, lists the truth files and the
// manifests and registries at the root, and takes a git snapshot (null outside
// git). Every path it returns is relative to the zone root and "/"-separated.
//
// The package reads the file system and runs git; it never parses flags or
// exits.
package zone

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Rules that can decide the zone root, in the order they are tried.
const (
	DecidedByEnv     = "env"
	DecidedByTiczone = "ticzone"
	DecidedByGit     = "git"
	DecidedByCwd     = "cwd"
)

// EnvRoot is the environment variable that names the zone root outright.
const EnvRoot = "RTCH_ZONE_ROOT"

// TiczoneMarker marks a zone root when found walking up from the start dir.
const TiczoneMarker = ".ticzone"

// Root is a resolved zone root.
type Root struct {
	// Dir is the absolute zone root, symlinks resolved.
	Dir string
	// DecidedBy names the rule that chose it: env, ticzone, git or cwd.
	DecidedBy string
	// Start is the absolute start directory (the cwd or --dir), symlinks resolved.
	Start string
}

// ResolveRoot finds the zone root for a lane started in start (a directory;
// "" means the working directory): $RTCH_ZONE_ROOT if set (getenv may be nil),
// else the nearest directory at or above start holding a .ticzone marker, else
// the top of the git work tree holding start, else start itself.
func ResolveRoot(ctx context.Context, start string, getenv func(string) string) (Root, error) {
	if start == "" {
		wd, err := os.Getwd()
		if err != nil {
			return Root{}, fmt.Errorf("working directory: %w", err)
		}
		start = wd
	}
	abs, err := canonicalDir(start)
	if err != nil {
		return Root{}, err
	}
	r := Root{Start: abs}
	if getenv != nil {
		if env := getenv(EnvRoot); env != "" {
			dir, err := canonicalDir(env)
			if err != nil {
				return Root{}, fmt.Errorf("$%s: %w", EnvRoot, err)
			}
			r.Dir, r.DecidedBy = dir, DecidedByEnv
			return r, nil
		}
	}
	for dir := abs; ; dir = filepath.Dir(dir) {
		if _, err := os.Lstat(filepath.Join(dir, TiczoneMarker)); err == nil {
			r.Dir, r.DecidedBy = dir, DecidedByTiczone
			return r, nil
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	if top, ok := gitTopLevel(ctx, abs); ok {
		r.Dir, r.DecidedBy = top, DecidedByGit
		return r, nil
	}
	r.Dir, r.DecidedBy = abs, DecidedByCwd
	return r, nil
}

// canonicalDir returns the absolute, symlink-resolved form of a directory.
func canonicalDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("%s: no such directory", dir)
		}
		return "", err
	}
	st, err := os.Stat(real)
	if err != nil {
		return "", err
	}
	if !st.IsDir() {
		return "", fmt.Errorf("%s: not a directory", dir)
	}
	return real, nil
}

// gitTopLevel runs `git rev-parse --show-toplevel` in dir.
func gitTopLevel(ctx context.Context, dir string) (string, bool) {
	out, err := discover(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", false
	}
	top := strings.TrimSpace(out)
	if top == "" {
		return "", false
	}
	real, err := canonicalDir(top)
	if err != nil {
		return "", false
	}
	return real, true
}

// git runs a read-only git command in dir. GIT_OPTIONAL_LOCKS=0 keeps
// `git status` from taking the index lock, so a snapshot never gets in the way
// of a commit running beside it.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return string(out), fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, msg)
		}
		return string(out), fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return string(out), nil
}

// Rel returns p relative to the root, "/"-separated; "." for the root itself.
func (r Root) Rel(p string) string {
	rel, err := filepath.Rel(r.Dir, p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(rel)
}
