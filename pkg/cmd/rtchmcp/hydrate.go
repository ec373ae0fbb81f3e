package rtchmcp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rtch/rtch/pkg/cmd/rtchhydrate"
	"github.com/rtch/rtch/pkg/hydrate"
	"github.com/rtch/rtch/pkg/packet"
	"github.com/rtch/rtch/pkg/pipeline"
	"github.com/rtch/rtch/pkg/schema"
)

// ReenterInput is rtch_reenter's arguments.
type ReenterInput struct {
	Range  string `json:"range" jsonschema:"The lines to read, as path:Lstart-Lend relative to the root (a chunk's re-entry, e.g. pkg/record/reader.go:L40-L96), or path:line for the window around one line."`
	Window int    `json:"window,omitempty" jsonschema:"Half-width in lines of the window read for path:line (default 20)."`
}

// RehydrateInput is rtch_rehydrate's arguments.
type RehydrateInput struct {
	Packet string `json:"packet" jsonschema:"A persisted packet: its packet_id (rtch_packet_…, saved by rtch_context with persist) or the path of its YAML or JSON file under the root."`
}

const reenterDescription = `Read a range of a file again, exactly: the re-entry of a chunk rtch_context returned (path:Lstart-Lend), a wider range of the same file, or path:line for the window around a line. Returns the lines as the chunk text (secrets redacted, injection-flagged) with the sha256 of the original bytes and of the whole file and the commit, so you can tell whether the file changed since the packet. Prefer this to reading a whole file.`

const rehydrateDescription = `Check a persisted evidence packet against the tree as it is now, before acting on it. Each chunk is re-read and gets a verdict: refreshed (unchanged), drift_detected (the lines changed), superseded (the file moved on and the range no longer fits), failed_rehydration (gone or unreadable) or effective_record_hold; overall is the worst. Re-run rtch_context when it is not refreshed.`

func addHydrateTools(s *mcp.Server, h *handler) {
	mcp.AddTool(s, &mcp.Tool{
		Name: "rtch_reenter", Title: "Read a chunk's range again", Description: reenterDescription,
		OutputSchema: outputSchema[schema.Chunk](),
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)},
	}, h.reenter)
	mcp.AddTool(s, &mcp.Tool{
		Name: "rtch_rehydrate", Title: "Check a persisted packet for drift", Description: rehydrateDescription,
		OutputSchema: outputSchema[schema.Rehydrate](),
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)},
	}, h.rehydrate)
}

func (h *handler) reenter(ctx context.Context, req *mcp.CallToolRequest, in ReenterInput) (*mcp.CallToolResult, any, error) {
	c := h.call(ctx, req)
	r, err := hydrate.ParseRange(in.Range)
	if err != nil {
		return nil, nil, fmt.Errorf("range %v", err)
	}
	rel, _, err := h.root.Confine("range", r.Path)
	if err != nil {
		return nil, nil, err
	}
	spec := in.Range[strings.LastIndexByte(in.Range, ':')+1:]
	args := []string{"--reenter=" + rel + ":" + spec}
	if in.Window > 0 {
		args = append(args, "--window="+strconv.Itoa(in.Window))
	}
	out, res, err := c.exec(nil, pipeline.Stage{Tool: rtchhydrate.Tool(), Args: args})
	if err != nil {
		return nil, nil, err
	}
	recs := records(out)
	if len(recs) != 1 {
		return nil, nil, fmt.Errorf("rtch-hydrate --reenter printed %d records, want one rtch.chunk", len(recs))
	}
	var ch schema.Chunk
	if err := json.Unmarshal(recs[0], &ch); err != nil {
		return nil, nil, err
	}
	head := fmt.Sprintf("%s %s · sha256 %s · file_sha256 %s · commit %s", ch.Path, ch.LineRange, ch.SHA256, ch.FileSHA256, orNone(ch.Commit))
	if len(ch.Flags) > 0 {
		head += " · flags " + strings.Join(ch.Flags, ", ")
	}
	return &mcp.CallToolResult{Content: text(head+"\n\n"+ch.Text, res.Diagnostics), StructuredContent: recs[0]}, nil, nil
}

var packetIDRE = regexp.MustCompile(`^rtch_packet_[0-9a-f]+$`)

func (h *handler) rehydrate(ctx context.Context, req *mcp.CallToolRequest, in RehydrateInput) (*mcp.CallToolResult, any, error) {
	c := h.call(ctx, req)
	p := in.Packet
	if packetIDRE.MatchString(p) {
		_, p = packet.PersistPath("", p)
		p = filepath.FromSlash(p)
	}
	_, abs, err := h.root.Confine("packet", p)
	if err != nil {
		return nil, nil, err
	}
	out, res, err := c.exec(nil, pipeline.Stage{Tool: rtchhydrate.Tool(), Args: []string{"--rehydrate=" + abs}})
	if err != nil {
		return nil, nil, err
	}
	recs := records(out)
	if len(recs) != 1 {
		return nil, nil, fmt.Errorf("rtch-hydrate --rehydrate printed %d records, want one rtch.rehydrate", len(recs))
	}
	return &mcp.CallToolResult{Content: text(string(recs[0]), res.Diagnostics), StructuredContent: recs[0]}, nil, nil
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
