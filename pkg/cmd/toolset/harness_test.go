package toolset_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rtch/rtch/pkg/cli"
	"github.com/rtch/rtch/pkg/cmd/rtchmcp"
	"github.com/rtch/rtch/pkg/cmd/toolset"
)

// repoRoot is the repository's top directory, from this package's.
var repoRoot = filepath.Join("..", "..", "..")

// servedTools lists the tools a real rtch-mcp server serves, with the
// properties of each one's input schema.
func servedTools(t *testing.T) map[string][]string {
	t.Helper()
	ctx := context.Background()
	root, err := rtchmcp.NewRoot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	srv, stop, err := rtchmcp.NewServer(ctx, root, rtchmcp.Hot{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "skills-test", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string][]string{}
	for _, tool := range list.Tools {
		var schema struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		raw, _ := json.Marshal(tool.InputSchema)
		if err := json.Unmarshal(raw, &schema); err != nil {
			t.Fatalf("%s: input schema: %v", tool.Name, err)
		}
		for p := range schema.Properties {
			tools[tool.Name] = append(tools[tool.Name], p)
		}
	}
	return tools
}

var (
	codeSpan  = regexp.MustCompile("`([^`\n]+)`")
	toolName  = regexp.MustCompile(`\b(?:rtch|guild)_[a-z_]*[a-z]\b`)
	toolArg   = regexp.MustCompile(`\b([a-z_]+)=`)
	longFlag  = regexp.MustCompile(`(?:^|\s)(--?[a-z][a-z0-9-]*)`)
	binaryRef = regexp.MustCompile(`^(?:rtch|guild)-[a-z]+\b`)
)

// TestSkillsNameOnlyRealTools reads every skill of the plugin and fails
// when one names an MCP tool the server does not serve, an argument that
// tool does not take, a binary that does not exist or a flag it lacks.
func TestSkillsNameOnlyRealTools(t *testing.T) {
	tools := servedTools(t)
	skills, err := filepath.Glob(filepath.Join(repoRoot, "plugin", "skills", "*", "SKILL.md"))
	if err != nil || len(skills) < 2 {
		t.Fatalf("skills: %v %v", skills, err)
	}
	for _, path := range skills {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		checkFrontmatter(t, path, text)
		named := 0
		for _, m := range toolName.FindAllString(text, -1) {
			if _, ok := tools[m]; !ok {
				t.Errorf("%s names %s, which rtch-mcp does not serve", path, m)
			}
			named++
		}
		if named == 0 {
			t.Errorf("%s names no MCP tool", path)
		}
		for _, span := range codeSpan.FindAllStringSubmatch(text, -1) {
			checkSpan(t, path, span[1], tools)
		}
	}
}

// checkSpan checks one code span: a tool call's arguments, or a command
// line's binary and flags.
func checkSpan(t *testing.T, path, span string, tools map[string][]string) {
	if name := toolName.FindString(span); name != "" && strings.HasPrefix(span, name+" ") {
		for _, a := range toolArg.FindAllStringSubmatch(span, -1) {
			if !slices.Contains(tools[name], a[1]) {
				t.Errorf("%s: `%s`: %s takes no argument %q (it takes %v)", path, span, name, a[1], tools[name])
			}
		}
		return
	}
	bin := binaryRef.FindString(span)
	if bin == "" {
		return
	}
	tool := toolset.Lookup(bin)
	if tool == nil {
		t.Errorf("%s: `%s`: no binary %s", path, span, bin)
		return
	}
	flags := tool.Doc().Flags
	for _, f := range longFlag.FindAllStringSubmatch(span, -1) {
		if !hasFlag(flags, f[1]) {
			t.Errorf("%s: `%s`: %s has no flag %s", path, span, bin, f[1])
		}
	}
}

func hasFlag(flags []cli.FlagDoc, name string) bool {
	for _, f := range flags {
		if slices.Contains(f.Names, name) {
			return true
		}
	}
	return false
}

// checkFrontmatter checks a skill's name and description, which is all a
// harness reads before it loads the skill.
func checkFrontmatter(t *testing.T, path, text string) {
	fm, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		t.Errorf("%s: no frontmatter", path)
		return
	}
	fm, _, ok = strings.Cut(fm, "\n---\n")
	if !ok {
		t.Errorf("%s: frontmatter not closed", path)
		return
	}
	dir := filepath.Base(filepath.Dir(path))
	if !strings.Contains(fm, "\nname: "+dir+"\n") && !strings.HasPrefix(fm, "name: "+dir+"\n") {
		t.Errorf("%s: frontmatter name is not %q", path, dir)
	}
	if !regexp.MustCompile(`(?m)^description: \S.{40,}$`).MatchString(fm) {
		t.Errorf("%s: frontmatter lacks a description of what the skill is for and when", path)
	}
}

// pluginFile reads a JSON file of the plugin into v.
func pluginFile(t *testing.T, rel string, v any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, rel))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
}

