package zone

import (
	"context"
	"os/exec"
	"strings"

	"github.com/rtch/rtch/pkg/schema"
)

// Snapshot takes the git state of the work tree holding dir: HEAD, branch,
// counts of modified and untracked entries and the first maxLines lines of
// `git status --short`. Outside a git work tree (or without git) it returns
// nil and no error: the record's git field is then null. An error means git
// is there but a command failed; the snapshot is then nil too.
func Snapshot(ctx context.Context, dir string, maxLines int) (*schema.GitSnapshot, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, nil
	}
	inside, err := discover(ctx, dir, "rev-parse", "--is-inside-work-tree")
	if err != nil || strings.TrimSpace(inside) != "true" {
		return nil, nil
	}
	s := &schema.GitSnapshot{Status: []string{}}
	// An unborn branch has no HEAD commit: Head stays "".
	if out, err := git(ctx, dir, "rev-parse", "--verify", "-q", "HEAD"); err == nil {
		s.Head = strings.TrimSpace(out)
	}
	// Detached HEAD: symbolic-ref fails quietly and Branch stays "".
	if out, err := git(ctx, dir, "symbolic-ref", "--short", "-q", "HEAD"); err == nil {
		s.Branch = strings.TrimSpace(out)
	}
	out, err := git(ctx, dir, "status", "--short", "--untracked-files=normal")
	if err != nil {
		return nil, err
	}
	for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "??") {
			s.Untracked++
		} else {
			s.Modified++
		}
		if len(s.Status) < maxLines {
			s.Status = append(s.Status, line)
		}
	}
	return s, nil
}
