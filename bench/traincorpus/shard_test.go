package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/rank"
)

func TestParseShard(t *testing.T) {
	for _, bad := range []string{"2/2", "-1/2", "1", "a/b", "0/0"} {
		if _, err := parseShard(bad); err == nil {
			t.Errorf("--shard %q accepted", bad)
		}
	}
	s, err := parseShard("1/3")
	if err != nil {
		t.Fatal(err)
	}
	var ts []task
	for i := range 7 {
		ts = append(ts, task{Repo: fmt.Sprint(i)})
	}
	var got []string
	for _, x := range s.of(ts) {
		got = append(got, x.Repo)
	}
	if strings.Join(got, ",") != "1,4" {
		t.Errorf("shard 1/3 of 7 tasks: %v, want 1,4", got)
	}
}

// Shards merged give one run's file: the interleaved order, each task once,
// a line cut short left out.
func TestMergePutsShardsInOneRunsOrder(t *testing.T) {
	tmp := t.TempDir()
	var tasks []string
	var all []task
	for _, r := range []string{"a/x", "a/x", "a/x", "b/y"} {
		tk := task{Repo: r, Parent: strings.Repeat("0", 40), Commit: fmt.Sprintf("%d%039d", len(all), 0), Intent: "fix it", GoldFiles: []string{"f.go"}}
		all = append(all, tk)
		b, _ := json.Marshal(tk)
		tasks = append(tasks, string(b))
	}
	tasksFile := filepath.Join(tmp, "tasks.jsonl")
	os.WriteFile(tasksFile, []byte(strings.Join(tasks, "\n")+"\n"), 0o644)
	head, _ := json.Marshal(featureHeader{Kind: "traincorpus.features", Names: rank.FeatureNames, History: historyNames})
	line := func(i int) string { return fmt.Sprintf(`{"id":%q,"n":%d}`, taskKey(all[i]), i) }
	shard := func(name string, lines ...string) string {
		f := filepath.Join(tmp, name)
		os.WriteFile(f, []byte(string(head)+"\n"+strings.Join(lines, "")), 0o644)
		return f
	}
	s0 := shard("s0", line(2)+"\n", line(0)+"\n")
	s1 := shard("s1", line(3)+"\n", line(0)+"\n", line(1)) // the last line is cut short
	out := filepath.Join(tmp, "merged.ndjson")
	if code := run([]string{"merge", "--tasks", tasksFile, "--out", out, s0, s1}); code != 0 {
		t.Fatalf("merge exit %d", code)
	}
	// One run writes a/x's first task, b/y's, then a/x's second and third;
	// the second was cut short.
	want := string(head) + "\n" + line(0) + "\n" + line(3) + "\n" + line(2) + "\n"
	if got, _ := os.ReadFile(out); string(got) != want {
		t.Errorf("merged:\n%s\nwant:\n%s", got, want)
	}
	// A line of a task the tasks file does not hold is an error.
	bad := shard("bad", `{"id":"c/z@000000000000"}`+"\n")
	if code := run([]string{"merge", "--tasks", tasksFile, "--out", out, bad}); code != 1 {
		t.Errorf("merge of an unknown task: exit %d, want 1", code)
	}
}