type serverEntry struct {
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

// TestPluginManifests checks the plugin's manifest against the marketplace
// entry and its MCP configuration against rtch-mcp's flags, then lets the
// Claude Code CLI validate both when it is installed.
func TestPluginManifests(t *testing.T) {
	var plugin struct{ Name, Version string }
	pluginFile(t, "plugin/.claude-plugin/plugin.json", &plugin)
	var market struct {
		Plugins []struct{ Name, Source, Version string } `json:"plugins"`
	}
	pluginFile(t, ".claude-plugin/marketplace.json", &market)
	if len(market.Plugins) != 1 || market.Plugins[0].Name != plugin.Name || market.Plugins[0].Source != "./plugin" || market.Plugins[0].Version != plugin.Version {
		t.Errorf("marketplace entry %+v does not match plugin %+v at ./plugin", market.Plugins, plugin)
	}
	var mcpConfig struct {
		Servers map[string]serverEntry `json:"mcpServers"`
	}
	pluginFile(t, "plugin/.mcp.json", &mcpConfig)
	if len(mcpConfig.Servers) != 1 {
		t.Fatalf("plugin/.mcp.json: want one server, got %v", mcpConfig.Servers)
	}
	for name, s := range mcpConfig.Servers {
		checkServerEntry(t, "plugin/.mcp.json "+name, s)
	}
	claude := claudeCLI(t)
	for _, dir := range []string{"plugin", "."} {
		cmd := exec.Command(claude, "plugin", "validate", "--strict", dir)
		cmd.Dir = repoRoot
		cmd.Env = claudeEnv(t.TempDir())
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("claude plugin validate --strict %s: %v\n%s", dir, err, out)
		}
	}
}

// checkServerEntry fails unless an MCP configuration entry starts rtch-mcp
// with flags it has.
func checkServerEntry(t *testing.T, where string, s serverEntry) {
	t.Helper()
	if s.Command != "rtch-mcp" {
		t.Errorf("%s: command %q, want rtch-mcp", where, s.Command)
	}
	flags := toolset.Lookup("rtch-mcp").Doc().Flags
	for _, a := range s.Args {
		if strings.HasPrefix(a, "-") && !hasFlag(flags, a) {
			t.Errorf("%s: rtch-mcp has no flag %s", where, a)
		}
	}
}

