package scout

import (
	"path"
	"strings"

	"github.com/rtch/rtch/pkg/config"
	"github.com/rtch/rtch/pkg/walk"
)

// WalkOptions are the walker options of a zone, from its configuration. The
// scout and the probe both take them from here, so they always walk the same
// files.
func WalkOptions(c *config.Config, root string) walk.Options {
	return walk.Options{
		Root:        root,
		MaxFileSize: c.MaxFileSize(),
		Excludes:    c.Walk.Excludes,
		NoIgnore:    c.Walk.NoIgnore,
		Hidden:      c.Walk.Hidden,
	}
}

// IsPathPattern tells a forbidden path or glob ("legacy/**", "*.pb.go",
// "old.py") from a forbidden term or sentence.
func IsPathPattern(s string) bool {
	if s == "" || strings.ContainsAny(s, " \t") {
		return false
	}
	if strings.ContainsAny(s, "/*?[") {
		return true
	}
	ext := path.Ext(s)
	return ext != "" && ext != s && len(ext) <= 6 && knownExt[strings.ToLower(ext)]
}

var knownExt = map[string]bool{".go": true, ".py": true, ".js": true, ".ts": true, ".rs": true, ".java": true,
	".c": true, ".h": true, ".cc": true, ".cpp": true, ".rb": true, ".md": true, ".json": true, ".yaml": true,
	".yml": true, ".toml": true, ".txt": true, ".rst": true, ".tsx": true, ".jsx": true, ".hpp": true,
	".sh": true, ".cfg": true, ".ini": true, ".jsonl": true, ".html": true, ".css": true, ".sql": true}

// Excluded returns the pattern a path matches ("" when none): a glob on the
// whole path, a glob on the base name (patterns without '/'), or a
// directory prefix ("legacy/**", "legacy/").
func Excluded(p string, pats []string) string {
	for _, pat := range pats {
		q := strings.TrimPrefix(pat, "./")
		if ok, _ := path.Match(q, p); ok {
			return pat
		}
		if !strings.Contains(q, "/") {
			if ok, _ := path.Match(q, path.Base(p)); ok {
				return pat
			}
		}
		d := strings.TrimSuffix(strings.TrimSuffix(q, "**"), "/")
		if d != "" && !strings.ContainsAny(d, "*?[") && strings.HasPrefix(p, d+"/") {
			return pat
		}
	}
	return ""
}
