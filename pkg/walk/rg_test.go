package walk

import (
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// ripgrep is the reference for what git does not define: the precedence
// of .ignore and custom ignore files (.rgignore for rg, .rtchignore for
// us) over .gitignore, hidden files, and nested repositories. These tests
// write the same rules under both names and compare listings.

func needRg(t *testing.T) {
	if _, err := exec.LookPath("rg"); err != nil {
		t.Skip("rg not installed: the ripgrep agreement tests need it")
	}
}

func rgFiles(t *testing.T, dir string) []string {
	t.Helper()
	cmd := exec.Command("rg", "--files", "--no-config", "--no-ignore-global", "--no-ignore-parent")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); !(ok && ee.ExitCode() == 1) {
			t.Fatalf("rg --files: %v", err)
		}
	}
	// Unlike rg, whose only reason to skip .git is that it is hidden (a
	// whitelist such as "!.*" walks into it), the walker always skips .git.
	// .rgignore is rg's copy of the rules; the walker is told to exclude it.
	var list []string
	for _, l := range strings.Split(string(out), "\n") {
		if l != "" && l != ".git" && filepath.Base(l) != ".rgignore" && !strings.HasPrefix(l, ".git/") && !strings.Contains(l, "/.git/") {
			list = append(list, l)
		}
	}
	sort.Strings(list)
	return list
}

// writeRules writes content as .rtchignore for the walker and as
// .rgignore for ripgrep, and hides .rgignore from the walker.
func writeRules(t *testing.T, dir, rel, content string) {
	t.Helper()
	for _, name := range []string{".rtchignore", ".rgignore"} {
		p := filepath.Join(dir, filepath.FromSlash(rel), name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestRipgrepAgreement(t *testing.T) {
	needGit(t)
	needRg(t)
	dir := t.TempDir()
	env := gitEnv(t)
	git(t, dir, env, nil, "init", "-q")
	writeTree(t, dir, map[string]string{
		".gitignore":         "*.gen\nbuild/\n!keep.gen\n",
		".ignore":            "*.tmp\n!build/\n",
		"a.go":               "",
		"x.gen":              "",
		"keep.gen":           "",
		"b.tmp":              "",
		"build/out.txt":      "",
		"sub/.gitignore":     "!*.tmp\n*.md\n",
		"sub/y.tmp":          "",
		"sub/r.md":           "",
		"sub/deep/z.tmp":     "",
		"sub/deep/q.gen":     "",
		".github/ci.yml":     "",
		".env":               "",
		"vendor/lib/v.gen":   "",
		"vendor/lib/v.go":    "",
		"vendor/lib/v.tmp":   "",
		"vendor/lib/.ignore": "v.go\n",
		"docs/a.md":          "",
		"docs/b.md":          "",
		"docs/.ignore":       "a.md\n",
	})
	writeRules(t, dir, "", "!.github/\n*.md\n")
	writeRules(t, dir, "docs", "!*.md\n")
	git(t, filepath.Join(dir, "vendor/lib"), env, nil, "init", "-q")

	want := rgFiles(t, dir)
	got := walkPaths(t, Options{Root: dir, Excludes: []string{".rgignore"}})
	if onlyRg, onlyWalk := diff(want, got); len(onlyRg)+len(onlyWalk) > 0 {
		t.Errorf("listed by rg only: %q\nlisted by walk only: %q\nrg: %q", onlyRg, onlyWalk, want)
	}
	// A few outcomes spelled out, so the reference itself is checked.
	for _, p := range []string{".github/ci.yml", "build/out.txt", "keep.gen", "docs/a.md", "docs/b.md", "vendor/lib/v.gen"} {
		if !contains(got, p) {
			t.Errorf("%s should be listed", p)
		}
	}
	for _, p := range []string{".env", "x.gen", "b.tmp", "sub/y.tmp", "sub/r.md", "sub/deep/q.gen", "vendor/lib/v.go", "vendor/lib/v.tmp"} {
		if contains(got, p) {
			t.Errorf("%s should not be listed", p)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestRipgrepAgreementRandom draws rules for .gitignore, .ignore and the
// custom ignore file at two levels and compares with rg each round.
func TestRipgrepAgreementRandom(t *testing.T) {
	needGit(t)
	needRg(t)
	dir := t.TempDir()
	env := gitEnv(t)
	git(t, dir, env, nil, "init", "-q")
	names := []string{"a", "b", "a.go", "b.md", ".h"}
	files := map[string]string{}
	for _, n1 := range names {
		files[n1+"x"] = ""
		for _, n2 := range names {
			files[n1+"/"+n2+"y"] = ""
			for _, n3 := range names {
				files[n1+"/"+n2+"/"+n3] = ""
			}
		}
	}
	writeTreeSkipConflicts(t, dir, files)
	atoms := []string{"a", "b", "*", "*.go", "*.md", "?", ".h", "x", "y", "[ab]"}
	rnd := rand.New(rand.NewSource(2))
	gen := func() string {
		var sb strings.Builder
		if rnd.Intn(3) == 0 {
			sb.WriteByte('!')
		}
		if rnd.Intn(5) == 0 {
			sb.WriteByte('/')
		}
		for k := rnd.Intn(2) + 1; k > 0; k-- {
			sb.WriteString(atoms[rnd.Intn(len(atoms))])
			if k > 1 {
				sb.WriteByte('/')
			}
		}
		if rnd.Intn(5) == 0 {
			sb.WriteByte('/')
		}
		return sb.String()
	}
	rounds := 40
	if testing.Short() {
		rounds = 8
	}
	total := len(walkPaths(t, Options{Root: dir}))
	informative := 0
	defer func() {
		if informative < rounds/2 {
			t.Errorf("only %d of %d rounds were informative", informative, rounds)
		}
	}()
	for round := 0; round < rounds; round++ {
		var written []string
		for _, d := range []string{"", "a"} {
			for _, name := range []string{".gitignore", ".ignore", "custom"} {
				var lines []string
				for k := rnd.Intn(3); k > 0; k-- {
					lines = append(lines, gen())
				}
				content := strings.Join(lines, "\n") + "\n"
				if name == "custom" {
					writeRules(t, dir, d, content)
					written = append(written, filepath.Join(dir, d, ".rtchignore"), filepath.Join(dir, d, ".rgignore"))
				} else {
					p := filepath.Join(dir, d, name)
					if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
						t.Fatal(err)
					}
					written = append(written, p)
				}
				t.Logf("round %d: %s/%s: %q", round, d, name, lines)
			}
		}
		want := rgFiles(t, dir)
		got := walkPaths(t, Options{Root: dir, Excludes: []string{".rgignore"}})
		if onlyRg, onlyWalk := diff(want, got); len(onlyRg)+len(onlyWalk) > 0 {
			t.Fatalf("round %d: listed by rg only: %q\nlisted by walk only: %q", round, onlyRg, onlyWalk)
		}
		if len(want) > 0 && len(want) != total {
			informative++
		}
		for _, p := range written {
			os.Remove(p)
		}
	}
}
