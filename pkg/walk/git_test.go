package walk

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// gitEnv isolates git from the machine's configuration, so that only the
// tree's own ignore files count (the walker reads no global excludes).
func gitEnv(t testing.TB) []string {
	home := t.TempDir()
	return append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home,
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+filepath.Join(home, "none"))
}

func git(t testing.TB, dir string, env []string, stdin []byte, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = env
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		// check-ignore exits 1 when nothing matched; that is an answer.
		if ee, ok := err.(*exec.ExitError); !(ok && ee.ExitCode() == 1 && args[0] == "check-ignore") {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
		}
	}
	return out
}

func needGit(t testing.TB) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed: the agreement tests need it")
	}
}

func splitZ(b []byte) []string {
	var out []string
	for _, f := range bytes.Split(b, []byte{0}) {
		if len(f) > 0 {
			out = append(out, string(f))
		}
	}
	return out
}

// matrixIgnores are the ignore files of the agreement matrix: one tricky
// construct per line, in the root, nested directories and info/exclude.
var matrixIgnores = map[string]string{
	".gitignore": strings.Join([]string{
		"# a comment",
		"\\#hash.txt",
		"\\!bang.txt",
		"*.log",
		"!important.log",
		"/rootonly.txt",
		"build/",
		"doc/**/*.pdf",
		"**/cache",
		"a/**/z",
		"foo/*",
		"!foo/keep",
		"trailing.txt   ",
		"escaped\\ ",
		"*.[oa]",
		"[!x]y.bin",
		"file?.q",
		"dironly/",
		"**/deepdir/**",
		"lit[ab]",
		"abc**def",
		"/x/*/y",
		"nested/**/",
		"[[:digit:]].num",
		"crlf.txt\r",
		"star*/in/dir",
		"q\\*s",
		"[a-c]range",
		"[]]br",
		"[!]]nb",
		"**/",
		"!**/",
		"mid/**",
		"!mid/**/*.go",
		"sp ace",
		"bad[",
		"\\\\back",
		"",
		"   ",
		"ex[[:foo:]]",
		"/**/anyroot",
		"tab\t",
	}, "\n") + "\n",
	"sub/.gitignore":       "!*.log\n/anch\nsub2/\n*.txt\n!/keep.txt\n",
	"sub/inner/.gitignore": "*\n!*.keep\n!*/\n",
	"foo/.gitignore":       "!*.log\n",
	"deepa/.gitignore":     "b/c/\n!b/c/d\n",
	".git/info/exclude":    "excluded-by-info\n*.tmp\n!not.tmp\n",
}

// matrixDirs and matrixFiles span the tree: every file name under every
// directory up to two levels deep.
var (
	matrixDirs = []string{"a", "b", "z", "foo", "build", "cache", "deepdir", "doc", "sub", "sub/inner",
		"nested", "x", "mid", ".hid", "dironly", "star1", "in", "sub2", "deepa/b/c", "deepa/b/c/d"}
	matrixFiles = []string{"a.go", "z", "y", "keep", "x.log", "important.log", "rootonly.txt", "t.pdf",
		"#hash.txt", "!bang.txt", "trailing.txt", "escaped ", "m.o", "m.a", "ay.bin", "xy.bin", "file1.q",
		"file12.q", "dironly", "lita", "litc", "abcXdef", "abc/def", "1.num", "crlf.txt", "q*s", "qxs",
		"brange", "drange", "]br", "xnb", "]nb", "sp ace", "bad[", "\\back", "excluded-by-info", "v.tmp",
		"not.tmp", "anch", "keep.txt", "f.keep", "dir", "anyroot", "tab\t", ".dot"}
)

func buildMatrix(t testing.TB, dir string, env []string) {
	git(t, dir, env, nil, "init", "-q")
	files := map[string]string{}
	for k, v := range matrixIgnores {
		files[k] = v
	}
	for _, f := range matrixFiles {
		if strings.Contains(f, "/") {
			continue
		}
		files[f] = "x\n"
		for _, d := range matrixDirs {
			files[d+"/"+f] = "x\n"
			for _, d2 := range []string{"a", "cache", "z", "mid2"} {
				files[d+"/"+d2+"/"+f] = "x\n"
			}
		}
	}
	// Names that are directories in some places and files in others.
	for _, p := range []string{"abc/def", "star1/in/dir", "x/q/y", "x/q/r/y", "doc/p/q/t.pdf", "mid/a/b.go", "mid/a/b.c",
		"nested/n1/f", "a/z/f", "a/b/c/z/f", "anyroot/f", "sub/sub2/f", "sub/x/anch", "sub/anch/f"} {
		files[p] = "x\n"
	}
	for p := range files {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil && strings.Contains(p, "/") {
			continue
		}
	}
	writeTreeSkipConflicts(t, dir, files)
}

