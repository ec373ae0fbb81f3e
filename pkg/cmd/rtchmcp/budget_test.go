package rtchmcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rtch/rtch/pkg/cli"
	"github.com/rtch/rtch/pkg/internal/testtree"
	"github.com/rtch/rtch/pkg/tokens"
)

// bigTree writes a tree that overflowed every reply before replies were
// budgeted: 3,000 binary files (a skip record each in the packet), 400 Go
// files that all match the goal, one file of 6,000 lines, and a Guild
// project with 300 wiki pages on the question and a plan of 80 lanes.
func bigTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for i := range 3000 {
		testtree.Write(t, root, fmt.Sprintf("testdata/blob%04d.bin", i), "\x00\x01binary payload\x00")
	}
	for i := range 400 {
		testtree.Write(t, root, fmt.Sprintf("pkg/p%03d/reader.go", i), fmt.Sprintf(
			"package p%03d\n\nimport \"fmt\"\n\n// ReadRecord reads one record and reports a malformed line.\nfunc ReadRecord(line string) error {\n\tif line == \"\" {\n\t\treturn fmt.Errorf(\"malformed line %%q\", line)\n\t}\n\treturn nil\n}\n", i))
	}
	var long strings.Builder
	long.WriteString("package long\n\n")
	for i := range 6000 {
		fmt.Fprintf(&long, "// line %d of a long file that reports a malformed record when it must\n", i)
	}
	testtree.Write(t, root, "long/long.go", long.String())
	for i := range 300 {
		testtree.Write(t, root, fmt.Sprintf("wiki/concepts/retry-%03d.md", i), fmt.Sprintf(
			"---\ntype: concept\nowner: reviewed\nconfidence: high\nsource_refs: [pkg/p%03d/reader.go]\nimportance: 4\n---\n# Invoice retries %d\n\n%s\n", i, i,
			strings.Repeat("Invoice retries back off exponentially; a malformed record is never retried. ", 12)))
	}
	var plan strings.Builder
	plan.WriteString("---\ntype: plan\nspec: .guild/spec/x.md\nteam: [backend]\napproved: true\n---\n# Plan: retries\n\n")
	for i := range 80 {
		fmt.Fprintf(&plan, "## Lane: backend\n- task-id: T%d-backend\n- owner: backend\n- depends-on: []\n- scope: Make invoice retries back off, part %d.\n- success-criteria:\n  - retries back off\n- autonomy-policy: may act inside pkg/retry\n- autonomy: all\n- refs: [wiki/concepts/retry-%03d.md]\n\n", i+1, i, i)
	}
	testtree.Write(t, root, ".guild/plan/retries.md", plan.String())
	return root
}

// tap hands a server's stdout to the client and keeps the result member of
// each reply as it arrived, by request id.
type tap struct {
	mu      sync.Mutex
	results map[string][]byte
}

func (tp *tap) run(from io.Reader, to *io.PipeWriter) {
	sc := bufio.NewScanner(from)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal(sc.Bytes(), &m) == nil && m.Result != nil {
			tp.mu.Lock()
			tp.results[string(m.ID)] = append([]byte(nil), m.Result...)
			tp.mu.Unlock()
		}
		to.Write(append(sc.Bytes(), '\n'))
	}
	to.CloseWithError(sc.Err())
}

// takeAll is every result the tap kept since the last take.
func (tp *tap) takeAll() [][]byte {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	var out [][]byte
	for k, v := range tp.results {
		out = append(out, v)
		delete(tp.results, k)
	}
	return out
}