// claudeCLI finds the Claude Code CLI (.ci/run installs it into
// $RTCH_CLAUDE_DIR) or skips the test.
func claudeCLI(t *testing.T) string {
	t.Helper()
	if dir := os.Getenv("RTCH_CLAUDE_DIR"); dir != "" {
		p := filepath.Join(dir, "node_modules", ".bin", "claude")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	p, err := exec.LookPath("claude")
	if err != nil {
		t.Skip("the Claude Code CLI is not installed (.ci/run installs it into $RTCH_CLAUDE_DIR); its checks skip")
	}
	return p
}

// claudeEnv keeps the Claude Code CLI in a home of the test's own and off
// the network beyond what a check needs.
func claudeEnv(home string) []string {
	return append(os.Environ(), "HOME="+home, "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")
}

// docSnippets returns the JSON configuration blocks of docs/rtch-mcp.md:
// what a user pastes into Cursor's or VS Code's mcp.json.
func docSnippets(t *testing.T) []map[string]serverEntry {
	data, err := os.ReadFile(filepath.Join(repoRoot, "docs", "rtch-mcp.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]serverEntry
	for _, block := range regexp.MustCompile("(?s)```json\n(.*?)```").FindAllStringSubmatch(string(data), -1) {
		if !strings.Contains(block[1], `"mcpServers"`) && !strings.Contains(block[1], `"servers"`) {
			continue // a transcript, not a configuration
		}
		var cfg map[string]map[string]serverEntry
		if err := json.Unmarshal([]byte(block[1]), &cfg); err != nil {
			t.Fatalf("docs/rtch-mcp.md: a json block does not parse: %v\n%s", err, block[1])
		}
		for _, key := range []string{"mcpServers", "servers"} {
			if servers, ok := cfg[key]; ok {
				out = append(out, servers)
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("docs/rtch-mcp.md holds no mcpServers or servers block")
	}
	return out
}

// TestRegistrationsStartTheServer starts rtch-mcp exactly as each
// documented registration does (the plugin's .mcp.json, the mcp.json of
// Cursor and VS Code, with ${workspaceFolder} filled in as those editors
// do) and talks to it with a real MCP client over stdio; with the Claude
// Code CLI installed, `claude mcp add` registers it and `claude mcp get`
// connects to it.
func TestRegistrationsStartTheServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds rtch-mcp; skipped with -short")
	}
	bin := buildMCP(t)
	project := t.TempDir()
	os.WriteFile(filepath.Join(project, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	var mcpConfig struct {
		Servers map[string]serverEntry `json:"mcpServers"`
	}
	pluginFile(t, "plugin/.mcp.json", &mcpConfig)
	entries := []serverEntry{mcpConfig.Servers["rtch"]}
	for _, servers := range docSnippets(t) {
		for name, s := range servers {
			checkServerEntry(t, "docs/rtch-mcp.md "+name, s)
			entries = append(entries, s)
		}
	}
	for _, s := range entries {
		args := make([]string, len(s.Args))
		for i, a := range s.Args {
			args[i] = strings.ReplaceAll(a, "${workspaceFolder}", project)
		}
		cmd := exec.Command(bin, args...)
		cmd.Dir = project // a harness starts the server in the project
		listTools(t, cmd)
	}
	claudeAddAndGet(t, bin, project)
}

func buildMCP(t *testing.T) string {
	t.Helper()
	return filepath.Join(buildBinaries(t, "rtch-mcp"), "rtch-mcp")
}

// listTools connects to the server cmd starts and fails unless it lists the
// toolkit's tools.
func listTools(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "registration-test", Version: "0"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("%v: %v", cmd.Args, err)
	}
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("%v: tools/list: %v", cmd.Args, err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	if !slices.Contains(names, "rtch_context") || !slices.Contains(names, "guild_recall") {
		t.Errorf("%v: tools %v", cmd.Args, names)
	}
}

// claudeAddAndGet registers the server with the README's one line and asks
// Claude Code to connect to it.
func claudeAddAndGet(t *testing.T, bin, project string) {
	claude := claudeCLI(t)
	home := t.TempDir()
	run := func(args ...string) string {
		cmd := exec.Command(claude, args...)
		cmd.Dir = project
		cmd.Env = append(claudeEnv(home), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("claude %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run("mcp", "add", "rtch", "--", "rtch-mcp", "--root", ".")
	if out := run("mcp", "get", "rtch"); !strings.Contains(out, "Connected") {
		t.Errorf("claude mcp get rtch did not connect:\n%s", out)
	}
}

// TestGuildScriptsDropIn runs guild-recall and guild-lint exactly as the
// original Guild skill text calls its recall.ts and lint-context-bundle.ts
// (the same flags, from the project root), then, with tsx installed
// ($RTCH_TSX_DIR, which .ci/run fills), the original command lines
// themselves against plugin/guild-compat: the two must print the same bytes.
func TestGuildScriptsDropIn(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the guild binaries; skipped with -short")
	}
	bins := buildBinaries(t, "guild-recall", "guild-lint", "guild-bundle")
	project := t.TempDir()
	if err := os.CopyFS(project, os.DirFS(filepath.Join(repoRoot, "testdata", "fixtures", "wiki-project"))); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "PATH="+bins+string(os.PathListSeparator)+os.Getenv("PATH"))
	run := func(wantCode int, name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = project, env
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		if code := cmd.ProcessState.ExitCode(); code != wantCode {
			t.Fatalf("%s %v: exit %d (%v), want %d\n%s", name, args, code, err, wantCode, stderr.String())
		}
		return stdout.String()
	}
	// The original skill's calls, word for word but for the script's path.
	recallArgs := []string{"--query", "how do invoice retries back off", "--cwd", project, "--run-id", "run-compat", "--category", "decision", "--limit", "10"}
	recall := run(0, filepath.Join(bins, "guild-recall"), recallArgs...)
	if !strings.Contains(recall, "0004-retry-budget") {
		t.Errorf("guild-recall as recall.ts is called found no retry decision:\n%s", recall)
	}
	run(0, filepath.Join(bins, "guild-bundle"), "--plan", ".guild/plan/invoice-retries.md", "--all", "--run-id", "run-compat")
	bundles, _ := filepath.Glob(filepath.Join(project, ".guild", "context", "run-compat", "*.md"))
	if len(bundles) == 0 {
		t.Fatal("guild-bundle wrote no bundle")
	}
	rel, _ := filepath.Rel(project, bundles[0])
	lint := run(0, filepath.Join(bins, "guild-lint"), "--bundle", rel)
	if !strings.Contains(lint, `"pass":true`) {
		t.Errorf("guild-lint --bundle %s: %s", rel, lint)
	}

	tsx := filepath.Join(os.Getenv("RTCH_TSX_DIR"), "node_modules", ".bin", "tsx")
	if _, err := os.Stat(tsx); os.Getenv("RTCH_TSX_DIR") == "" || err != nil {
		t.Skip("tsx is not installed (.ci/run installs it into $RTCH_TSX_DIR): the original command lines are not run")
	}
	compat, _ := filepath.Abs(filepath.Join(repoRoot, "plugin", "guild-compat"))
	if got := run(0, tsx, append([]string{filepath.Join(compat, "scripts", "lib", "recall.ts")}, recallArgs...)...); got != recall {
		t.Errorf("recall.ts printed other bytes than guild-recall:\n%s\nwant\n%s", got, recall)
	}
	if got := run(0, tsx, filepath.Join(compat, "scripts", "lint-context-bundle.ts"), "--bundle", rel); got != lint {
		t.Errorf("lint-context-bundle.ts printed %s, want %s", got, lint)
	}
	// A bundle over its cap fails the lint, with the same exit code through
	// the script.
	os.WriteFile(bundles[0], []byte(strings.Repeat("word ", 40000)), 0o644)
	if got := run(2, tsx, filepath.Join(compat, "scripts", "lint-context-bundle.ts"), "--bundle", rel); !strings.Contains(got, `"pass":false`) {
		t.Errorf("an oversized bundle: %s", got)
	}
}
