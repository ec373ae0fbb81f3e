package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/fnrank"
)

// testMirror makes a repository under mirrors/o+r (a clone): a base commit,
// a fix of router.go with its test, and a feature commit.
func testMirror(t *testing.T, mirrors string) (fix, parent string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := filepath.Join(mirrors, "o+r", "repo")
	run := func(args ...string) string {
		t.Helper()
		c := exec.Command("git", args...)
		c.Dir = dir
		c.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	write := func(name, text string) {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(dir, 0o755)
	run("init", "-q", "-b", "main")
	write("router.go", "package web\n\n// Route finds the handler of a path.\nfunc Route(routes map[string]int, p string) int {\n\treturn routes[p]\n}\n")
	write("server.go", "package web\n\n// Serve answers requests.\nfunc Serve() { Route(nil, \"/\") }\n")
	write("router_test.go", "package web\n")
	write("README.md", "# web\n")
	write("legacy/router.go", "package legacy\n\n// Old is the old table.\nvar Old = 1\n")
	run("add", ".")
	run("commit", "-q", "-m", "initial router and server")
	parent = run("rev-parse", "HEAD")
	write("router.go", "package web\n\n// Route finds the handler of a path.\nfunc Route(routes map[string]int, p string) int {\n\tif routes == nil {\n\t\treturn 0\n\t}\n\treturn routes[p]\n}\n")
	write("router_test.go", "package web\n\n// a test\n")
	run("add", ".")
	run("commit", "-q", "-m", "Fix the crash of Route when the router has no routes\n\nSigned-off-by: t <t@example.com>")
	fix = run("rev-parse", "HEAD")
	write("server.go", "package web\n\n// Serve answers requests.\nfunc Serve() { Route(map[string]int{}, \"/\") }\n")
	run("add", ".")
	run("commit", "-q", "-m", "Add a default route table to the server")
	return fix, parent
}

func TestSelectTasksFeaturesAndResume(t *testing.T) {
	tmp := t.TempDir()
	mirrors := filepath.Join(tmp, "mirrors")
	fix, parent := testMirror(t, mirrors)
	ev := filepath.Join(tmp, "eval")
	os.MkdirAll(ev, 0o755)
	os.WriteFile(filepath.Join(ev, "set.jsonl"), []byte(`{"repo": "x/y"}`+"\n"), 0o644)
	os.WriteFile(filepath.Join(ev, "train-repos.txt"), []byte("# lang repo\ngo o/r\n"), 0o644)
	ids := filepath.Join(tmp, "ids.tsv")
	if code := run([]string{"select", "--mirrors", mirrors, "--train-repos", filepath.Join(ev, "train-repos.txt"), "--eval-dir", ev, "--out", ids}); code != 0 {
		t.Fatalf("select exit %d", code)
	}
	l, err := readIDs(ids)
	if err != nil || len(l.Tasks) != 1 || l.Tasks[0] != (taskID{"o/r", fix, parent, "go"}) {
		t.Fatalf("ids %+v, %v; want the one fix", l, err)
	}
	tasksFile := filepath.Join(tmp, "tasks.jsonl")
	if code := run([]string{"tasks", "--mirrors", mirrors, "--ids", ids, "--out", tasksFile}); code != 0 {
		t.Fatalf("tasks exit %d", code)
	}
	ts, err := readTasks(tasksFile)
	if err != nil || len(ts) != 1 {
		t.Fatalf("tasks %v, %v", ts, err)
	}
	tk := ts[0]
	if tk.Intent != "Fix the crash of Route when the router has no routes" || strings.Join(tk.GoldFiles, ",") != "router.go" ||
		len(tk.GoldLines["router.go"]) != 1 || tk.GoldLines["router.go"][0] != [2]int{4, 4} ||
		len(tk.GoldFunctions["router.go"]) != 1 || tk.GoldFunctions["router.go"][0].Name != "Route" {
		t.Fatalf("task %+v", tk)
	}

	feats := filepath.Join(tmp, "features.ndjson")
	args := []string{"features", "--mirrors", mirrors, "--tasks", tasksFile, "--out", feats, "--tmp", filepath.Join(tmp, "trees")}
	if code := run(args); code != 0 {
		t.Fatalf("features exit %d", code)
	}
	data, _ := os.ReadFile(feats)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 2 {
		t.Fatalf("features file has %d lines, want a header and one task:\n%s", len(lines), data)
	}
	var tf taskFeatures
	if err := json.Unmarshal([]byte(lines[1]), &tf); err != nil || tf.Error != "" {
		t.Fatalf("task line %v: %s", err, tf.Error)
	}
	gold := -1
	for i, p := range tf.Paths {
		if tf.Labels[i] == 1 {
			gold = i
		}
		if p == "router_test.go" && tf.Labels[i] != 0 {
			t.Error("a test file is labelled gold")
		}
	}
	if gold < 0 || tf.Paths[gold] != "router.go" || len(tf.F) != len(tf.Paths) || len(tf.H) != len(tf.Paths) {
		t.Fatalf("candidates %v labels %v (%d feature rows, %d history rows)", tf.Paths, tf.Labels, len(tf.F), len(tf.H))
	}
	// router.go changed in the one commit before the parent (the parent).
	if tf.H[gold][0] == 0 {
		t.Errorf("history of router.go %v, want one change", tf.H[gold])
	}
	if entries, _ := os.ReadDir(filepath.Join(tmp, "trees", "o+r")); len(entries) != 0 {
		t.Errorf("trees left behind: %v", entries)
	}

	// The task's gold file has a namesake (legacy/router.go): siblings
	// keeps it for an evaluation file, in the go-commits format.
	sib := filepath.Join(tmp, "siblings.jsonl")
	if code := run([]string{"siblings", "--mirrors", mirrors, "--tasks", tasksFile, "--out", sib, "--langs", "go"}); code != 0 {
		t.Fatalf("siblings exit %d", code)
	}
	if b, _ := os.ReadFile(sib); !strings.Contains(string(b), `"gold_files":["router.go"]`) || strings.Count(string(b), "\n") != 1 {
		t.Errorf("siblings file: %s", b)
	}
	if code := run([]string{"siblings", "--mirrors", mirrors, "--tasks", tasksFile, "--out", sib, "--langs", "go", "--skip", "1"}); code != 0 {
		t.Fatalf("siblings --skip 1 exit %d", code)
	}
	if b, _ := os.ReadFile(sib); len(b) != 0 {
		t.Errorf("siblings after skipping the one task: %s", b)
	}

	// A run killed mid-line resumes: the cut line goes, the task done stays done.
	f, _ := os.OpenFile(feats, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"id":"o/r@`)
	f.Close()
	if code := run(args); code != 0 {
		t.Fatalf("resumed features exit %d", code)
	}
	if again, _ := os.ReadFile(feats); string(again) != string(data) {
		t.Errorf("resume changed the file:\n%s\nwant:\n%s", again, data)
	}
	// Features of another build do not mix.
	os.WriteFile(feats, []byte(`{"kind":"traincorpus.features","names":["x"]}`+"\n"), 0o644)
	if code := run(args); code != 1 {
		t.Errorf("a file of other columns: exit %d, want 1", code)
	}

	// fnfeatures: the ranked units of the task with their rows, Route
	// labelled gold; a features file is not one to append to.
	fn := filepath.Join(tmp, "fn.ndjson")
	fnArgs := []string{"fnfeatures", "--mirrors", mirrors, "--tasks", tasksFile, "--out", fn, "--tmp", filepath.Join(tmp, "trees")}
	if code := run(fnArgs); code != 0 {
		t.Fatalf("fnfeatures exit %d", code)
	}
	data, _ = os.ReadFile(fn)
	lines = strings.Split(strings.TrimSpace(string(data)), "\n")
	var ft fnTask
	if len(lines) != 2 || json.Unmarshal([]byte(lines[1]), &ft) != nil || ft.Error != "" {
		t.Fatalf("fnfeatures file:\n%s", data)
	}
	gold = slices.Index(ft.Labels, 1)
	if len(ft.Gold) != 1 || gold < 0 || ft.Units[gold] != ft.Gold[0] || !strings.HasPrefix(ft.Gold[0], "router.go:") ||
		len(ft.F) != len(ft.Units) || len(ft.F[gold]) != len(fnrank.FeatureNames) {
		t.Fatalf("gold %v; units %v labels %v (%d rows)", ft.Gold, ft.Units, ft.Labels, len(ft.F))
	}
	if code := run(append(fnArgs[:5:5], "--out", feats)); code != 1 {
		t.Errorf("fnfeatures onto a features file: exit %d, want 1", code)
	}
}