// Every tool's reply, as the client receives it (the result member of
// the JSON-RPC reply, the bytes on stdout), is within its budget plus
// ReplyOverhead on a tree large enough to have overflowed them all: the
// server runs as its binary does, over pipes, with an SDK client.
func TestEveryReplyWithinItsBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("a tree of 4,000 files; skipped with -short")
	}
	root := bigTree(t)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	cliR, cliW := io.Pipe()
	tp := &tap{results: map[string][]byte{}}
	go tp.run(outR, cliW)
	done := make(chan int)
	go func() {
		done <- cli.Run(context.Background(), Tool(), []string{"--root", root, "--index", t.TempDir()}, inR, outW, io.Discard)
		outW.Close()
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "budget", Version: "0"}, nil).Connect(context.Background(), &mcp.IOTransport{Reader: cliR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); inW.Close(); <-done }()

	goal := map[string]any{"goal": "find where ReadRecord reports a malformed line", "enough": "the function that reports it is hydrated"}
	with := func(extra map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range goal {
			out[k] = v
		}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	var packetID string
	calls := []struct {
		tool   string
		args   func() map[string]any
		budget int
	}{
		{"rtch_context", func() map[string]any { return with(map[string]any{"persist": true}) }, 8000},
		{"rtch_context", func() map[string]any { return with(map[string]any{"format": "json"}) }, 8000},
		{"rtch_context", func() map[string]any { return with(map[string]any{"fanout": "wide"}) }, 16000},
		{"rtch_context", func() map[string]any { return with(map[string]any{"fanout": "wide", "format": "json"}) }, 16000},
		{"rtch_context", func() map[string]any { return with(map[string]any{"budget_tokens": 2500}) }, 2500},
		{"rtch_packet", func() map[string]any { return map[string]any{"packet": packetID} }, ReplyBudget},
		{"rtch_packet", func() map[string]any { return map[string]any{"packet": packetID, "section": "skipped_surfaces"} }, ReplyBudget},
		{"rtch_packet", func() map[string]any {
			return map[string]any{"packet": packetID, "section": "skipped_surfaces", "offset": 1500}
		}, ReplyBudget},
		{"rtch_packet", func() map[string]any { return map[string]any{"packet": packetID, "section": "hydrated_chunks"} }, ReplyBudget},
		{"rtch_reenter", func() map[string]any { return map[string]any{"range": "long/long.go:L1-L6002"} }, ReplyBudget},
		{"rtch_rehydrate", func() map[string]any { return map[string]any{"packet": packetID} }, ReplyBudget},
		{"guild_recall", func() map[string]any { return map[string]any{"query": "how do invoice retries back off", "limit": 200} }, ReplyBudget},
		{"guild_bundle", func() map[string]any {
			return map[string]any{"plan": ".guild/plan/retries.md", "all": true, "run_id": "run-1"}
		}, ReplyBudget},
		{"guild_lint", func() map[string]any { return map[string]any{"run": ".guild/context/run-1"} }, ReplyBudget},
	}
	for _, c := range calls {
		args := c.args()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s %v: %v %.500s", c.tool, args, err, textOf(res))
		}
		if packetID == "" {
			b, _ := json.Marshal(res.StructuredContent)
			var s struct {
				ID string `json:"packet_id"`
			}
			json.Unmarshal(b, &s)
			packetID = s.ID
		}
		for _, raw := range tp.takeAll() {
			n := tokens.Estimate(string(raw))
			t.Logf("%s %v: %d tokens (%d bytes)", c.tool, args, n, len(raw))
			if n > c.budget+ReplyOverhead {
				t.Errorf("%s %v: the reply is %d tokens, over its budget %d and the overhead %d", c.tool, args, n, c.budget, ReplyOverhead)
			}
		}
	}
}

// TestNextBudgetShrinksTheBrief: the next rendering's budget is below what
// the brief used, so a brief with room under its cap still gives up the
// reply's excess (lowering only the cap left such a reply over its budget
// for all eight renderings).
func TestNextBudgetShrinksTheBrief(t *testing.T) {
	for _, c := range []struct{ cap, used, excess, want int }{
		{8000, 7900, 38, 7862},
		{8000, 8000, 500, 7500},
		{7000, 7500, 100, 6900},
	} {
		if got := nextBudget(c.cap, c.used, c.excess); got != c.want {
			t.Errorf("nextBudget(%d, %d, %d) = %d, want %d", c.cap, c.used, c.excess, got, c.want)
		}
	}
}
