// Package rtchmcp is the rtch-mcp command: the toolkit as a Model Context
// Protocol server for agent harnesses. It serves one root over stdio (or
// streamable HTTP on loopback with --http) and exposes seven tools, each a
// thin adapter that runs the same cli.Tool the binaries run, in process,
// through pkg/pipeline, with every reply fitted to its budget (reply.go) and
// said in the server's terms (speak.go):
//
//	rtch_context    intake → zone → scout → probe → hydrate → packet (context.go)
//	rtch_packet     the whole packet of a recent call, paged           (pages.go)
//	rtch_reenter    rtch-hydrate --reenter                            (hydrate.go)
//	rtch_rehydrate  rtch-hydrate --rehydrate                          (hydrate.go)
//	guild_recall    guild-recall                                      (guild.go)
//	guild_bundle    guild-bundle                                      (guild.go)
//	guild_lint      guild-lint                                        (guild.go)
//
// A path argument is confined to the root (confine.go); a domain failure is a
// tool result with isError and the stage's message in the tool's terms; a
// cancelled request
// cancels the stages; progress lines of the stages become progress
// notifications when the client sent a progress token.
package rtchmcp

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rtch/rtch/pkg/cli"
	"github.com/rtch/rtch/pkg/snapshot"
	"github.com/rtch/rtch/pkg/zone"
)

type options struct {
	root        string
	httpAddr    string
	allowRemote bool
	origins     originList
	maxMessage  int
	eofWait     time.Duration
	hot         Hot
}

// Tool returns the rtch-mcp tool.
func Tool() *cli.Tool {
	o := &options{}
	return &cli.Tool{
		Name:    "rtch-mcp",
		Summary: "serve the toolkit to agent harnesses over the Model Context Protocol",
		Usage:   "rtch-mcp [--root DIR] [--http 127.0.0.1:PORT [--allow-remote]] [flags]",
		Description: `Speaks MCP on standard input and output (one JSON-RPC message per line), or
with --http ADDR the streamable HTTP transport at http://ADDR/mcp. A malformed
message, or one longer than --max-message, gets a JSON-RPC error naming its
line and the session goes on; at the end of input the calls still running are
answered (cancelled after --eof-wait) and the server exits. --http binds
loopback addresses only (127.0.0.1, ::1, localhost) unless --allow-remote says
otherwise: the tools read the whole root. A request whose Host is not
loopback, or whose Origin names a web origin that is not loopback (nor one
given with --allow-origin), gets 403: a page in the user's browser could
otherwise call the tools.

It serves one root (--root, default the working directory) with seven tools:
rtch_context (the whole lane: goal and enough in, the brief as text and the
packet's summary as structured content), rtch_packet (the whole packet,
paged), rtch_reenter (one range again, with its sha256), rtch_rehydrate (a
persisted packet's chunks checked for drift), guild_recall, guild_bundle and
guild_lint. Each runs the same code as the binary of that name, in process.
Every reply, text and structured content together, is within its token
budget plus 1,000 (rtch_context's budget_tokens or fanout budget, 8,000 for
the others), and names the server's tools and arguments, never a command.
Every path argument is confined to the root: a path outside it, or one whose
symbolic links lead out of it, is a tool error naming the path. There is no
-o and no --jq: standard output is the protocol. Registration for Claude
Code, Cursor and VS Code: docs/rtch-mcp.md.`,
		Example: `claude mcp add rtch -- rtch-mcp --root /path/to/repo
rtch-mcp --root . --http 127.0.0.1:8765`,
		Stdin:    cli.NoStdin,
		Protocol: true,
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&o.root, "root", ".", "serve the directory `DIR`; every path argument is confined to it")
			fs.StringVar(&o.httpAddr, "http", "", "serve streamable HTTP on `ADDR` (host:port, loopback unless --allow-remote) instead of stdio")
			fs.BoolVar(&o.allowRemote, "allow-remote", false, "let --http bind an address other than loopback")
			fs.Var(&o.origins, "allow-origin", "with --http, also accept requests from the web origin `URL` (scheme://host[:port]; repeatable); other origins than loopback get 403")
			fs.IntVar(&o.maxMessage, "max-message", defaultMaxMessage, "refuse a message (a line on stdin, an HTTP body) longer than `BYTES` with a JSON-RPC error")
			fs.DurationVar(&o.eofWait, "eof-wait", time.Minute, "at the end of input, wait up to `DURATION` for the calls still running, then cancel them")
			o.hot.Register(fs)
		},
		Run: func(ctx context.Context, env *cli.Env) error { return run(ctx, env, o) },
	}
}

// Main runs rtch-mcp with the process's arguments.
func Main() int { return cli.Main(Tool()) }

