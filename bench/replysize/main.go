// Command replysize measures what an MCP client receives from rtch-mcp:
// the tool definitions as tools/list returns them, and the whole result
// of each call (text and structured content, JSON-encoded as they arrive
// on the wire), in bytes and in tokens (ceil(chars/4), and o200k). It
// starts the server on a tree over stdio, as a harness does, and asks
// rtch_context a few questions in each format; the other tools are called
// when the tree gives them something to do (a re-entry of the first
// chunk, a page of the packet's skipped surfaces, with --persist a
// rehydrate of the packet it persisted under the root (run it on a copy of
// the tree), the guild tools on a Guild project).
//
//	go build -o /tmp/b/ ./cmd/... && go run ./bench/replysize --bin /tmp/b --root "$(go env GOROOT)/src"
//
// With --check it exits 1 when any reply measures more than its budget and
// rtch-mcp's ReplyOverhead (rtch_context's budget_tokens or fanout budget,
// ReplyBudget for the others), or the tool definitions more than 3,000
// tokens: make reply-budget runs it on GOROOT/src.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rtch/rtch/bench/internal/mcpstdio"
	"github.com/rtch/rtch/pkg/cmd/rtchmcp"
	"github.com/rtch/rtch/pkg/config"
	"github.com/rtch/rtch/pkg/tokens"
	"github.com/rtch/rtch/pkg/tokens/exact"
)

// persist is --persist.
var persist bool

// over counts the replies over their budget and ReplyOverhead, and the
// tool definitions over toolsBudget: with --check, the run fails on any.
var over int

// toolsBudget is what the seven tool definitions may cost, in tokens.
const toolsBudget = 3000

// goals are the questions asked of every tree.
var goals = []string{
	"find where the record stream reader reports malformed lines",
	"command runnable parse flag help output execute error context writer buffer token",
	"where does the http server parse request headers",
	"where does the daemon restart a container after it exits",
}

func main() {
	bin := flag.String("bin", "", "directory of the built binaries (rtch-mcp)")
	root := flag.String("root", "", "the tree")
	index := flag.String("index", "", "the server's --index DIR (default a fresh temporary)")
	extra := flag.String("args", "", "more rtch_context arguments as JSON, e.g. '{\"fanout\":\"wide\"}'")
	flag.BoolVar(&persist, "persist", false, "persist the packets under the root's audit-logs/ and rehydrate one (writes into the tree)")
	check := flag.Bool("check", false, "exit 1 when a reply measures more than its budget and rtch-mcp's ReplyOverhead, or the tool definitions more than 3,000 tokens")
	flag.Parse()
	if *bin == "" || *root == "" {
		fmt.Fprintln(os.Stderr, "usage: replysize --bin DIR --root TREE [--index DIR] [--args JSON]")
		os.Exit(2)
	}
	if err := run(*bin, *root, *index, *extra); err != nil {
		fmt.Fprintln(os.Stderr, "replysize:", err)
		os.Exit(1)
	}
	if over > 0 {
		fmt.Fprintf(os.Stderr, "replysize: %d over their budget (rows marked OVER)\n", over)
		if *check {
			os.Exit(1)
		}
	}
}

func run(bin, root, index, extra string) error {
	if index == "" {
		d, err := os.MkdirTemp("", "replysize-index-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		index = d
	}
	more := map[string]any{}
	if extra != "" {
		if err := json.Unmarshal([]byte(extra), &more); err != nil {
			return fmt.Errorf("--args: %v", err)
		}
	}
	s, err := start(bin, root, index)
	if err != nil {
		return err
	}
	defer s.close()
	list, err := s.cs.ListTools(context.Background(), nil)
	if err != nil {
		return err
	}
	fmt.Printf("tools/list: %s%s\n", s.w.measure(s.w.last()), mark(s.w.last(), toolsBudget))
	for _, t := range list.Tools {
		b, _ := json.Marshal(t)
		fmt.Printf("  %-15s %s\n", t.Name, measure(b))
	}
	fmt.Printf("\n| tool | arguments | whole result | text | structured content |\n|---|---|---:|---:|---:|\n")
	var firstChunk, packetID string
	for _, g := range goals {
		for _, format := range []string{"md", "json"} {
			args := map[string]any{"goal": g, "enough": "the code that does it is hydrated", "format": format, "persist": persist}
			for k, v := range more {
				args[k] = v
			}
			res, err := s.call("rtch_context", args)
			if err != nil {
				return err
			}
			if firstChunk == "" {
				firstChunk = firstRange(res)
			}
			if packetID == "" {
				packetID = idOf(res)
			}
		}
	}
	if firstChunk != "" {
		if _, err := s.call("rtch_reenter", map[string]any{"range": firstChunk}); err != nil {
			return err
		}
		path := firstChunk[:strings.LastIndexByte(firstChunk, ':')]
		if _, err := s.call("rtch_reenter", map[string]any{"range": path + ":L1-L100000"}); err != nil {
			return err
		}
	}
	if packetID != "" {
		if persist {
			if _, err := s.call("rtch_rehydrate", map[string]any{"packet": packetID}); err != nil {
				return err
			}
		}
		if _, err := s.call("rtch_packet", map[string]any{"packet": packetID, "section": "skipped_surfaces"}); err != nil {
			return err
		}
	}
	if _, err := os.Stat(filepath.Join(root, ".guild")); err == nil {
		if _, err := s.call("guild_recall", map[string]any{"query": goals[0], "limit": 50}); err != nil {
			return err
		}
	}
	return nil
}

// server is rtch-mcp on pipes with an SDK client.
type server struct {
	*mcpstdio.Server
	cs *mcp.ClientSession
	w  *wire
}

func start(bin, root, index string) (*server, error) {
	var w *wire
	srv, err := mcpstdio.Start(bin, "replysize", []string{"--root", root, "--index", index}, nil,
		func(r io.Reader) io.Reader { w = newWire(r); return w })
	if err != nil {
		return nil, err
	}
	return &server{Server: srv, cs: srv.CS, w: w}, nil
}

func (s *server) close() { s.Close() }

// call calls a tool and prints a row: the sizes of the result as it
// arrived, of its text and of its structured content.
func (s *server) call(name string, args map[string]any) (*mcp.CallToolResult, error) {
	res, err := s.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		// A tool that does not exist (rtch_packet before it did) is a
		// protocol error: the row says so and the run goes on.
		fmt.Printf("| %s | %s | %v | | |\n", name, shortArgs(args), err)
		return &mcp.CallToolResult{}, nil
	}
	var text strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			text.WriteString(t.Text)
		}
	}
	sc, _ := json.Marshal(res.StructuredContent)
	if res.StructuredContent == nil {
		sc = nil
	}
	status := ""
	if res.IsError {
		status = " (error)"
	}
	fmt.Printf("| %s%s | %s | %s%s | %s | %s |\n", name, status, shortArgs(args), s.w.measure(s.w.last()), mark(s.w.last(), budgetOf(name, args)+rtchmcp.ReplyOverhead),
		measure([]byte(text.String())), measure(sc))
	return res, nil
}

