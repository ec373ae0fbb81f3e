package wiki

import (
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/rtch/rtch/pkg/ignore"
)

// ignorer holds the ignore files that apply to wiki pages, as the lane's
// walker reads them: .git/info/exclude, then .gitignore, .ignore and
// .rtchignore of the root and of every directory down to the page, a deeper
// file overriding a shallower one and a later pattern an earlier one. A page
// inside an ignored directory is ignored whatever its own name matches.
type ignorer struct {
	root  string
	lists map[string][]*ignore.List // by directory, relative, "" for the root
}

var ignoreFiles = []string{".gitignore", ".ignore", ".rtchignore"}

func newIgnorer(root string) *ignorer {
	ig := &ignorer{root: root, lists: map[string][]*ignore.List{}}
	if b, err := os.ReadFile(filepath.Join(root, ".git", "info", "exclude")); err == nil {
		ig.lists["\x00exclude"] = []*ignore.List{ignore.Parse(b, "", ".git/info/exclude")}
	}
	return ig
}

func (ig *ignorer) dirLists(dir string) []*ignore.List {
	if ls, ok := ig.lists[dir]; ok {
		return ls
	}
	var ls []*ignore.List
	for _, name := range ignoreFiles {
		if b, err := os.ReadFile(filepath.Join(ig.root, filepath.FromSlash(dir), name)); err == nil {
			ls = append(ls, ignore.Parse(b, dir, path.Join(dir, name)))
		}
	}
	ig.lists[dir] = ls
	return ls
}

// match returns the pattern that ignores rel (a file) and the file it is
// in, or nil.
func (ig *ignorer) match(rel string) (*ignore.Pattern, string) {
	parts := strings.Split(rel, "/")
	for i := 1; i <= len(parts); i++ {
		p := strings.Join(parts[:i], "/")
		if m, src := ig.decide(p, i < len(parts)); m != nil && !m.Negate {
			return m, src
		}
	}
	return nil, ""
}

// decide returns the deciding pattern for p: the last match of the deepest
// ignore file (among those of p's ancestors) that has one.
func (ig *ignorer) decide(p string, isDir bool) (*ignore.Pattern, string) {
	dir := path.Dir(p)
	for {
		d := dir
		if d == "." {
			d = ""
		}
		ls := ig.dirLists(d)
		for i := len(ls) - 1; i >= 0; i-- {
			if m := ls[i].Match(p, isDir); m != nil {
				return m, ls[i].Source
			}
		}
		if d == "" {
			break
		}
		dir = path.Dir(dir)
	}
	for _, l := range ig.lists["\x00exclude"] {
		if m := l.Match(p, isDir); m != nil {
			return m, l.Source
		}
	}
	return nil, ""
}
