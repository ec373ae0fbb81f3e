package hydrate

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ResolveRoot finds the zone root for re-entry and rehydration when no rtch.zone
// record says it, by rtch-zone's rule (SPEC §6): $RTCH_ZONE_ROOT, then the
// nearest ancestor of dir holding a .ticzone marker, then `git rev-parse
// --show-toplevel`, then dir itself. It returns the absolute root and which rule
// decided (env, ticzone, git, cwd).
func ResolveRoot(getenv func(string) string, dir string) (string, string, error) {
	if v := getenv("RTCH_ZONE_ROOT"); v != "" {
		abs, err := filepath.Abs(v)
		return abs, "env", err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", "", err
	}
	for d := abs; ; {
		if _, err := os.Lstat(filepath.Join(d, ".ticzone")); err == nil {
			return d, "ticzone", nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	cmd := exec.Command("git", "rev-parse", "--show-toplevel")
	cmd.Dir = abs
	if out, err := cmd.Output(); err == nil {
		if top := strings.TrimSpace(string(out)); top != "" {
			return top, "git", nil
		}
	}
	return abs, "cwd", nil
}

// GitHead returns HEAD's commit for the work tree at root, "" outside git or on
// an unborn branch.
func GitHead(root string) string {
	cmd := exec.Command("git", "rev-parse", "--verify", "-q", "HEAD")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
