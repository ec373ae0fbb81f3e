package rtchmcp

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestSecretNamesOverStdio starts the built rtch-mcp over stdio with the
// SDK's client on a tree holding a Go file named by a GitHub token and a
// wiki page named by an AWS key id. rtch_context (before and after the tree
// index is built) and guild_recall (on the SQLite wiki index) must show
// both under their redacted paths with their text, rtch_reenter must read
// the file by its redacted path, and no piece of either name may reach a
// reply, the server's stderr, or any file written under the tree, the user
// cache directory (the tree index) or the home directory.
func TestSecretNamesOverStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	gh := "ghp_" + "R8wq2ZtLx0Vb7KcN4mHs9JdYe3PfUa6Gi1Ck"
	aws := "AKIA" + "QZ7XW4RT2LMN5BVC"
	source, page := "pkg/quota/"+gh+".go", "wiki/concepts/"+aws+".md"
	root, cache, home := t.TempDir(), t.TempDir(), t.TempDir()
	for name, body := range map[string]string{
		"go.mod":             "module example.com/quota\n\ngo 1.22\n",
		source:               "package quota\n\n// Ledger is the quota ledger: each tenant's spend, reconciled nightly.\ntype Ledger struct{ Spend int }\n",
		page:                 "---\ntype: concept\nimportance: 5\n---\nThe quota ledger is reconciled nightly against billing exports.\n",
		".guild/config.toml": "[index]\nmechanism = \"sqlite\"\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var stderr syncBuffer
	cmd := exec.Command(binary(t), "--root", root)
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+cache, "HOME="+home)
	cmd.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "names-test", Version: "0"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var replies bytes.Buffer
	call := func(tool string, args map[string]any, want ...string) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %s", tool, err, textOf(res))
		}
		structured, _ := json.Marshal(res.StructuredContent)
		text := textOf(res)
		replies.WriteString(text)
		replies.Write(structured)
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s %v: the reply lacks %q:\n%s", tool, args, w, text)
			}
		}
	}
	ask := map[string]any{"goal": "where is the quota ledger type declared", "enough": "the quota ledger type is hydrated", "format": "json"}
	shown := []string{"pkg/quota/[REDACTED:github-pat].go", "type Ledger struct"}
	call("rtch_context", ask, shown...)
	waitForIndex(t, cache)
	ask["goal"] = "where is the quota ledger type declared and reconciled"
	call("rtch_context", ask, shown...)
	call("rtch_context", map[string]any{"goal": "quota ledger spend", "enough": "the quota ledger type is hydrated"}, shown...)
	call("rtch_reenter", map[string]any{"range": "pkg/quota/[REDACTED:github-pat].go:L1-L4"}, "type Ledger struct")
	call("guild_recall", map[string]any{"query": "quota ledger reconciled nightly"},
		"wiki/concepts/[REDACTED:aws-access-token].md", "against billing exports")
	cs.Close()

	// What the server wrote: every file under the three directories but
	// the two planted, by name and content.
	stored := map[string][]byte{"the replies": replies.Bytes(), "stderr": []byte(stderr.String())}
	for _, dir := range []string{root, cache, home} {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && p != filepath.Join(root, source) && p != filepath.Join(root, page) {
				data, _ := os.ReadFile(p)
				stored[p] = append([]byte(p+"\n"), data...)
			}
			return nil
		})
	}
	if stored[filepath.Join(root, ".guild/indexes/wiki.sqlite")] == nil {
		t.Error("guild_recall wrote no wiki index")
	}
	for where, data := range stored {
		for _, name := range []string{gh, aws} {
			if holdsPiece(data, name) {
				t.Errorf("a piece of %s… reaches %s", name[:4], where)
			}
		}
	}
}

// holdsPiece reports whether data holds either half of the secret name,
// in any case (indexed terms are lower-cased).
func holdsPiece(data []byte, name string) bool {
	lower := bytes.ToLower(data)
	for _, piece := range []string{name[4:20], name[len(name)-16:]} {
		if bytes.Contains(lower, []byte(strings.ToLower(piece))) {
			return true
		}
	}
	return false
}

// waitForIndex waits until the server's tree index is written under the
// user cache directory cache.
func waitForIndex(t *testing.T, cache string) {
	t.Helper()
	for range 600 {
		if m, _ := filepath.Glob(filepath.Join(cache, "rtch", "index", "*", "index")); len(m) > 0 {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("no tree index under %s after a minute", cache)
}