func run(ctx context.Context, env *cli.Env, o *options) error {
	if len(env.Args) > 0 {
		return cli.UsageHint("name the served directory with --root DIR", "unexpected argument %q", env.Args[0])
	}
	if o.maxMessage < 1 {
		return cli.Usage("--max-message %d: not a positive number of bytes", o.maxMessage)
	}
	root, err := NewRoot(env.Path(o.root))
	if err != nil {
		return cli.Usage("--root %s: %v", o.root, err)
	}
	if pct, ok := serverGC(env.Getenv); ok {
		debug.SetGCPercent(pct)
	}
	keepMemoryLimit(env.Getenv)
	o.hot.Getenv = env.Getenv
	o.hot.Warn = func(s string) { env.Warnf("%s", s) }
	srv, stop, err := NewServer(ctx, root, o.hot)
	if err != nil {
		return cli.Failed(err)
	}
	defer stop()
	if o.httpAddr != "" {
		return serveHTTP(ctx, env, srv, o)
	}
	if isTerminal(env.Stdin) {
		env.Hintf("rtch-mcp speaks MCP (JSON-RPC) on stdin and stdout; register it with an MCP client, see docs/rtch-mcp.md")
	}
	err = serveStdio(ctx, srv, env.Stdin, env.Stdout, stdioOptions{maxMessage: o.maxMessage, eofWait: o.eofWait,
		warn: func(s string) { env.Warnf("%s", s) }})
	if err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) && !errors.Is(err, mcp.ErrConnectionClosed) {
		return cli.Failed(err)
	}
	return ctx.Err()
}

// serverGCPercent is the collector's target for a server: a long-lived
// process whose calls allocate much and keep little, so that a heap of
// three times the live one costs less than collecting twice as often
// (docs/decisions/rtch-mcp.md, measured there).
const serverGCPercent = 200

// serverGC is the GC percent the server sets, unless the environment's
// GOGC already decides (ok false).
func serverGC(getenv func(string) string) (pct int, ok bool) {
	if getenv("GOGC") != "" {
		return 0, false
	}
	return serverGCPercent, true
}

// NewServer builds the MCP server for root with what it keeps between
// calls (hot.go); stop releases that (the watcher, the open indexes).
func NewServer(ctx context.Context, root Root, hot Hot) (srv *mcp.Server, stop func(), err error) {
	if hot.Getenv == nil {
		hot.Getenv = os.Getenv
	}
	h, err := newHandler(ctx, root, hot.Getenv)
	if err != nil {
		return nil, nil, err
	}
	if err := h.keep(hot); err != nil {
		return nil, nil, err
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "rtch-mcp", Title: "rtch", Version: cli.ReadBuildInfo().Version},
		&mcp.ServerOptions{Instructions: instructions})
	addContextTools(s, h)
	addPacketTool(s, h)
	addHydrateTools(s, h)
	addGuildTools(s, h)
	return s, h.release, nil
}

const instructions = `rtch finds the few places in this repository that matter for a task and returns bounded, re-enterable evidence. Call rtch_context first, before reading files: state the goal and what "enough" evidence is. Read the brief; for more of a file call rtch_reenter with a chunk's range instead of reading the whole file; rtch_packet pages the whole packet. Before acting on an older packet, call rtch_rehydrate. guild_recall, guild_bundle and guild_lint serve a Guild project's wiki, context bundles and bundle lint.`

// handler holds what every tool call shares.
type handler struct {
	root Root
	// getenv is the stages' environment: the server's, with RTCH_ZONE_ROOT
	// pinned to the root when the zone rule would otherwise climb out of it.
	getenv func(string) string
	// resident is what the stages reuse between calls; nil walks and opens
	// the index on every call, as the binaries do.
	resident *cli.Resident
	tree     *snapshot.Tree
	// memo answers a repeat rtch_context on an unchanged tree (memo.go);
	// nil with --no-memo or --no-watch.
	memo *memo
	// packets are the whole packets of the recent rtch_context calls, for
	// rtch_packet (pages.go).
	packets packetStore
	// indexer builds the tree index in the background (indexer.go); nil
	// with --no-index.
	indexer *indexer
}

func newHandler(ctx context.Context, root Root, getenv func(string) string) (*handler, error) {
	noZoneEnv := func(k string) string {
		if k == zone.EnvRoot {
			return ""
		}
		return getenv(k)
	}
	zr, err := zone.ResolveRoot(ctx, root.Dir, noZoneEnv)
	if err != nil {
		return nil, fmt.Errorf("zone root of %s: %v", root.Dir, err)
	}
	h := &handler{root: root, getenv: noZoneEnv}
	if zr.Dir != root.Dir {
		// A .ticzone or the git top level above the root would take the lane
		// out of what the server serves: the root is the zone.
		h.getenv = func(k string) string {
			if k == zone.EnvRoot {
				return root.Dir
			}
			return getenv(k)
		}
	}
	return h, nil
}

// serveHTTP serves the streamable HTTP transport until ctx ends.
func serveHTTP(ctx context.Context, env *cli.Env, srv *mcp.Server, o *options) error {
	host, _, err := net.SplitHostPort(o.httpAddr)
	if err != nil {
		return cli.Usage("--http %s: %v", o.httpAddr, err)
	}
	if !o.allowRemote && !isLoopback(host) {
		return cli.UsageHint("use --http 127.0.0.1:PORT, or add --allow-remote to expose the root's contents to the network",
			"--http %s: not a loopback address", o.httpAddr)
	}
	ln, err := net.Listen("tcp", o.httpAddr)
	if err != nil {
		return cli.Usage("--http %s: %v", o.httpAddr, err)
	}
	mux := http.NewServeMux()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{MaxRequestBodyBytes: int64(o.maxMessage)})
	mux.Handle("/mcp", guardBodies(o.maxMessage, h))
	hs := &http.Server{Handler: checkOrigin(o.origins, mux), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(env.Stderr, "rtch-mcp: serving http://%s/mcp\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return cli.Failed(err)
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(sctx)
		return ctx.Err()
	}
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
