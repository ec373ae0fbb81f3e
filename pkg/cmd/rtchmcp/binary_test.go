package rtchmcp

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// binary builds cmd/rtch-mcp as a user would install it (the build cache
// makes the second build a link).
func binary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "rtch-mcp")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/rtch-mcp")
	cmd.Dir = filepath.Join("..", "..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/rtch-mcp: %v\n%s", err, out)
	}
	return bin
}

// The built binary, started as a subprocess, speaks MCP over stdio to the
// SDK's client.
func TestBuiltBinaryOverStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	bin := binary(t)
	root := repo(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin, "--root", root)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if v := cs.InitializeResult().ServerInfo; v.Name != "rtch-mcp" || v.Version == "" {
		t.Fatalf("server info %+v", v)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 7 {
		t.Fatalf("tools/list: %v %d tools", err, len(tools.Tools))
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "rtch_context", Arguments: map[string]any{
		"goal": "find where ReadLine reports a malformed line", "enough": "the function is hydrated", "format": "json",
	}})
	if err != nil || res.IsError {
		t.Fatalf("rtch_context: %v %s", err, textOf(res))
	}
	var p struct {
		Kind          string `json:"kind"`
		HaltingReason string `json:"halting_reason"`
	}
	if err := json.Unmarshal([]byte(textOf(res)), &p); err != nil || p.Kind != "rtch.packet_summary" || p.HaltingReason == "" {
		t.Fatalf("packet: %v %.300s", err, textOf(res))
	}
}

// inspector finds the MCP Inspector's CLI that .ci/run installs into a cache
// directory ($RTCH_INSPECTOR_DIR, default ~/.cache/rtch/inspector), so the
// tests never reach for the npm registry themselves.
func inspector(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("skipped: node (and npx) not installed, so the MCP Inspector cannot run")
	}
	dir := os.Getenv("RTCH_INSPECTOR_DIR")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			t.Skipf("skipped: no home directory to find the MCP Inspector in: %v", err)
		}
		dir = filepath.Join(home, ".cache", "rtch", "inspector")
	}
	bin := filepath.Join(dir, "node_modules", ".bin", "mcp-inspector")
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("skipped: the MCP Inspector is not installed at %s (install it with: npm install --prefix %s @modelcontextprotocol/inspector, as .ci/run does)", bin, dir)
	}
	return bin
}

// An external client, the MCP Inspector's CLI, lists the tools and calls
// rtch_context on the built binary.
func TestInspectorCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("starts node; skipped with -short")
	}
	insp := inspector(t)
	bin := binary(t)
	root := repo(t)
	run := func(args ...string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, insp, append([]string{"--cli", bin, "--root", root}, args...)...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("mcp-inspector %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	var list struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(run("--method", "tools/list")), &list); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	if got := strings.Join(names, " "); got != "guild_bundle guild_lint guild_recall rtch_context rtch_packet rtch_reenter rtch_rehydrate" {
		t.Fatalf("inspector tools/list: %s", got)
	}
	var call struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		StructuredContent struct {
			Kind string `json:"kind"`
		} `json:"structuredContent"`
		IsError bool `json:"isError"`
	}
	out := run("--method", "tools/call", "--tool-name", "rtch_context",
		"--tool-arg", "goal=find where ReadLine reports a malformed line", "--tool-arg", "enough=the function is hydrated")
	if err := json.Unmarshal([]byte(out), &call); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if call.IsError || len(call.Content) == 0 || !strings.HasPrefix(call.Content[0].Text, "# Evidence brief `rtch_packet_") || call.StructuredContent.Kind != "rtch.packet_summary" {
		t.Fatalf("inspector rtch_context:\n%.600s", out)
	}
}
