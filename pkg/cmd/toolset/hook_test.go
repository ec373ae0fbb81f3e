package toolset_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// hookCase is one PreToolUse input the read hook is given and what it must
// answer: a brief that denies the read, or nothing (the read goes on).
type hookCase struct {
	name  string
	env   []string
	input map[string]any
	deny  bool
}

// TestReadHook runs the plugin's recall-before-read hook with node, as
// Claude Code does, against the lane's real binaries on a generated tree.
func TestReadHook(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the lane's binaries; skipped with -short")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed (the Claude Code CLI brings it; .ci/run installs it): the hook is not run")
	}
	script, _ := filepath.Abs(filepath.Join(repoRoot, "plugin", "hooks", "read-hook.mjs"))
	checkHookConfig(t)
	bins := buildBinaries(t, "rtch-intake", "rtch-zone", "rtch-scout", "rtch-probe", "rtch-hydrate", "rtch-packet")
	tree, transcript := hookTree(t)
	big := filepath.Join(tree, "src", "big.go")
	read := func(extra map[string]any) map[string]any {
		in := map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Read", "cwd": tree,
			"transcript_path": transcript, "tool_input": map[string]any{"file_path": big}}
		for k, v := range extra {
			in[k] = v
		}
		return in
	}
	on := []string{"RTCH_READ_HOOK_BYTES=10000", "PATH=" + bins + string(os.PathListSeparator) + os.Getenv("PATH")}
	cases := []hookCase{
		{"off by default", on[1:], read(nil), false},
		{"a large whole-file read", on, read(nil), true},
		{"a range is a re-entry", on, read(map[string]any{"tool_input": map[string]any{"file_path": big, "offset": 10, "limit": 20}}), false},
		{"a small file", on, read(map[string]any{"tool_input": map[string]any{"file_path": filepath.Join(tree, "src", "small.go")}}), false},
		{"outside the project", on, read(map[string]any{"tool_input": map[string]any{"file_path": "/etc/hostname"}}), false},
		{"another tool", on, read(map[string]any{"tool_name": "Write"}), false},
		{"no binaries", []string{on[0], "PATH=" + filepath.Dir(node)}, read(nil), false},
	}
	for _, c := range cases {
		out := runHook(t, node, script, c)
		if !c.deny {
			if out != "" {
				t.Errorf("%s: want no answer, got %s", c.name, out)
			}
			continue
		}
		checkDenial(t, c.name, out)
	}
}

// checkDenial fails unless out denies the read with a brief that holds the
// function the user's last request asks about.
func checkDenial(t *testing.T, name, out string) {
	t.Helper()
	var got struct {
		Hook struct {
			Event    string `json:"hookEventName"`
			Decision string `json:"permissionDecision"`
			Reason   string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%s: the hook's answer is not JSON: %v\n%s", name, err, out)
	}
	h := got.Hook
	if h.Event != "PreToolUse" || h.Decision != "deny" {
		t.Errorf("%s: answer %+v, want a PreToolUse deny", name, h)
	}
	for _, want := range []string{"src/big.go is ", "# Evidence brief", "where is the Retry-After header parsed", "func parseRetryHeader("} {
		if !strings.Contains(h.Reason, want) {
			t.Errorf("%s: the brief lacks %q:\n%.2000s", name, want, h.Reason)
		}
	}
}

func runHook(t *testing.T, node, script string, c hookCase) string {
	t.Helper()
	in, _ := json.Marshal(c.input)
	cmd := exec.Command(node, script)
	cmd.Env = append(filterEnv(os.Environ(), "PATH=", "RTCH_READ_HOOK_"), c.env...)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: the hook failed: %v", c.name, err)
	}
	return strings.TrimSpace(string(out))
}

func filterEnv(env []string, drop ...string) []string {
	var kept []string
	for _, kv := range env {
		keep := true
		for _, p := range drop {
			keep = keep && !strings.HasPrefix(kv, p)
		}
		if keep {
			kept = append(kept, kv)
		}
	}
	return kept
}

// checkHookConfig fails unless hooks.json runs the script on Read.
func checkHookConfig(t *testing.T) {
	t.Helper()
	var cfg struct {
		Hooks map[string][]struct {
			Matcher string
			Hooks   []struct{ Type, Command string }
		}
	}
	pluginFile(t, "plugin/hooks/hooks.json", &cfg)
	pre := cfg.Hooks["PreToolUse"]
	if len(pre) != 1 || pre[0].Matcher != "Read" || len(pre[0].Hooks) != 1 ||
		!strings.Contains(pre[0].Hooks[0].Command, "${CLAUDE_PLUGIN_ROOT}/hooks/read-hook.mjs") {
		t.Errorf("plugin/hooks/hooks.json: want one Read hook running read-hook.mjs, got %+v", cfg.Hooks)
	}
}

// buildBinaries builds the named binaries of cmd/ into a directory of the
// test's own and returns it.
func buildBinaries(t *testing.T, names ...string) string {
	t.Helper()
	bins := t.TempDir()
	args := []string{"build", "-o", bins + string(os.PathSeparator)}
	for _, name := range names {
		args = append(args, "./cmd/"+name)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = repoRoot
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bins
}

// hookTree writes a tree with one large file (many small functions and,
// near its end, the one the request asks about) and a small one, and a
// transcript whose last typed user message is the request (a tool result
// follows it, as in a real session).
func hookTree(t *testing.T) (tree, transcript string) {
	t.Helper()
	tree = t.TempDir()
	var b strings.Builder
	b.WriteString("package big\n\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "// helper%d does step %d\nfunc helper%d(x int) int { return x + %d }\n\n", i, i, i, i)
	}
	b.WriteString("// parseRetryHeader reads the Retry-After header and returns the backoff\nfunc parseRetryHeader(h string) int {\n\treturn len(h)\n}\n")
	os.MkdirAll(filepath.Join(tree, "src"), 0o755)
	os.WriteFile(filepath.Join(tree, "src", "big.go"), []byte(b.String()), 0o644)
	os.WriteFile(filepath.Join(tree, "src", "small.go"), []byte("package big\n\nfunc small() {}\n"), 0o644)
	transcript = filepath.Join(t.TempDir(), "session.jsonl")
	lines := []string{
		`{"type":"user","message":{"role":"user","content":"an older request about something else"}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"where is the Retry-After header parsed into a backoff?"}]}}`,
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Let me look."}]}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}}`,
	}
	os.WriteFile(transcript, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	return tree, transcript
}
