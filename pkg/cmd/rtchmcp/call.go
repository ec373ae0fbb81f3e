package rtchmcp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rtch/rtch/pkg/cli"
	"github.com/rtch/rtch/pkg/pipeline"
)

// call is one tool call: its context and its progress relay.
type call struct {
	ctx      context.Context
	h        *handler
	progress func(string)
	// resident is what the call's stages reuse (handler.residentNow).
	resident *cli.Resident
}

func (h *handler) call(ctx context.Context, req *mcp.CallToolRequest) *call {
	return &call{ctx: ctx, h: h, progress: progress(ctx, req), resident: h.residentNow()}
}

// exec runs a chain of stages in the root, relaying their progress to the
// client, and returns the last stage's output.
func (c *call) exec(stdin io.Reader, stages ...pipeline.Stage) ([]byte, pipeline.Result, error) {
	return c.execPart(0, 0, stdin, stages...)
}

// execPart is exec for a chain that is part of a longer one, numbered as
// stages first+1… of of (pipeline.Options).
func (c *call) execPart(first, of int, stdin io.Reader, stages ...pipeline.Stage) ([]byte, pipeline.Result, error) {
	var out bytes.Buffer
	o := pipeline.Options{Dir: c.h.root.Dir, Getenv: c.h.getenv, Progress: c.progress, Resident: c.resident, First: first, Of: of}
	res, err := pipeline.Run(c.ctx, o, stages, stdin, &out)
	return out.Bytes(), res, err
}

// stageBinary is a stage's binary in a progress line: the client hears
// the stage's name ("scout: done (stage 3/6)"), and the server's own lines
// without its name.
var stageBinary = regexp.MustCompile(`\brtch-(intake|zone|scout|probe|hydrate|packet)\b`)

// progressInterval spaces the notifications of one call: a walk reports every
// file, a client needs a few lines a second.
const progressInterval = 250 * time.Millisecond

// progress turns the stages' progress lines into notifications/progress for
// a call whose client sent a progress token; nil otherwise. The line of a
// finished stage ("rtch-scout: done (stage 3/5)") always goes out; the walk's
// lines at most every progressInterval. Progress counts up across the call;
// each line names the stage, not its binary.
func progress(ctx context.Context, req *mcp.CallToolRequest) func(string) {
	if req == nil || req.Session == nil || req.Params == nil {
		return nil
	}
	tok := req.Params.GetProgressToken()
	if tok == nil {
		return nil
	}
	var (
		mu   sync.Mutex
		n    float64
		last time.Time
	)
	return func(msg string) {
		mu.Lock()
		defer mu.Unlock()
		if !strings.HasSuffix(msg, pipeline.StageDone) && time.Since(last) < progressInterval {
			return
		}
		last = time.Now()
		n++
		msg = stageBinary.ReplaceAllString(strings.TrimPrefix(msg, "rtch-mcp: "), "$1")
		req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: n, Message: msg})
	}
}

// text is a result's text content.
func text(parts ...string) []mcp.Content {
	var out []mcp.Content
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			out = append(out, &mcp.TextContent{Text: p})
		}
	}
	return out
}

// records splits NDJSON output into its lines as raw JSON values, for
// structured content that keeps each record's bytes.
func records(out []byte) []json.RawMessage {
	var rs []json.RawMessage
	for _, l := range bytes.Split(out, []byte("\n")) {
		if len(bytes.TrimSpace(l)) > 0 {
			rs = append(rs, json.RawMessage(l))
		}
	}
	return rs
}

// firstValue returns the first JSON value of out (a packet printed before its
// handoff), as printed: encoding/json compacts a RawMessage when the reply
// is marshalled.
func firstValue(out []byte) (json.RawMessage, error) {
	// An indented document (rtch-packet --format json) opens with "{" alone
	// on its line and closes with the first "}" alone on one: a newline never
	// occurs inside a JSON string. The reply's marshalling checks it.
	if bytes.HasPrefix(out, []byte("{\n")) {
		if i := bytes.Index(out, []byte("\n}\n")); i >= 0 {
			return out[:i+2], nil
		}
	}
	var raw json.RawMessage
	if err := json.NewDecoder(bytes.NewReader(out)).Decode(&raw); err != nil {
		return nil, err
	}
	return raw, nil
}
