package rtchmcp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rtch/rtch/pkg/internal/testtree"
	"github.com/rtch/rtch/pkg/tokens"
)

// repo writes a small Go tree: the lane has something to find.
func repo(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":             "module example.com/demo\n\ngo 1.22\n",
		"stream/reader.go":   "package stream\n\nimport \"fmt\"\n\n// ReadLine reads one record and reports a malformed line with its number.\nfunc ReadLine(no int, line string) error {\n\tif line == \"\" || line[0] != '{' {\n\t\treturn fmt.Errorf(\"line %d: malformed record\", no)\n\t}\n\treturn nil\n}\n",
		"stream/writer.go":   "package stream\n\n// WriteLine writes one record.\nfunc WriteLine(s string) string { return s + \"\\n\" }\n",
		"docs/overview.md":   "# Overview\n\nThe stream package reads and writes records.\n",
		"secret/outside.txt": "",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// connect serves root through the SDK's in-memory transport and returns a
// client session; progress notifications go to onProgress.
func connect(t *testing.T, root string, onProgress func(*mcp.ProgressNotificationParams)) *mcp.ClientSession {
	t.Helper()
	return connectHot(t, root, Hot{IndexDir: filepath.Join(t.TempDir(), "index")}, onProgress)
}

// connectHot is connect with the server's flags hot (its Getenv is set
// here).
func connectHot(t *testing.T, root string, hot Hot, onProgress func(*mcp.ProgressNotificationParams)) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	r, err := NewRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	hot.Getenv = func(k string) string {
		if k == "SOURCE_DATE_EPOCH" {
			return "1767225600"
		}
		return os.Getenv(k)
	}
	srv, stop, err := NewServer(ctx, r, hot)
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
	opts := &mcp.ClientOptions{}
	if onProgress != nil {
		opts.ProgressNotificationHandler = func(_ context.Context, req *mcp.ProgressNotificationClientRequest) { onProgress(req.Params) }
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, opts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error %v", name, err)
	}
	return res
}

func textOf(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// toolsBudget is what the tool definitions may cost, in tokens.
const toolsBudget = 3000

func TestListsTheTools(t *testing.T) {
	cs := connect(t, repo(t), nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
		if len(tl.Description) < 60 {
			t.Errorf("%s: description too thin for a model: %q", tl.Name, tl.Description)
		}
	}
	want := "guild_bundle guild_lint guild_recall rtch_context rtch_packet rtch_reenter rtch_rehydrate"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("tools = %s, want %s", got, want)
	}
	// Every definition reaches the model on every turn: all seven stay
	// under toolsBudget tokens as the client receives them (1,749 by
	// ceil(chars/4) when this was written; 6,600 with output schemas).
	all, _ := json.Marshal(res.Tools)
	if n := tokens.Estimate(string(all)); n > toolsBudget {
		t.Errorf("the tool definitions are %d tokens, over %d", n, toolsBudget)
	}
	for _, tl := range res.Tools {
		if tl.Name != "rtch_context" {
			continue
		}
		in, _ := json.Marshal(tl.InputSchema)
		for _, s := range []string{`"required":["goal","enough"]`, `"code_path"`, `"hydration_packet"`, `"conservative"`} {
			if !strings.Contains(string(in), s) {
				t.Errorf("rtch_context input schema lacks %s: %s", s, in)
			}
		}
	}
}

