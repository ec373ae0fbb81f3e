// Package docs holds the tests that keep the pages of docs/ and the README
// true to the code: every configuration key is in the guide, every package
// in the README's layout block, every diagnostic the FAQ quotes printed by
// the tool in the situation the FAQ describes, every relative link leading
// to a file and heading, and no file of the
// repository numbering the sessions of work that made it.
package docs

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/rtch/rtch/pkg/config"
	"github.com/rtch/rtch/pkg/guildconfig"
)

// tomlKeys lists the dotted keys a configuration struct decodes; a map's
// key is written <level>, as the guide writes it.
func tomlKeys(t reflect.Type, prefix string) []string {
	var keys []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if name == "" || name == "-" {
			continue
		}
		key := prefix + name
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		switch {
		case ft.Kind() == reflect.Struct:
			keys = append(keys, tomlKeys(ft, key+".")...)
		case ft.Kind() == reflect.Map && ft.Elem().Kind() == reflect.Struct:
			keys = append(keys, tomlKeys(ft.Elem(), key+".<level>.")...)
		case ft.Kind() == reflect.Map:
			keys = append(keys, key+".<level>")
		default:
			keys = append(keys, key)
		}
	}
	return keys
}

// TestGuideNamesEveryConfigKey fails when .rtch.toml or .guild/config.toml
// gains a key the guide's tables do not list.
func TestGuideNamesEveryConfigKey(t *testing.T) {
	guide, err := os.ReadFile("guide.md")
	if err != nil {
		t.Fatal(err)
	}
	for file, v := range map[string]any{".rtch.toml": config.Config{}, ".guild/config.toml": guildconfig.Config{}} {
		keys := tomlKeys(reflect.TypeOf(v), "")
		if len(keys) < 10 {
			t.Fatalf("%s: only %d keys found: %v", file, len(keys), keys)
		}
		for _, k := range keys {
			if !strings.Contains(string(guide), "| `"+k+"` |") {
				t.Errorf("docs/guide.md has no row for %s key %s", file, k)
			}
		}
	}
}

// TestReadmeLayoutNamesEveryPackage fails when a directory of pkg/ is
// missing from the README's layout block.
func TestReadmeLayoutNamesEveryPackage(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, layout, ok := strings.Cut(string(readme), "## Layout\n")
	if !ok {
		t.Fatal("README.md has no Layout section")
	}
	layout, _, _ = strings.Cut(layout, "\n## ")
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(layout, func(r rune) bool { return r == ' ' || r == ',' || r == '/' || r == '\n' }) {
		words[w] = true
	}
	dirs, err := os.ReadDir("../pkg")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if d.IsDir() && !words[d.Name()] {
			t.Errorf("README.md's layout block does not name pkg/%s", d.Name())
		}
	}
}

var linkRe = regexp.MustCompile(`\]\(([^)#\s]*)(#[^)\s]*)?\)`)

// TestRelativeLinksResolve fails when a page links to a file that does not
// exist, or to an anchor that no heading of the page it names makes.
func TestRelativeLinksResolve(t *testing.T) {
	pages, _ := filepath.Glob("*.md")
	more, _ := filepath.Glob("*/*.md")
	pages = append(append(pages, more...), filepath.Join("..", "README.md"))
	for _, page := range pages {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range linkRe.FindAllStringSubmatch(string(text), -1) {
			target := m[1]
			if target == "" {
				target = filepath.Base(page)
			}
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file := filepath.Join(filepath.Dir(page), filepath.FromSlash(target))
			if _, err := os.Stat(file); err != nil {
				t.Errorf("%s links to %s, which does not exist", page, target)
				continue
			}
			if anchor := strings.TrimPrefix(m[2], "#"); anchor != "" && strings.HasSuffix(file, ".md") && !pageAnchors(t, file)[anchor] {
				t.Errorf("%s links to %s#%s, which has no such heading", page, target, anchor)
			}
		}
	}
}

// pageAnchors gives the anchors GitHub makes of a page's headings (outside
// code fences): lower case, punctuation dropped, spaces as hyphens, a
// repeated heading numbered -1, -2 and so on.
func pageAnchors(t *testing.T, file string) map[string]bool {
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	anchors, seen, fenced := map[string]bool{}, map[string]int{}, false
	for line := range strings.Lines(string(text)) {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
		}
		heading, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " ")
		if fenced || !ok || !strings.HasPrefix(line, "#") {
			continue
		}
		slug := strings.Map(func(r rune) rune {
			switch {
			case r == ' ':
				return '-'
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				return unicode.ToLower(r)
			}
			return -1
		}, strings.TrimSpace(heading))
		if n := seen[slug]; n > 0 {
			anchors[fmt.Sprintf("%s-%d", slug, n)] = true
		} else {
			anchors[slug] = true
		}
		seen[slug]++
	}
	return anchors
}

// TestNoSessionsOfWorkNumbered fails when a file of the repository numbers
// the sessions of work that made it: the story of a change belongs in its
// commit message, and docs describe the present.
func TestNoSessionsOfWorkNumbered(t *testing.T) {
	numbered := regexp.MustCompile(`(?i)\bsessions? [0-9]`)
	root := ".."
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil || info.Size() > 4<<20 {
			return err
		}
		text, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if loc := numbered.FindIndex(text); loc != nil {
			line := 1 + strings.Count(string(text[:loc[0]]), "\n")
			t.Errorf("%s:%d numbers a session of work: %q", path, line, text[loc[0]:loc[1]])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
