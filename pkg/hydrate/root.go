package hydrate

import (
	"os/exec"
	"strings"
)

// GitHead returns HEAD's commit for the work tree at root, "" outside git or on
// an unborn branch. (The zone root itself is resolved by package zone.)
func GitHead(root string) string {
	cmd := exec.Command("git", "rev-parse", "--verify", "-q", "HEAD")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