// budgetOf is a call's reply budget as rtch-mcp states it: rtch_context's
// budget_tokens, else its fanout's; ReplyBudget for every other tool.
func budgetOf(tool string, args map[string]any) int {
	if tool != "rtch_context" {
		return rtchmcp.ReplyBudget
	}
	if n, ok := args["budget_tokens"].(float64); ok && n > 0 {
		return int(n)
	}
	fanout, _ := args["fanout"].(string)
	if fanout == "" {
		fanout = "normal"
	}
	return config.DefaultBudgets[fanout]
}

// mark is " OVER n" when b measures more than limit tokens, counted in
// over.
func mark(b []byte, limit int) string {
	if n := tokens.Estimate(string(b)); n > limit {
		over++
		return fmt.Sprintf(" OVER %d", limit)
	}
	return ""
}

func shortArgs(args map[string]any) string {
	var parts []string
	for _, k := range []string{"goal", "format", "range", "packet", "section", "query", "fanout", "budget_tokens"} {
		if v, ok := args[k]; ok {
			s := fmt.Sprint(v)
			if len(s) > 40 {
				s = s[:37] + "…"
			}
			parts = append(parts, k+"="+s)
		}
	}
	return strings.Join(parts, " ")
}

var o200k = func() tokens.Counter {
	c, err := exact.Get("o200k")
	if err != nil {
		panic(err)
	}
	return c
}()

// measure is "N KB, T tokens (O o200k)".
func measure(b []byte) string {
	if b == nil {
		return "none"
	}
	return fmt.Sprintf("%.1f KB, %d tokens (%d o200k)", float64(len(b))/1000, tokens.Estimate(string(b)), o200k.Of(string(b)))
}

// firstRange is the first chunk's PATH:Ls-Le in a brief or a summary.
func firstRange(res *mcp.CallToolResult) string {
	b, _ := json.Marshal(res.StructuredContent)
	var p struct {
		Chunks []struct {
			Path      string `json:"path"`
			LineRange string `json:"line_range"`
		} `json:"hydrated_chunks"`
		Summary []struct {
			Ref string `json:"ref"`
		} `json:"chunks"`
	}
	json.Unmarshal(b, &p)
	switch {
	case len(p.Chunks) > 0:
		return p.Chunks[0].Path + ":" + p.Chunks[0].LineRange
	case len(p.Summary) > 0:
		return p.Summary[0].Ref
	}
	return ""
}

func idOf(res *mcp.CallToolResult) string {
	b, _ := json.Marshal(res.StructuredContent)
	var p struct {
		ID string `json:"packet_id"`
	}
	json.Unmarshal(b, &p)
	return p.ID
}

// wire hands the server's stdout to the client and keeps the result
// member of the last reply as it arrived.
type wire struct {
	r      io.Reader
	mu     sync.Mutex
	result []byte
	pw     *io.PipeWriter
}

func newWire(stdout io.Reader) *wire {
	pr, pw := io.Pipe()
	w := &wire{r: pr, pw: pw}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 256<<20)
		for sc.Scan() {
			line := sc.Bytes()
			var m struct {
				Result json.RawMessage `json:"result"`
			}
			if json.Unmarshal(line, &m) == nil && m.Result != nil {
				w.mu.Lock()
				w.result = append([]byte(nil), m.Result...)
				w.mu.Unlock()
			}
			pw.Write(append(append([]byte(nil), line...), '\n'))
		}
		pw.CloseWithError(sc.Err())
	}()
	return w
}

func (w *wire) Read(p []byte) (int, error) { return w.r.Read(p) }
func (w *wire) Close() error               { return nil }

func (w *wire) last() []byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.result
}

func (w *wire) measure(b []byte) string { return measure(b) }
