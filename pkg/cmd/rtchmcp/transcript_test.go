package rtchmcp

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const transcriptDoc = "../../../docs/rtch-mcp.md"

// The recorded session in docs/rtch-mcp.md is a real one: the built binary
// on a copy of testdata/fixtures/sample, the SDK's client over its stdin
// and stdout, each call made after the last reply, every message as it
// crossed the pipes (long strings and lists cut, the walks' progress lines
// between the stages' left out, the temporary root shown as /tmp/sample).
// It names only the server's tools, never a binary or a flag. The test
// fails when the page shows anything else; UPDATE_TRANSCRIPT=1 (make
// mcp-transcript) rewrites it.
func TestDocsTranscript(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	bin := binary(t)
	root := filepath.Join(fixedTemp(t), "sample")
	if out, err := exec.Command("cp", "-r", "../../../testdata/fixtures/sample", root).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	cmd := exec.Command(bin, "--root", root, "--index", t.TempDir())
	cmd.Env = append(os.Environ(), "SOURCE_DATE_EPOCH=1767225600", "RTCH_ZONE_ROOT=")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "doc", Version: "1"}, nil).Connect(context.Background(),
		&mcp.IOTransport{Reader: io.NopCloser(rec.tee(stdout)), Writer: rec.writer(stdin)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	call := func(name string, args map[string]any, meta mcp.Meta) *mcp.CallToolResult {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args, Meta: meta})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res
	}
	res := call("rtch_context", map[string]any{"goal": "find where the record stream reader reports malformed lines",
		"enough": "the file and lines that implement it are hydrated", "fanout": "conservative", "persist": true}, mcp.Meta{"progressToken": "ctx-1"})
	b, _ := json.Marshal(res.StructuredContent)
	var sum struct {
		ID string `json:"packet_id"`
	}
	json.Unmarshal(b, &sum)
	call("rtch_reenter", map[string]any{"range": "stream/reader.go:L40-L45"}, nil)
	call("rtch_reenter", map[string]any{"range": "../etc/passwd:L1-L3"}, nil)
	call("rtch_packet", map[string]any{"packet": sum.ID, "section": "selected_surfaces"}, nil)
	call("rtch_rehydrate", map[string]any{"packet": sum.ID}, nil)
	call("rtch_packet", map[string]any{"packet": "rtch_packet_000000000000"}, nil)
	call("guild_recall", map[string]any{"query": "how are malformed lines reported"}, nil)
	cs.Close()
	cmd.Wait()
	got := rec.render(root)
	if m := cliWords.FindString(strings.ReplaceAll(got, `"name":"rtch-mcp"`, "")); m != "" {
		t.Errorf("the session names %q, not an MCP tool", m)
	}

	page, err := os.ReadFile(transcriptDoc)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile("(?s)(<!-- transcript[^\n]*-->\n)(.*?)(<!-- /transcript -->)")
	m := re.FindSubmatchIndex(page)
	if m == nil {
		t.Fatalf("%s has no <!-- transcript --> block", transcriptDoc)
	}
	if string(page[m[4]:m[5]]) == got {
		return
	}
	if os.Getenv("UPDATE_TRANSCRIPT") != "" {
		out := string(page[:m[4]]) + got + string(page[m[5]:])
		if err := os.WriteFile(transcriptDoc, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("the session in %s is stale; run make mcp-transcript.\nnow:\n%s", transcriptDoc, got)
}

// fixedTemp is a new directory whose path has the same length on every
// run (the brief states its own size, and it names the root): under /tmp,
// eight random hexadecimal digits.
func fixedTemp(t *testing.T) string {
	t.Helper()
	for range 10 {
		var b [4]byte
		rand.Read(b[:])
		dir := fmt.Sprintf("/tmp/rtch-doc-%x", b)
		if err := os.Mkdir(dir, 0o755); err == nil {
			t.Cleanup(func() { os.RemoveAll(dir) })
			return dir
		}
	}
	t.Skip("skipped: cannot make a directory under /tmp")
	return ""
}

// recorder keeps every message that crosses the pipes, in order, marked
// with its direction.
type recorder struct {
	mu   sync.Mutex
	msgs []string
}

func (r *recorder) add(dir string, line []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, dir+string(bytes.TrimSpace(line)))
}

// tee copies the server's stdout to the client, line by line.
func (r *recorder) tee(from io.Reader) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		sc := bufio.NewScanner(from)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			r.add("← ", sc.Bytes())
			pw.Write(append(append([]byte(nil), sc.Bytes()...), '\n'))
		}
		pw.CloseWithError(sc.Err())
	}()
	return pr
}

// writer notes each message the client writes to the server.
func (r *recorder) writer(to io.WriteCloser) io.WriteCloser {
	return &noting{to: to, r: r}
}

type noting struct {
	to  io.WriteCloser
	r   *recorder
	buf []byte
}

func (n *noting) Write(p []byte) (int, error) {
	n.buf = append(n.buf, p...)
	for {
		i := bytes.IndexByte(n.buf, '\n')
		if i < 0 {
			break
		}
		n.r.add("→ ", n.buf[:i])
		n.buf = n.buf[i+1:]
	}
	return n.to.Write(p)
}

func (n *noting) Close() error { return n.to.Close() }

// render is the session as the page shows it.
func (r *recorder) render(root string) string {
	real, _ := filepath.EvalSymlinks(root)
	var b strings.Builder
	b.WriteString("```\n")
	progress := 0
	for _, m := range r.msgs {
		dir, msg := m[:len("→ ")], m[len("→ "):]
		var v any
		if json.Unmarshal([]byte(msg), &v) != nil {
			continue
		}
		if walkProgress(v) {
			continue
		}
		if p, ok := progressParams(v); ok {
			progress++
			p["progress"] = progress
		}
		line, _ := json.Marshal(cut(v))
		s := strings.ReplaceAll(strings.ReplaceAll(string(line), real, "/tmp/sample"), root, "/tmp/sample")
		s = serverVersion.ReplaceAllString(s, `$1(devel)"`)
		fmt.Fprintf(&b, "%s%s\n", dir, s)
	}
	b.WriteString("```\n")
	return b.String()
}

// serverVersion is the server's version as its reply names it.
var serverVersion = regexp.MustCompile(`("name":"rtch-mcp","title":"rtch","version":")[^"]*"`)

// walkProgress tells a progress notification other than a stage's end (a
// walk's, the background index build's): how many there are depends on
// the machine's speed.
func walkProgress(v any) bool {
	p, ok := progressParams(v)
	msg, _ := p["message"].(string)
	return ok && !stageDone.MatchString(msg)
}

var stageDone = regexp.MustCompile(`^[a-z]+: done \(stage \d+/6\)$`)

// progressParams are the parameters of a progress notification.
func progressParams(v any) (map[string]any, bool) {
	m, _ := v.(map[string]any)
	if m["method"] != "notifications/progress" {
		return nil, false
	}
	p, ok := m["params"].(map[string]any)
	return p, ok
}

// cut shortens what the page cannot show whole: strings to 1,000
// characters, lists to their first three items, each cut marked with "…".
func cut(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = cut(e)
		}
		return out
	case []any:
		out := []any{}
		for i, e := range x {
			if i == 3 {
				out = append(out, fmt.Sprintf("… %d more", len(x)-3))
				break
			}
			out = append(out, cut(e))
		}
		return out
	case string:
		if r := []rune(x); len(r) > 1000 {
			return string(r[:1000]) + "…"
		}
	}
	return v
}