func TestContextReturnsBriefPacketAndProgress(t *testing.T) {
	var (
		mu    sync.Mutex
		steps []string
	)
	cs := connect(t, repo(t), func(p *mcp.ProgressNotificationParams) {
		mu.Lock()
		steps = append(steps, p.Message)
		mu.Unlock()
	})
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{
		Name: "rtch_context",
		Arguments: map[string]any{
			"goal": "find where ReadLine reports a malformed line", "enough": "the function that reports it is hydrated",
			"persist": true,
		},
		Meta: mcp.Meta{"progressToken": "tok-1"},
	})
	if err != nil || res.IsError {
		t.Fatalf("rtch_context: %v %s", err, textOf(res))
	}
	brief := textOf(res)
	if !strings.HasPrefix(brief, "# Evidence brief `rtch_packet_") || !strings.Contains(brief, "stream/reader.go") {
		t.Fatalf("brief:\n%s", brief)
	}
	var p struct {
		Kind     string `json:"kind"`
		PacketID string `json:"packet_id"`
		Surfaces []struct {
			Path string `json:"path"`
		} `json:"surfaces"`
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &p); err != nil || p.Kind != "rtch.packet_summary" || len(p.Surfaces) == 0 || p.Surfaces[0].Path != "stream/reader.go" {
		t.Fatalf("structured summary: %v %s", err, raw)
	}
	// The client hands notifications to its handler concurrently: the last
	// ones may land just after the reply.
	want := []string{"intake: done (stage 1/6)", "hydrate: done (stage 5/6)", "packet: done (stage 6/6)"}
	var got string
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		mu.Lock()
		got = strings.Join(steps, "\n")
		mu.Unlock()
		missing := ""
		for _, s := range want {
			if !strings.Contains(got, s) {
				missing = s
			}
		}
		if missing == "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("progress lacks %q:\n%s", missing, got)
		}
	}

	// The persisted packet rehydrates by its id, every chunk unchanged.
	rh := callTool(t, cs, "rtch_rehydrate", map[string]any{"packet": p.PacketID})
	if rh.IsError || !strings.HasPrefix(textOf(rh), "packet "+p.PacketID+": refreshed · refreshed ") {
		t.Fatalf("rtch_rehydrate: %s", textOf(rh))
	}
}

// The brief numbers its chunk lines unless the call says line_numbers
// false: each line opens with its line number in the file; json's chunk
// text is the file's bytes either way.
func TestContextNumbersLinesByDefault(t *testing.T) {
	cs := connect(t, repo(t), nil)
	goal := map[string]any{"goal": "find where ReadLine reports a malformed line", "enough": "ReadLine is read"}
	with := func(k string, v any) map[string]any {
		m := map[string]any{k: v}
		for k, v := range goal {
			m[k] = v
		}
		return m
	}
	const numbered = "\n 6 func ReadLine(no int, line string) error {\n 7 \tif line"
	const plain = "\nfunc ReadLine(no int, line string) error {\n\tif line"
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{goal, numbered},
		{with("line_numbers", true), numbered},
		{with("line_numbers", false), plain},
		{with("format", "json"), `func ReadLine(no int, line string) error {\n\tif line`},
	} {
		res := callTool(t, cs, "rtch_context", c.args)
		if text := textOf(res); res.IsError || !strings.Contains(text, c.want) {
			t.Errorf("%v: the reply lacks %q:\n%s", c.args, c.want, text)
		}
	}
}

func TestReenterReadsTheRangeWithItsHash(t *testing.T) {
	cs := connect(t, repo(t), nil)
	res := callTool(t, cs, "rtch_reenter", map[string]any{"range": "stream/reader.go:L6-L9"})
	if res.IsError {
		t.Fatal(textOf(res))
	}
	out := textOf(res)
	if !strings.HasPrefix(out, "stream/reader.go L6-L9 · sha256 ") || !strings.Contains(out, "func ReadLine(no int, line string) error {") {
		t.Fatalf("reenter:\n%s", out)
	}
	sc, _ := json.Marshal(res.StructuredContent)
	if !strings.Contains(string(sc), `"path":"stream/reader.go"`) || !strings.Contains(string(sc), `"line_range":"L6-L9"`) {
		t.Fatalf("structured chunk: %s", sc)
	}
}

// A file whose name is not UTF-8 is re-entered by the name records give it
// (x_¤xFF.md, pkg/pathenc), and its twin x_\xfe.md stays another file.
func TestReenterNonUTF8Name(t *testing.T) {
	root := repo(t)
	for name, text := range map[string]string{"docs/x_\xff.md": "# ff\n\nledger ff\n", "docs/x_\xfe.md": "# fe\n\nledger fe\n"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Skipf("this file system refuses the name %q: %v", name, err)
		}
	}
	cs := connect(t, root, nil)
	for path, want := range map[string]string{"docs/x_¤xFF.md": "ledger ff", "docs/x_¤xFE.md": "ledger fe"} {
		res := callTool(t, cs, "rtch_reenter", map[string]any{"range": path + ":L1-L3"})
		if res.IsError || !strings.HasPrefix(textOf(res), path+" L1-L3 · sha256 ") || !strings.Contains(textOf(res), want) {
			t.Errorf("rtch_reenter %s:\n%s", path, textOf(res))
		}
	}
}

