package rank

import (
	"math"
	"path"
	"slices"
	"strings"
	"unicode"
)

// manifests are the files that make their directory a package, crate or
// module root.
var manifests = map[string]bool{
	"go.mod": true, "Cargo.toml": true, "package.json": true, "pyproject.toml": true, "setup.py": true,
	"setup.cfg": true, "pom.xml": true, "build.gradle": true, "build.gradle.kts": true, "deno.json": true,
}

// Packages are the directories of paths (a tree's files) that hold a
// manifest, sorted; the tree's top is not one (every file is in it).
func Packages(paths []string) []string {
	var out []string
	for _, p := range paths {
		if d := path.Dir(p); d != "." && manifests[path.Base(p)] {
			out = append(out, d)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// packageOf is the deepest package directory holding p, "" for none.
func packageOf(pkgs []string, p string) string {
	best := ""
	for d := path.Dir(p); d != "." && d != "/"; d = path.Dir(d) {
		if _, ok := slices.BinarySearch(pkgs, d); ok {
			best = d
			break
		}
	}
	return best
}

// siblings is what tells same-named files of sibling packages apart: how
// many files above share the file's name, and whether the goal names its
// package (the package directory's name, "axum-macros", "compiler-sfc")
// or another one's.
type siblings struct {
	above, same []int
	named       []float64 // 1 the whole name, else the share of its words
	words       []float64
	anyNamed    bool
	inPkg       []bool
}

func siblingsOf(scored []Scored, cx Context) siblings {
	n := len(scored)
	sb := siblings{above: make([]int, n), same: make([]int, n), named: make([]float64, n), words: make([]float64, n), inPkg: make([]bool, n)}
	byBase := map[string][]int{}
	for i, s := range scored {
		b := path.Base(s.Path)
		sb.above[i] = len(byBase[b])
		byBase[b] = append(byBase[b], i)
	}
	goal := strings.ToLower(cx.Goal)
	words := goalWords(goal)
	for i, s := range scored {
		sb.same[i] = len(byBase[path.Base(s.Path)])
		pkg := packageOf(cx.Packages, s.Path)
		if pkg == "" {
			continue
		}
		sb.inPkg[i] = true
		name := strings.ToLower(path.Base(pkg))
		parts := nameWords(name)
		hit := 0
		for _, w := range parts {
			if words[w] {
				hit++
			}
		}
		if len(parts) > 0 {
			sb.words[i] = float64(hit) / float64(len(parts))
		}
		if namedIn(goal, name) {
			sb.named[i] = 1
			sb.anyNamed = true
		}
	}
	return sb
}

func (sb siblings) row(i int) []float64 {
	return []float64{float64(sb.above[i]), math.Log1p(float64(sb.same[i] - 1)), sb.named[i], sb.words[i],
		flag(sb.anyNamed && sb.named[i] == 0), flag(sb.inPkg[i])}
}

// namedIn reports whether name occurs in the lower-cased goal as a word
// of its own (not inside a longer word or name).
func namedIn(goal, name string) bool {
	for at := 0; ; {
		i := strings.Index(goal[at:], name)
		if i < 0 {
			return false
		}
		i += at
		end := i + len(name)
		if (i == 0 || !nameByte(goal[i-1])) && (end == len(goal) || !nameByte(goal[end])) {
			return true
		}
		at = i + 1
	}
}

func nameByte(b byte) bool {
	return b == '_' || b == '-' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || b >= 0x80
}

// goalWords are the lower-case words of a goal.
func goalWords(goal string) map[string]bool {
	out := map[string]bool{}
	for _, w := range nameWords(goal) {
		out[w] = true
	}
	return out
}

// nameWords splits text into words of letters and digits.
func nameWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}
