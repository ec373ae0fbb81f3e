package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rtch/rtch/bench/internal/trees"
	"github.com/rtch/rtch/pkg/evalscore"
	"github.com/rtch/rtch/pkg/tokens"
)

// gitRepo makes a small repository with two commits and returns its git dir
// and the two commit hashes.
func gitRepo(t *testing.T, dir string) (gitDir, first, second string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	run("init", "-q", "-b", "main")
	write("cmd/flags.go", "package cmd\n\nfunc parseFlags() {}\n")
	write("README.md", "# demo\n")
	run("add", ".")
	run("commit", "-q", "-m", "one")
	first = run("rev-parse", "HEAD")
	write("cmd/flags.go", "package cmd\n\nfunc parseFlags() { completion() }\n")
	write("cmd/complete.go", "package cmd\n\nfunc completion() {}\n")
	run("add", ".")
	run("commit", "-q", "-m", "two")
	second = run("rev-parse", "HEAD")
	return filepath.Join(dir, ".git"), first, second
}

func TestFindGitDirLayouts(t *testing.T) {
	root := t.TempDir()
	// A clone in OWNER/NAME.
	clone, _, _ := gitRepo(t, filepath.Join(root, "spf13", "cobra"))
	if g, err := trees.FindGitDir(root, "spf13/cobra"); err != nil || g != clone {
		t.Errorf("clone layout: %q, %v", g, err)
	}
	// A bare mirror in OWNER+NAME/repo.
	bare := filepath.Join(root, "cli+cli", "repo")
	if out, err := exec.Command("git", "clone", "-q", "--bare", clone, bare).CombinedOutput(); err != nil {
		t.Fatalf("git clone --bare: %v\n%s", err, out)
	}
	if g, err := trees.FindGitDir(root, "cli/cli"); err != nil || g != bare {
		t.Errorf("mirror layout: %q, %v", g, err)
	}
	// A plain directory is not a repository, even inside one.
	if err := os.MkdirAll(filepath.Join(root, "spf13", "cobra", "fzf"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := trees.FindGitDir(filepath.Join(root, "spf13", "cobra"), "junegunn/fzf")
	if err == nil || !strings.Contains(err.Error(), "junegunn+fzf/repo") {
		t.Errorf("plain directory taken for a repository, or error lacks the places looked at: %v", err)
	}
}

func TestMaterialiserCachesByCommit(t *testing.T) {
	gitDir, first, second := gitRepo(t, filepath.Join(t.TempDir(), "src"))
	m := &trees.Materialiser{Cache: filepath.Join(t.TempDir(), "cache")}
	ctx := context.Background()
	dir1, reused, err := m.Tree(ctx, gitDir, "o/r", first)
	if err != nil || reused {
		t.Fatalf("first tree: %v reused=%v", err, reused)
	}
	if want := filepath.Join(m.Cache, "o+r", first); dir1 != want {
		t.Errorf("tree at %s, want %s", dir1, want)
	}
	if _, err := os.Stat(filepath.Join(dir1, "cmd", "complete.go")); !os.IsNotExist(err) {
		t.Errorf("the first commit's tree holds a file of the second: %v", err)
	}
	dir2, _, err := m.Tree(ctx, gitDir, "o/r", second)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir2, "cmd", "flags.go"))
	if err != nil || !strings.Contains(string(got), "completion()") {
		t.Errorf("second tree flags.go = %q, %v", got, err)
	}
	// A marker file proves the second call reuses the directory.
	if err := os.WriteFile(filepath.Join(dir1, "marker"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	again, reused, err := m.Tree(ctx, gitDir, "o/r", first)
	if err != nil || !reused || again != dir1 {
		t.Fatalf("second call: %q reused=%v %v", again, reused, err)
	}
	if _, err := os.Stat(filepath.Join(again, "marker")); err != nil {
		t.Errorf("cached tree was re-extracted: %v", err)
	}
	entries, _ := os.ReadDir(filepath.Join(m.Cache, "o+r"))
	if len(entries) != 2 {
		t.Errorf("cache holds %d entries, want the two trees and no temporary directory", len(entries))
	}
	if err := trees.HasCommit(ctx, gitDir, strings.Repeat("0", 40)); err == nil {
		t.Error("HasCommit accepted a missing commit")
	}
	if _, _, err := m.Tree(ctx, gitDir, "o/r", strings.Repeat("a", 40)); err == nil {
		t.Error("Tree of a missing commit succeeded")
	}
	if _, _, err := m.Tree(ctx, gitDir, "o/r", "../../etc"); err == nil {
		t.Error("Tree accepted a commit that is not hex")
	}
}

func TestBaselineRanksTreeFiles(t *testing.T) {
	tree := t.TempDir()
	files := map[string]string{
		"cmd/complete.go":      "package cmd\n// zsh completion script generation\nfunc genZshCompletion() {}\n",
		"cmd/complete_test.go": "package cmd\n// zsh completion zsh completion zsh completion\n",
		"cmd/flags.go":         "package cmd\nfunc parseFlags() {}\n",
		"docs/zsh.md":          "zsh completion docs\n",
		"bin/blob.go":          "zsh\x00completion",
		"script/gen.py":        "# zsh completion\n",
	}
	for name, text := range files {
		p := filepath.Join(tree, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := runBaseline(context.Background(), tree, "Fix the zsh completion", baselineOptions{K1: 1.2, B: 0.75})
	if err != nil {
		t.Fatal(err)
	}
	// The main language is Go (two non-test .go files against one .py); the
	// reference ranking keeps non-test .go files only.
	if strings.Join(res.Ref, " ") != "cmd/complete.go" || res.RefFiles != 2 || strings.Join(res.RefExts, " ") != ".go" {
		t.Errorf("reference ranking %v over %d files (%v)", res.Ref, res.RefFiles, res.RefExts)
	}
	// The binary file is skipped; test, doc and Python files are ranked.
	if len(res.All) != 4 || res.AllFiles != 5 {
		t.Errorf("all-files ranking %v over %d files", res.All, res.AllFiles)
	}
	res, err = runBaseline(context.Background(), tree, "Fix the zsh completion", baselineOptions{K1: 1.2, B: 0.75, Exts: []string{".py", ".md"}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(res.Ref, " ") != "docs/zsh.md script/gen.py" && strings.Join(res.Ref, " ") != "script/gen.py docs/zsh.md" {
		t.Errorf("--baseline-exts .py,.md ranking %v", res.Ref)
	}
}

func TestBaselineTermsArePlain(t *testing.T) {
	got := strings.Join(baselineTerms("The parseFlags completions of the Options"), " ")
	// Stopwords go, identifiers split and keep their whole, nothing is
	// stemmed: the baseline must not move when the shared tokenizer is tuned.
	if got != "parseflags parse flags completions options" {
		t.Errorf("baselineTerms = %q", got)
	}
}

// fakeTools writes shell scripts standing in for the pipeline binaries: each
// passes stdin through; rtch-packet prints packet. A stage named in fail
// exits 1 with a message on stderr.
func fakeTools(t *testing.T, packet, fail string) string {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	bin := t.TempDir()
	for _, tool := range pipelineTools {
		body := "cat\n"
		switch {
		case tool == "rtch-intake":
			// The first stage checks its goal file is outside the tree and
			// that cwd and RTCH_ZONE_ROOT are the tree.
			body = `goal=$2; case "$goal" in "$RTCH_ZONE_ROOT"/*) echo "goal file inside tree" >&2; exit 1;; esac
[ "$(pwd -P)" = "$(cd "$RTCH_ZONE_ROOT" && pwd -P)" ] || { echo "cwd is not the tree" >&2; exit 1; }
grep -q "zsh completion" "$goal" || { echo "goal text missing" >&2; exit 1; }
echo '{"kind":"rtch.intake","v":1,"id":"i"}'
`
		case tool == "rtch-packet":
			body = "cat >/dev/null\nif [ \"$2\" = md ]; then cat <<'EOF'\n" + fakeBrief() + "EOF\nexit 0\nfi\necho '{\"kind\":\"rtch.skip\",\"v\":1}'\ncat <<'EOF'\n" + packet + "\nEOF\n"
		}
		if tool == fail {
			body = "echo \"" + tool + ": error: boom at line 3\" >&2\nexit 1\n"
		}
		if err := os.WriteFile(filepath.Join(bin, tool), []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return bin
}

const fakePacket = `{"kind":"rtch.packet","v":1,"id":"p","selected_surfaces":[{"path":"cmd/flags.go","rank":2,"score":1.5,"why_selected":["code_symbol parseFlags"],"chunk_ids":["c2"]},{"path":"cmd/complete.go","rank":1,"score":3,"why_selected":["file_path complete"],"chunk_ids":["c1"]}],"hydrated_chunks":[{"path":"cmd/complete.go","start_line":1,"end_line":3,"est_tokens":12}],"budget":{"est_tokens":12,"cap":8000},"halting_reason":"budget_exhausted","ranked_functions":[{"path":"cmd/flags.go","name":"parseFlags","kind":"func","start_line":3,"end_line":3},{"path":"cmd/complete.go","name":"completion","kind":"func","start_line":3,"end_line":3}]}`

// fakeBrief is an md brief stating its own size, with one chunk of
// cmd/complete.go lines 3-4.
func fakeBrief() string {
	n := 0
	for {
		md := fmt.Sprintf("# Evidence brief `p`\n\n- **size:** %d of 8000 tokens, this whole brief by ceil(chars/4)\n\n## Chunks (1)\n\n### `cmd/complete.go:L3-L4` · rank 1 · hit\n\n```go\nx\ny\n```\n", n)
		if m := tokens.Estimate(md); m != n {
			n = m
			continue
		}
		return md
	}
}

func TestPipelineWithFakeTools(t *testing.T) {
	tree := t.TempDir()
	o := pipelineOptions{Bin: fakeTools(t, fakePacket, ""), Enough: "enough", Timeout: time.Minute}
	res, err := runPipeline(context.Background(), tree, "Fix zsh completion", o)
	if err != nil {
		t.Fatalf("pipeline: %v (%+v)", err, err)
	}
	if strings.Join(res.Ranked, " ") != "cmd/complete.go cmd/flags.go" {
		t.Errorf("ranking %v, want the packet's surfaces in rank order", res.Ranked)
	}
	if res.Tokens != 12 || res.Cap != 8000 || res.Halting != "budget_exhausted" || len(res.Spans) != 1 {
		t.Errorf("packet decoded as %+v", res)
	}
	task := evalscore.Task{Gold: []string{"cmd/complete.go"}, GoldLines: map[string][][2]int{"cmd/complete.go": {{3, 4}}}}
	sr := scoreRanking(res.Ranked, task)
	pk := evalscore.ScorePacket(res.Spans, task.Gold, task.GoldLines)
	if sr.Rank.FirstGold != 1 || pk.LineRecall != 0.5 || sr.GoldRanks["cmd/complete.go"] != 1 {
		t.Errorf("scored rank %+v packet %+v", sr.Rank, pk)
	}
	// The md brief as written: its size, and the gold lines in its chunks.
	bs := evalscore.ScorePacket(res.BriefSpans, task.Gold, task.GoldLines)
	if res.BriefTokens != tokens.Estimate(fakeBrief()) || res.BriefStated != res.BriefTokens || bs.LineRecall != 1 {
		t.Errorf("brief %d tokens (stated %d), recall %v", res.BriefTokens, res.BriefStated, bs.LineRecall)
	}
}

func TestPipelineFailureKeepsStderr(t *testing.T) {
	o := pipelineOptions{Bin: fakeTools(t, fakePacket, "rtch-probe"), Enough: "enough", Timeout: time.Minute}
	_, err := runPipeline(context.Background(), t.TempDir(), "Fix zsh completion", o)
	se, ok := err.(*stageError)
	if !ok {
		t.Fatalf("error %v (%T), want a stageError", err, err)
	}
	if se.Stage != "rtch-probe" || !strings.Contains(se.Tail, "[rtch-probe] rtch-probe: error: boom at line 3") {
		t.Errorf("stage %q tail %q", se.Stage, se.Tail)
	}
	o = pipelineOptions{Bin: fakeTools(t, `{"kind":"rtch.hit","v":1}`, ""), Enough: "enough", Timeout: time.Minute}
	_, err = runPipeline(context.Background(), t.TempDir(), "Fix zsh completion", o)
	if err == nil || !strings.Contains(err.Error(), "no rtch.packet record") {
		t.Errorf("output without a packet: %v", err)
	}
}

func TestDecodePacketWholeObject(t *testing.T) {
	pretty := strings.ReplaceAll(fakePacket, ",", ",\n  ")
	p, err := decodePacket([]byte(pretty))
	if err != nil || len(p.SelectedSurfaces) != 2 {
		t.Errorf("pretty packet: %v %+v", err, p)
	}
	if _, err := decodePacket(nil); err == nil || err.Error() != "no output" {
		t.Errorf("empty output: %v", err)
	}
}

func TestParseFlags(t *testing.T) {
	repos := t.TempDir()
	t.Chdir(repos)
	if err := os.Mkdir("bin", 0o755); err != nil {
		t.Fatal(err)
	}
	o, err := parseFlags([]string{"--repos", ".", "--bin", "bin", "--cache", "c", "--tasks", "a.jsonl", "--tasks", "b.jsonl",
		"--repo-filter", "^cli/", "--baseline-exts", ".go,.py"})
	if err != nil {
		t.Fatal(err)
	}
	// The pipeline runs inside the tree, so relative paths must be made
	// absolute before it starts.
	for _, p := range []string{o.repos, o.bin, o.cache} {
		if !filepath.IsAbs(p) {
			t.Errorf("path %q is not absolute", p)
		}
	}
	if strings.Join(o.tasks, " ") != "a.jsonl b.jsonl" || !o.repoFilter.MatchString("cli/cli") || o.repoFilter.MatchString("spf13/cobra") {
		t.Errorf("tasks %v filter %v", o.tasks, o.repoFilter)
	}
	if strings.Join(o.baseline.Exts, " ") != ".go .py" || o.baseline.K1 != 1.2 || o.baseline.B != 0.75 || o.jobs != 1 {
		t.Errorf("options %+v", o)
	}
	if o, err := parseFlags([]string{"--repos", ".", "--enough-floor", "70"}); err != nil || o.enoughFloor != 70 {
		t.Errorf("--enough-floor 70: %v %d", err, o.enoughFloor)
	}
	if o, err := parseFlags([]string{"--repos", ".", "--function-order", "learned"}); err != nil || o.functionOrder != "learned" {
		t.Errorf("--function-order learned: %v %q", err, o.functionOrder)
	}
	for _, bad := range [][]string{
		{},
		{"--repos", "missing-dir"},
		{"--repos", ".", "--jobs", "0"},
		{"--repos", ".", "--function-order", "best"},
		{"--repos", ".", "--repo-filter", "("},
		{"--repos", ".", "extra"},
		{"--repos", ".", "--no-such-flag"},
		{"--repos", ".", "--enough-floor", "101"},
	} {
		if _, err := parseFlags(bad); err == nil {
			t.Errorf("parseFlags(%q) accepted", bad)
		}
	}
}

// TestEvaluateEndToEnd runs the whole runner on a repository in the mirror
// layout with fake pipeline binaries: one task succeeds, one fails in
// rtch-probe, and both must be in the table, the JSON and on stderr.
func TestEvaluateEndToEnd(t *testing.T) {
	root := t.TempDir()
	clone, first, second := gitRepo(t, filepath.Join(root, "src"))
	repos := filepath.Join(root, "repos")
	if out, err := exec.Command("git", "clone", "-q", "--bare", clone, filepath.Join(repos, "o+r", "repo")).CombinedOutput(); err != nil {
		t.Fatalf("git clone --bare: %v\n%s", err, out)
	}
	tasks := filepath.Join(root, "tasks.jsonl")
	lines := `{"repo":"o/r","parent":"` + first + `","intent":"fix zsh completion in flags","gold_files":["cmd/flags.go"],"gold_lines":{"cmd/flags.go":[[3,3]]}}
{"repo":"o/r","parent":"` + second + `","intent":"fix zsh completion","gold_files":["cmd/complete.go"],"gold_lines":{"cmd/complete.go":[[3,3]]}}
`
	if err := os.WriteFile(tasks, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	// The fake packet ranks cmd/complete.go first; the probe fails on the
	// tree of the first commit, which lacks that file.
	bin := fakeTools(t, fakePacket, "")
	argsLog := filepath.Join(root, "probe-args")
	probe := "#!/bin/sh\nif [ \"$1\" = --help ]; then echo '  --ranker NAME   the ranking (default classic)'; exit 0; fi\n" +
		"echo \"$@\" >> " + argsLog + "\nif [ -e cmd/complete.go ]; then cat; else echo 'rtch-probe: error: boom' >&2; exit 1; fi\n"
	if err := os.WriteFile(filepath.Join(bin, "rtch-probe"), []byte(probe), 0o755); err != nil {
		t.Fatal(err)
	}
	jsonOut := filepath.Join(root, "out.json")
	o, err := parseFlags([]string{"--repos", repos, "--tasks", tasks, "--bin", bin, "--cache", filepath.Join(root, "cache"), "--json", jsonOut, "--whole-files"})
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr strings.Builder
	if code := evaluate(context.Background(), o, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	table := stdout.String()
	for _, want := range []string{
		"| o/r | 2 | rtch | 50.0 | 50.0 | 50.0 | 50.0 | 50.0 | 50.0 | 50.0 | 50.0 | 50.0 | 50.0 | 50.0 | 50.0 | 12 |", // the failed task counts as an empty packet
		"| 1 |\n", // the failed column of the rtch row
		"rtch misses (no gold file in the top 5): 1 of 2; bm25 had one in its top 5 for 1; failed 1;",
		"| o/r | 2 | rtch-classic | 50.0 |",                            // the second run, with rtch-probe --ranker classic
		"| go | 2 | rtch-classic | 50.0 | 50.0 | 50.0 | 50.0 | 50.0 |", // by language
		// Function level: the gold unit completion() is second among the
		// ranked functions; whole files in the packet's order hold line 3.
		"| go | 2 | 0.0 | 50.0 | 50.0 | 50.0 | 50.0 | 50.0 | 50.0 |",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	errs := stderr.String()
	for _, want := range []string{"eval: [2/2]", "rtch FAILED (rtch-probe: exit status 1)", "eval:   [rtch-probe] rtch-probe: error: boom",
		"eval: failed: o/r@" + first[:12] + " rtch-learned", "eval: 2 failed task runs"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	if args, _ := os.ReadFile(argsLog); strings.Count(string(args), "--no-index --ranker learned\n") != 2 || strings.Count(string(args), "--no-index\n") != 2 ||
		strings.Contains(string(args), "classic") {
		t.Errorf("rtch-probe ran with:\n%s\nwant --no-index and --no-index --ranker learned for each task, and the default (classic) not again", args)
	}
	data, err := os.ReadFile(jsonOut)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Tasks []struct {
			ID       string
			Pipeline struct {
				Failed     bool                `json:"failed"`
				StderrTail string              `json:"stderr_tail"`
				GoldChunks map[string][][2]int `json:"gold_chunks"`
			} `json:"pipeline"`
		} `json:"tasks"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Tasks) != 2 || !rep.Tasks[0].Pipeline.Failed || !strings.Contains(rep.Tasks[0].Pipeline.StderrTail, "boom") ||
		rep.Tasks[1].Pipeline.Failed || len(rep.Tasks[1].Pipeline.GoldChunks["cmd/complete.go"]) != 1 {
		t.Errorf("JSON report: %s", data)
	}
}

func TestSummarizeMisses(t *testing.T) {
	task := evalscore.Task{ID: "t", Gold: []string{"src/a.go"}}
	miss := scoreRanking([]string{"README.md", "src/a_test.go", "src/b.go", "src/c.go", "src/d.go", "src/a.go"}, task)
	hit := scoreRanking([]string{"src/a.go"}, task)
	none := scoreRanking([]string{"src/b.go"}, task)
	bm := scoreRanking([]string{"src/a.go"}, task)
	bm.Exts = []string{".go"}
	results := []taskResult{
		{ID: "miss", BM25: bm, Pipeline: miss},
		{ID: "hit", BM25: bm, Pipeline: hit},
		{ID: "none", BM25: bm, Pipeline: none},
		{ID: "failed", BM25: bm, Pipeline: &systemResult{Failed: true}},
	}
	m := summarizeMisses(results)
	if m.Misses != 3 || m.BM25Hit != 3 || m.Failed != 1 || m.NeverSelected != 1 || m.NonSource != 1 || m.Test != 1 ||
		strings.Join(m.IDs, " ") != "miss none failed" {
		t.Errorf("misses %+v", m)
	}
}