// Every path argument is confined to the root, by name and through links.
func TestPathsAreConfinedToTheRoot(t *testing.T) {
	root := repo(t)
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "bundle.md"), []byte("# x\n"), 0o644)
	if err := os.Symlink(outside, filepath.Join(root, "escape")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "gone"), filepath.Join(root, "dangling")); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, root, nil)
	cases := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"rtch_reenter", map[string]any{"range": "../x.go:L1-L2"}, `range "../x.go": outside the root ` + mustReal(t, root)},
		{"rtch_reenter", map[string]any{"range": "/etc/passwd:L1-L2"}, `range "/etc/passwd": outside the root`},
		{"rtch_reenter", map[string]any{"range": "escape/bundle.md:L1-L1"}, `range "escape/bundle.md": leaves the root ` + mustReal(t, root) + ` through a symbolic link (it resolves to ` + mustReal(t, outside) + `/bundle.md)`},
		{"guild_lint", map[string]any{"bundles": []string{"escape/bundle.md"}}, `bundles "escape/bundle.md": leaves the root`},
		{"guild_lint", map[string]any{"run": "../"}, `run "../": outside the root`},
		{"guild_bundle", map[string]any{"plan": "dangling/plan.md", "all": true}, `plan "dangling/plan.md": goes through the dangling symbolic link`},
		{"rtch_rehydrate", map[string]any{"packet": "escape/p.yaml"}, `packet "escape/p.yaml": leaves the root`},
	}
	for _, c := range cases {
		res := callTool(t, cs, c.tool, c.args)
		if !res.IsError || !strings.Contains(textOf(res), c.want) {
			t.Errorf("%s %v: isError=%v %q, want %q", c.tool, c.args, res.IsError, textOf(res), c.want)
		}
	}
}

