package rtchmcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/rtch/rtch/pkg/cmd/guildbundle"
	"github.com/rtch/rtch/pkg/cmd/guildlint"
	"github.com/rtch/rtch/pkg/cmd/guildrecall"
	"github.com/rtch/rtch/pkg/pipeline"
)

// Every tool is a program of the test binary, so scripts pipe real processes
// and rtch-mcp runs as a subprocess speaking stdio.
func TestMain(m *testing.M) {
	testscript.Main(m, pipeline.Programs(map[string]func() int{
		"rtch-mcp":     Main,
		"guild-recall": guildrecall.Main,
		"guild-bundle": guildbundle.Main,
		"guild-lint":   guildlint.Main,
	}))
}

func TestScripts(t *testing.T) {
	fixture, err := filepath.Abs("../../../testdata/fixtures/wiki-project")
	if err != nil {
		t.Fatal(err)
	}
	repoRoot, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "../../../testdata/script/rtch-mcp",
		RequireExplicitExec: true,
		UpdateScripts:       os.Getenv("UPDATE_SCRIPTS") != "",
		Setup: func(env *testscript.Env) error {
			env.Setenv("FIXTURE", fixture)
			env.Setenv("REPO", repoRoot)
			env.Setenv("GOROOT_SRC", filepath.Join(goroot(t), "src"))
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"mcp-call":       mcpCall,
			"canonical-json": canonicalJSON,
		},
	})
}

// mcpCall is `mcp-call ROOT TOOL JSON-ARGS [text|structured]`: it starts
// rtch-mcp --root ROOT as a subprocess, calls TOOL through the SDK's client
// over stdio and prints the text content (default) or the structured content.
// A tool error prints its text on stderr and fails (negate with !).
func mcpCall(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 3 || len(args) > 4 {
		ts.Fatalf("usage: mcp-call ROOT TOOL JSON-ARGS [text|structured]")
	}
	var in map[string]any
	if err := json.Unmarshal([]byte(args[2]), &in); err != nil {
		ts.Fatalf("arguments: %v", err)
	}
	bin, err := exec.LookPath("rtch-mcp")
	if err != nil {
		ts.Fatalf("rtch-mcp: %v", err)
	}
	cmd := exec.Command(bin, "--root", ts.MkAbs(args[0]))
	cmd.Env = scriptEnv(ts)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "mcp-call", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		ts.Fatalf("connect: %v", err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: args[1], Arguments: in})
	if err != nil {
		ts.Fatalf("%s: %v", args[1], err)
	}
	var text bytes.Buffer
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	if res.IsError {
		fmt.Fprint(ts.Stderr(), text.String())
		if !neg {
			ts.Fatalf("%s: tool error", args[1])
		}
		return
	}
	if neg {
		ts.Fatalf("%s: succeeded", args[1])
	}
	if len(args) == 4 && args[3] == "structured" {
		b, _ := json.Marshal(res.StructuredContent)
		fmt.Fprintf(ts.Stdout(), "%s\n", b)
		return
	}
	if len(res.Content) > 0 {
		fmt.Fprint(ts.Stdout(), res.Content[0].(*mcp.TextContent).Text)
	}
}

// scriptEnv is the script's environment, for a subprocess the script did
// not start with exec.
func scriptEnv(ts *testscript.TestScript) []string {
	var env []string
	for _, k := range []string{"PATH", "HOME", "TMPDIR", "SOURCE_DATE_EPOCH", "GOCOVERDIR"} {
		if v := ts.Getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// canonicalJSON is `canonical-json FILE`: it prints the first JSON value of
// FILE re-encoded with sorted keys, as the SDK's client re-encodes the
// structured content it decoded, so the two compare as values.
func canonicalJSON(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: canonical-json FILE")
	}
	var v any
	ts.Check(json.NewDecoder(strings.NewReader(ts.ReadFile(args[0]))).Decode(&v))
	b, err := json.Marshal(v)
	ts.Check(err)
	fmt.Fprintf(ts.Stdout(), "%s\n", b)
}