// writeTreeSkipConflicts writes files in sorted order and leaves out any
// whose path needs a directory where a file already is, or vice versa.
func writeTreeSkipConflicts(t testing.TB, dir string, files map[string]string) {
	keys := make([]string, 0, len(files))
	for k := range files {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		full := filepath.Join(dir, filepath.FromSlash(k))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			continue
		}
		if st, err := os.Stat(full); err == nil && st.IsDir() {
			continue
		}
		if err := os.WriteFile(full, []byte(files[k]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func walkPaths(t testing.TB, o Options) []string {
	fs, err := Files(context.Background(), o, nil)
	if err != nil {
		t.Fatal(err)
	}
	return paths(fs)
}

func diff(a, b []string) (onlyA, onlyB []string) {
	in := map[string]int{}
	for _, x := range a {
		in[x] |= 1
	}
	for _, x := range b {
		in[x] |= 2
	}
	for x, v := range in {
		switch v {
		case 1:
			onlyA = append(onlyA, x)
		case 2:
			onlyB = append(onlyB, x)
		}
	}
	sort.Strings(onlyA)
	sort.Strings(onlyB)
	return
}

// TestGitAgreement builds a repository of tricky patterns and checks that
// the walker lists exactly what `git ls-files -co --exclude-standard` does,
// and that for every ignored entry it blames the same file, line and
// pattern as `git check-ignore -v`.
func TestGitAgreement(t *testing.T) {
	needGit(t)
	dir := t.TempDir()
	env := gitEnv(t)
	buildMatrix(t, dir, env)
	want := splitZ(git(t, dir, env, nil, "ls-files", "-co", "--exclude-standard", "-z"))
	sort.Strings(want)
	var skips []Skip
	fs, err := Files(context.Background(), Options{Root: dir, Hidden: true, ReportIgnored: true}, func(s Skip) { skips = append(skips, s) })
	if err != nil {
		t.Fatal(err)
	}
	got := paths(fs)
	if len(want) < 500 {
		t.Fatalf("matrix too small: git lists %d files", len(want))
	}
	if onlyGit, onlyWalk := diff(want, got); len(onlyGit)+len(onlyWalk) > 0 {
		t.Errorf("listed by git only: %q\nlisted by walk only: %q", onlyGit, onlyWalk)
	}

	// Every ignored entry the walker reports must be ignored by git for
	// the same rule; every listed file must be unmatched or whitelisted.
	var query []byte
	var ignored []Skip
	for _, s := range skips {
		if s.Reason == ReasonIgnored {
			ignored = append(ignored, s)
			query = append(append(query, s.Path...), 0)
		}
	}
	if len(ignored) < 100 {
		t.Fatalf("only %d ignored entries: matrix too weak", len(ignored))
	}
	out := splitZFields(git(t, dir, env, query, "check-ignore", "--stdin", "-z", "-v", "-n", "--no-index"))
	if len(out) != len(ignored) {
		t.Fatalf("check-ignore answered %d of %d paths", len(out), len(ignored))
	}
	for i, s := range ignored {
		gi := out[i]
		blame := fmt.Sprintf("%s:%s: %s", gi[0], gi[1], gi[2])
		if gi[3] != s.Path || blame != s.Detail {
			t.Errorf("%q: walk blames %q, git check-ignore %q", s.Path, s.Detail, blame)
		}
	}
	query = nil
	for _, p := range got {
		query = append(append(query, p...), 0)
	}
	out = splitZFields(git(t, dir, env, query, "check-ignore", "--stdin", "-z", "-v", "-n", "--no-index"))
	for _, gi := range out {
		if gi[2] != "" && !strings.HasPrefix(gi[2], "!") {
			t.Errorf("%q listed by walk, but git check-ignore blames %s:%s: %s", gi[3], gi[0], gi[1], gi[2])
		}
	}
}

// splitZFields splits `check-ignore -z -v -n` output into
// (source, line, pattern, path) groups.
func splitZFields(b []byte) [][4]string {
	f := bytes.Split(b, []byte{0})
	var out [][4]string
	for i := 0; i+3 < len(f); i += 4 {
		out = append(out, [4]string{string(f[i]), string(f[i+1]), string(f[i+2]), string(f[i+3])})
	}
	return out
}

// TestGitAgreementRandom rewrites the ignore files of one tree with
// random patterns drawn from a small grammar and compares the listing
// with git's each time. The seed is fixed so a failure reproduces.
func TestGitAgreementRandom(t *testing.T) {
	needGit(t)
	dir := t.TempDir()
	env := gitEnv(t)
	git(t, dir, env, nil, "init", "-q")
	names := []string{"a", "b", "ab", "a.go", "b.md", "c", ".d"}
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
	atoms := []string{"a", "b", "ab", "*", "**", "?", "[ab]", "[!a]", ".go", ".md", "c", "x", "y", "d", "\\a", "[a-b]", "[[:alpha:]]",
		"a", "b", "c", "x", "y", ".go", "*.md", "a*", "*b", "b?"}
	rnd := rand.New(rand.NewSource(1))
	gen := func() string {
		var sb strings.Builder
		if rnd.Intn(4) == 0 {
			sb.WriteByte('!')
		}
		if rnd.Intn(4) == 0 {
			sb.WriteByte('/')
		}
		for k := rnd.Intn(3) + 1; k > 0; k-- {
			for m := rnd.Intn(2) + 1; m > 0; m-- {
				sb.WriteString(atoms[rnd.Intn(len(atoms))])
			}
			if k > 1 {
				sb.WriteByte('/')
			}
		}
		if rnd.Intn(4) == 0 {
			sb.WriteByte('/')
		}
		return sb.String()
	}
	total := len(walkPaths(t, Options{Root: dir, Hidden: true}))
	informative := 0
	rounds := 60
	if testing.Short() {
		rounds = 8
	}
	// RTCH_WALK_ROUNDS=N runs a longer search (with rarer atoms too).
	if n, err := strconv.Atoi(os.Getenv("RTCH_WALK_ROUNDS")); err == nil && n > 0 {
		rounds = n
		seed := time.Now().UnixNano()
		t.Logf("seed %d", seed)
		rnd = rand.New(rand.NewSource(seed))
		atoms = append(atoms, "\\*", "[!]", "[]a]", "**/", "/**", "[^b]", "\\?", "?*", "*?", "[a-]", "[[:digit:]a]", "\\[", "a ", "\\ ")
	}
	defer func() {
		// Rounds where git lists nothing or everything test little.
		if informative < rounds/2 {
			t.Errorf("only %d of %d rounds were informative", informative, rounds)
		}
	}()
	for round := 0; round < rounds; round++ {
		ig := map[string][]string{}
		for _, where := range []string{".gitignore", "a/.gitignore", "ab/b/.gitignore", ".git/info/exclude"} {
			for k := rnd.Intn(5); k >= 0; k-- {
				ig[where] = append(ig[where], gen())
			}
		}
		t.Logf("round %d: %q", round, ig)
		for where, lines := range ig {
			if err := os.WriteFile(filepath.Join(dir, where), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want := splitZ(git(t, dir, env, nil, "ls-files", "-co", "--exclude-standard", "-z"))
		sort.Strings(want)
		got := walkPaths(t, Options{Root: dir, Hidden: true})
		if onlyGit, onlyWalk := diff(want, got); len(onlyGit)+len(onlyWalk) > 0 {
			t.Fatalf("round %d: ignore files %q\nlisted by git only: %q\nlisted by walk only: %q", round, ig, onlyGit, onlyWalk)
		}
		if len(want) > 0 && len(want) < total {
			informative++
		}
		for where := range ig {
			os.Remove(filepath.Join(dir, where))
		}
	}
}

// TestGitSubdirRoot walks a subdirectory of a repository: the ignore
// files above it and info/exclude still apply, as for git run there.
func TestGitSubdirRoot(t *testing.T) {
	needGit(t)
	dir := t.TempDir()
	env := gitEnv(t)
	buildMatrix(t, dir, env)
	for _, sub := range []string{"sub", "foo", "deepa", "a/b"} {
		root := filepath.Join(dir, sub)
		want := splitZ(git(t, root, env, nil, "ls-files", "-co", "--exclude-standard", "-z"))
		sort.Strings(want)
		got := walkPaths(t, Options{Root: root, Hidden: true})
		if onlyGit, onlyWalk := diff(want, got); len(onlyGit)+len(onlyWalk) > 0 {
			t.Errorf("root %s: listed by git only: %q\nlisted by walk only: %q", sub, onlyGit, onlyWalk)
		}
	}
}

// TestGitFastPath: listing through git ls-files gives what the walk
// gives on the agreement matrix, for the root and for subdirectories,
// with ignore reports included; the one documented difference, a tracked
// file matching an ignore rule, is listed only by the fast path.
func TestGitFastPath(t *testing.T) {
	needGit(t)
	dir := t.TempDir()
	env := gitEnv(t)
	buildMatrix(t, dir, env)
	writeTree(t, dir, map[string]string{
		"a/.ignore":        "m.o\n",
		"b/.rtchignore":    "*.go\n",
		"nestedrepo/n.go":  "",
		"nestedrepo/n.log": "",
	})
	git(t, filepath.Join(dir, "nestedrepo"), env, nil, "init", "-q")
	for _, sub := range []string{"", "sub", "a"} {
		for _, hidden := range []bool{false, true} {
			o := Options{Root: filepath.Join(dir, sub), Hidden: hidden, ReportIgnored: true, Excludes: []string{"z/", "*.q"}}
			var walkSkips, gitSkips []Skip
			walked, err := Files(context.Background(), o, func(s Skip) { walkSkips = append(walkSkips, s) })
			if err != nil {
				t.Fatal(err)
			}
			o.GitFastPath = true
			o.Warn = func(f string, a ...any) { t.Errorf("warning: "+f, a...) }
			fast, err := Files(context.Background(), o, func(s Skip) { gitSkips = append(gitSkips, s) })
			if err != nil {
				t.Fatal(err)
			}
			if onlyWalk, onlyFast := diff(paths(walked), paths(fast)); len(onlyWalk)+len(onlyFast) > 0 {
				t.Errorf("root %q hidden=%v: walk only %q\nfast path only %q", sub, hidden, onlyWalk, onlyFast)
			}
			// The fast path reports only what its own rules drop: every
			// such report must also be one of the walk's.
			seen := map[string]bool{}
			for _, s := range walkSkips {
				seen[s.Path+" "+s.Reason+" "+s.Detail] = true
			}
			for _, s := range gitSkips {
				if !seen[s.Path+" "+s.Reason+" "+s.Detail] {
					t.Errorf("root %q: fast path skip %+v not reported by the walk", sub, s)
				}
			}
		}
	}
	if !contains(walkPaths(t, Options{Root: dir, GitFastPath: true}), "nestedrepo/n.go") {
		t.Error("fast path did not walk the nested repository")
	}

	// Tracked files are never ignored by git.
	writeTree(t, dir, map[string]string{"tracked.log": "x\n"})
	git(t, dir, env, nil, "add", "-f", "tracked.log")
	if contains(walkPaths(t, Options{Root: dir}), "tracked.log") {
		t.Error("walk lists an ignored file")
	}
	if !contains(walkPaths(t, Options{Root: dir, GitFastPath: true}), "tracked.log") {
		t.Error("fast path drops a tracked file that matches *.log")
	}
	// A .ignore '!' cannot bring back what .gitignore excludes: git
	// never lists it.
	writeTree(t, dir, map[string]string{"a/.ignore": "m.o\n!x.log\n"})
	if !contains(walkPaths(t, Options{Root: dir}), "a/x.log") {
		t.Error("walk: a .ignore whitelist should beat .gitignore")
	}
	if contains(walkPaths(t, Options{Root: dir, GitFastPath: true}), "a/x.log") {
		t.Error("fast path lists a file git ignores")
	}
	// Deleted from the work tree but still in the index: not listed.
	os.Remove(filepath.Join(dir, "tracked.log"))
	if contains(walkPaths(t, Options{Root: dir, GitFastPath: true}), "tracked.log") {
		t.Error("fast path lists a file missing from the work tree")
	}
}

// TestGitWorktree: in a linked worktree .git is a "gitdir:" file; the
// shared info/exclude of the main repository still applies, as in git.
func TestGitWorktree(t *testing.T) {
	needGit(t)
	dir := t.TempDir()
	env := gitEnv(t)
	main := filepath.Join(dir, "main")
	if err := os.MkdirAll(main, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, main, env, nil, "init", "-q")
	writeTree(t, main, map[string]string{"a.go": "", ".gitignore": "*.log\n"})
	git(t, main, env, nil, "add", ".")
	git(t, main, env, nil, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x")
	wt := filepath.Join(dir, "wt")
	git(t, main, env, nil, "worktree", "add", "-q", wt)
	writeTree(t, main, map[string]string{".git/info/exclude": "*.tmp\n"})
	writeTree(t, wt, map[string]string{"b.tmp": "", "c.log": "", "d.md": ""})
	want := splitZ(git(t, wt, env, nil, "ls-files", "-co", "--exclude-standard", "-z"))
	sort.Strings(want)
	got := walkPaths(t, Options{Root: wt, Hidden: true})
	if strings.Join(got, " ") != strings.Join(want, " ") || contains(got, "b.tmp") {
		t.Errorf("walk %q, git %q", got, want)
	}
}