func mustReal(t *testing.T, p string) string {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// cliWords are what a shell user types and an MCP agent cannot: a
// binary's name or a double-dash flag.
var cliWords = regexp.MustCompile(`\b(?:rtch|guild)-(?:intake|zone|scout|probe|hydrate|packet|recall|bundle|lint|mcp)\b|(?:^|[\s(\[,'"])--[a-z]`)

// Domain failures are tool errors in the MCP tool's own terms: each names
// the tool and its argument (rtch_context: … (enough)), never a binary or a
// flag; an unknown packet id says so, and a root without a Guild project
// says that.
func TestErrorsSpeakMCP(t *testing.T) {
	root := repo(t)
	testtree.Write(t, root, ".rtch.toml", "[intake]\ntarget_profile = \"bogus\"\n")
	guild := t.TempDir()
	if out, err := exec.Command("cp", "-r", "../../../testdata/fixtures/wiki-project/.", guild).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	cs, gs := connect(t, root, nil), connect(t, guild, nil)
	cases := []struct {
		cs   *mcp.ClientSession
		tool string
		args map[string]any
		want string
	}{
		{cs, "rtch_context", map[string]any{"goal": "find the reader", "enough": "it is read"}, `rtch_context: error: intake declined: target_profile "bogus" from config is not one of doctrine_chain | audit_history | code_path | manifest_registry | vague_intent | mixed (profile)`},
		{cs, "rtch_context", map[string]any{"goal": "find the reader", "enough": "it is read", "profile": "code_path", "budget_tokens": 40}, `budget_tokens 40 is too small: the brief's frame alone is`},
		{cs, "rtch_context", map[string]any{"goal": "find the reader"}, `missing properties: ["enough"]`},
		{cs, "rtch_context", map[string]any{"goal": "find the reader", "enough": ""}, `validating /properties/enough: minLength`},
		{cs, "rtch_reenter", map[string]any{"range": "stream/reader.go:L90-L99"}, `rtch_reenter: error: range "stream/reader.go:L90-L99": stream/reader.go has 11 lines; L90 is past the end`},
		{cs, "rtch_reenter", map[string]any{"range": "stream/nope.go:L1-L2"}, `rtch_reenter: error: range "stream/nope.go:L1-L2": stream/nope.go: unreadable: no such file or directory`},
		{cs, "rtch_reenter", map[string]any{"range": "stream/reader.go"}, `rtch_reenter: error: range "stream/reader.go": want PATH:L<start>-L<end> or PATH:<line>`},
		{cs, "rtch_rehydrate", map[string]any{"packet": "rtch_packet_0123456789ab"}, `packet "rtch_packet_0123456789ab": unknown: audit-logs/rtch/packets/rtch_packet_0123456789ab.yaml does not exist; rtch_rehydrate checks a packet saved by rtch_context persist=true`},
		{cs, "rtch_rehydrate", map[string]any{"packet": "docs/overview.md"}, `rtch_rehydrate: error: packet "docs/overview.md": `},
		{cs, "rtch_packet", map[string]any{"packet": "rtch_packet_0123456789ab"}, `packet "rtch_packet_0123456789ab": unknown: no rtch_context call of this server made it`},
		{cs, "guild_recall", map[string]any{"query": "retries"}, `holds no Guild project (no wiki/ or .guild/ directory): the guild tools serve a Guild project's wiki, plans and bundles; rtch_context serves any tree`},
		{cs, "guild_bundle", map[string]any{"plan": "plan.md", "all": true}, `holds no Guild project`},
		{cs, "guild_lint", map[string]any{"bundles": []string{"no/such.md"}}, "guild_lint: error: no/such.md: no such file or directory\nguild_lint: error: 1 of 1 bundles could not be read; the root "},
		{gs, "guild_recall", map[string]any{"query": " "}, `guild_recall: error: query is required`},
		{gs, "guild_bundle", map[string]any{"plan": ".guild/plan/invoice-retries.md"}, `guild_bundle: error: give exactly one of task and all`},
		{gs, "guild_bundle", map[string]any{"plan": ".guild/plan/invoice-retries.md", "task": []string{"T9-nobody"}}, `guild_bundle: error: `},
	}
	for _, c := range cases {
		res := callTool(t, c.cs, c.tool, c.args)
		got := textOf(res)
		if !res.IsError || !strings.Contains(got, c.want) {
			t.Errorf("%s %v: isError=%v %q, want %q", c.tool, c.args, res.IsError, got, c.want)
		}
		if m := cliWords.FindString(got); m != "" {
			t.Errorf("%s %v: the reply speaks CLI (%q): %s", c.tool, c.args, m, got)
		}
	}
	// A warning names the call to make, not the command.
	res := callTool(t, gs, "guild_bundle", map[string]any{"plan": ".guild/plan/invoice-retries.md", "all": true, "run_id": "r1"})
	if got := textOf(res); res.IsError || !strings.Contains(got, "guild_bundle: warning: lane T3-tech-writer waits on the receipt of T2-backend; not built (run guild_bundle plan=.guild/plan/invoice-retries.md task=T3-tech-writer run_id=r1 once it exists)") || cliWords.MatchString(got) {
		t.Errorf("guild_bundle --all: %s", got)
	}
}

// A cancelled call stops the lane: on a tree whose walk takes seconds, the
// handler returns the context's error instead of a packet, and the client's
// call ends with an error.
func TestCancelStopsTheWork(t *testing.T) {
	big := filepath.Join(goroot(t), "src")
	r, err := NewRoot(big)
	if err != nil {
		t.Skipf("no Go source tree to walk: %v", err)
	}
	h, err := newHandler(context.Background(), r, os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	in := ContextInput{Goal: "where does the http server parse request headers", Enough: "the parser is hydrated"}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	res, _, err := h.context(ctx, nil, in)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled lane: err %v, result %v", err, res)
	}

	cs := connect(t, big, nil)
	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "rtch_context", Arguments: map[string]any{"goal": in.Goal, "enough": in.Enough}}); err == nil {
		t.Fatal("a cancelled call succeeded")
	}
}

func goroot(t *testing.T) string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skipf("go env GOROOT: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// The server collects at 200 % unless GOGC says otherwise.
func TestServerGC(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if pct, ok := serverGC(getenv); !ok || pct != 200 {
		t.Fatalf("without GOGC: %d %v", pct, ok)
	}
	env["GOGC"] = "50"
	if _, ok := serverGC(getenv); ok {
		t.Fatal("GOGC set: the server overrode it")
	}
}

// A lane that ran a second or more hands its garbage back; a short one
// does not.
func TestReleaseAfterLongLane(t *testing.T) {
	n := 0
	releaseAfterLong(time.Now(), func() { n++ })
	if n != 0 {
		t.Fatal("a short lane released memory")
	}
	releaseAfterLong(time.Now().Add(-longLane), func() { n++ })
	if n != 1 {
		t.Fatal("a long lane kept its garbage")
	}
}
