package rtchmcp

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rtch/rtch/pkg/brief"
	"github.com/rtch/rtch/pkg/cmd/rtchhydrate"
	"github.com/rtch/rtch/pkg/hydrate"
	"github.com/rtch/rtch/pkg/packet"
	"github.com/rtch/rtch/pkg/pipeline"
	"github.com/rtch/rtch/pkg/schema"
)

// ReenterInput is rtch_reenter's arguments.
type ReenterInput struct {
	Range  string `json:"range" jsonschema:"PATH:Ls-Le (a chunk's heading, or wider) or PATH:N for the window around line N, relative to the root."`
	Window int    `json:"window,omitempty" jsonschema:"Half-width of the window of PATH:N (default 20)."`
}

// RehydrateInput is rtch_rehydrate's arguments.
type RehydrateInput struct {
	Packet string `json:"packet" jsonschema:"A packet_id saved with persist=true, or a packet file under the root."`
}

const reenterDescription = `Read lines of a file again: a chunk's range, a wider one, or the window around a line. Returns the lines with the sha256 of the range and of the file, so you can tell whether it changed. Prefer it to reading a whole file.`

const rehydrateDescription = `Before acting on a packet saved with persist=true, check its chunks against the tree as it is now: refreshed, or which chunks drifted, moved or are gone.`

// Reentered is rtch_reenter's structured content: the range read and its
// hashes; the lines are the text content.
type Reentered struct {
	// Path and LineRange are the range read ("L40-L96").
	Path      string `json:"path"`
	LineRange string `json:"line_range"`
	// SHA256 is over the range's bytes, FileSHA256 over the whole file.
	SHA256     string `json:"sha256"`
	FileSHA256 string `json:"file_sha256"`
	// Commit is HEAD when the range was read ("" outside git).
	Commit string `json:"commit"`
	// Flags are injection findings and redactions.
	Flags []string `json:"flags"`
	// Next reads the rest of the asked range when the reply's budget cut
	// it ("" when it did not).
	Next string `json:"next,omitempty"`
}

func addHydrateTools(s *mcp.Server, h *handler) {
	mcp.AddTool(s, &mcp.Tool{
		Name: "rtch_reenter", Title: "Read a chunk's range again", Description: reenterDescription,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)},
	}, speaking("rtch_reenter", h.reenter))
	mcp.AddTool(s, &mcp.Tool{
		Name: "rtch_rehydrate", Title: "Check a persisted packet for drift", Description: rehydrateDescription,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)},
	}, speaking("rtch_rehydrate", h.rehydrate))
}

// reenter reads the range; one longer than a re-entry reads
// (hydrate.MaxReentryLines) or than the reply's budget holds is read cut
// to the lines that fit, and the reply names the call for the rest.
func (h *handler) reenter(ctx context.Context, req *mcp.CallToolRequest, in ReenterInput) (*mcp.CallToolResult, any, error) {
	c := h.call(ctx, req)
	r, err := hydrate.ParseRange(in.Range)
	if err != nil {
		return nil, nil, fmt.Errorf("range %v", err)
	}
	rel, _, err := h.root.Confine(ctx, "range", r.Path)
	if err != nil {
		return nil, nil, err
	}
	spec, asked := in.Range[strings.LastIndexByte(in.Range, ':')+1:], 0
	if !r.IsWindow() && r.End-r.Start+1 > hydrate.MaxReentryLines {
		spec, asked = fmt.Sprintf("L%d-L%d", r.Start, r.Start+hydrate.MaxReentryLines-1), r.End
	}
	ch, diag, err := h.readRange(c, rel+":"+spec, in.Window)
	if err != nil {
		return nil, nil, argError("range", in.Range, err)
	}
	last := min(max(asked, ch.EndLine), linesOf(ch))
	rest := func(end int) string {
		if end >= last {
			return ""
		}
		return fmt.Sprintf("%s:L%d-L%d", ch.Path, end+1, last)
	}
	if res := reentered(ch, rest(ch.EndLine), diag); fits(res, ReplyBudget) {
		return res, nil, nil
	}
	n := sort.Search(ch.EndLine-ch.StartLine+1, func(n int) bool {
		part := ch
		part.Text = firstLines(ch.Text, n+1)
		return !fits(reentered(part, rest(ch.StartLine+n), diag), ReplyBudget)
	})
	end := ch.StartLine + max(n, 1) - 1
	cut, diag, err := h.readRange(c, fmt.Sprintf("%s:L%d-L%d", rel, ch.StartLine, end), 0)
	if err != nil {
		return nil, nil, argError("range", in.Range, err)
	}
	return reentered(cut, rest(end), diag), nil, nil
}

var linesOfRE = regexp.MustCompile(` of (\d+)\b`)

// linesOf is the file's line count as a re-entry's limitation states it
// (its end line when it does not).
func linesOf(ch schema.Chunk) int {
	if m := linesOfRE.FindStringSubmatch(ch.Limitation); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return ch.EndLine
}

// readRange runs rtch-hydrate --reenter for arg and returns its chunk.
func (h *handler) readRange(c *call, arg string, window int) (schema.Chunk, string, error) {
	args := []string{"--reenter=" + arg}
	if window > 0 {
		args = append(args, "--window="+strconv.Itoa(window))
	}
	out, res, err := c.exec(nil, pipeline.Stage{Tool: rtchhydrate.Tool(), Args: args})
	if err != nil {
		return schema.Chunk{}, "", err
	}
	recs := records(out)
	if len(recs) != 1 {
		return schema.Chunk{}, "", fmt.Errorf("the re-entry printed %d records, want one rtch.chunk", len(recs))
	}
	var ch schema.Chunk
	if err := json.Unmarshal(recs[0], &ch); err != nil {
		return schema.Chunk{}, "", err
	}
	return ch, res.Diagnostics, nil
}

// reentered is the reply for a chunk read again: a header line and the
// text, and the range by reference; rest is the range a cut left unread.
func reentered(ch schema.Chunk, rest, diag string) *mcp.CallToolResult {
	head := fmt.Sprintf("%s %s · sha256 %s · file_sha256 %s · commit %s", ch.Path, ch.LineRange, ch.SHA256, ch.FileSHA256, orNone(ch.Commit))
	if len(ch.Flags) > 0 {
		head += " · flags " + strings.Join(ch.Flags, ", ")
	}
	out := Reentered{Path: ch.Path, LineRange: ch.LineRange, SHA256: ch.SHA256, FileSHA256: ch.FileSHA256, Commit: ch.Commit, Flags: ch.Flags}
	if out.Flags == nil {
		out.Flags = []string{}
	}
	if rest != "" {
		out.Next = brief.MCPReEnter(rest)
		head += " · cut to the reply's budget; the rest: " + out.Next
	}
	return &mcp.CallToolResult{Content: text(head+"\n\n"+ch.Text, diagnostics("rtch_reenter", diag)), StructuredContent: out}
}

// firstLines is the first n lines of text.
func firstLines(text string, n int) string {
	i := 0
	for ; n > 0 && i < len(text); n-- {
		j := strings.IndexByte(text[i:], '\n')
		if j < 0 {
			return text
		}
		i += j + 1
	}
	return text[:i]
}

var packetIDRE = regexp.MustCompile(`^rtch_packet_[0-9a-f]+$`)

// Rehydrated is rtch_rehydrate's structured content: the verdict, and the
// chunks that no longer hold by reference.
type Rehydrated struct {
	// PacketID is the packet checked.
	PacketID string `json:"packet_id"`
	// Overall is the worst chunk status.
	Overall string `json:"overall"`
	// Counts maps each status to its number of chunks.
	Counts map[string]int `json:"counts"`
	// Changed are the chunks not refreshed, worst first, as many as the
	// reply's budget holds of ChangedTotal.
	Changed      []RehydratedRef `json:"changed"`
	ChangedTotal int             `json:"changed_total"`
}

// RehydratedRef is one chunk that no longer holds.
type RehydratedRef struct {
	// Ref is PATH:Ls-Le as the packet recorded it.
	Ref string `json:"ref"`
	// Status is its verdict.
	Status string `json:"status"`
	// Now is where its content is now, when it was found ("" otherwise).
	Now string `json:"now,omitempty"`
	// Detail explains the verdict.
	Detail string `json:"detail"`
}

func (h *handler) rehydrate(ctx context.Context, req *mcp.CallToolRequest, in RehydrateInput) (*mcp.CallToolResult, any, error) {
	c := h.call(ctx, req)
	p := in.Packet
	byID := packetIDRE.MatchString(p)
	if byID {
		_, p = packet.PersistPath("", p)
		p = filepath.FromSlash(p)
	}
	_, abs, err := h.root.Confine(ctx, "packet", p)
	if err != nil {
		return nil, nil, err
	}
	if _, err := os.Stat(abs); err != nil && byID {
		return nil, nil, h.notPersisted(in.Packet, p)
	}
	out, res, err := c.exec(nil, pipeline.Stage{Tool: rtchhydrate.Tool(), Args: []string{"--rehydrate=" + abs}})
	if err != nil {
		return nil, nil, argError("packet", in.Packet, err)
	}
	recs := records(out)
	if len(recs) != 1 {
		return nil, nil, fmt.Errorf("the rehydration printed %d records, want one rtch.rehydrate", len(recs))
	}
	var rh schema.Rehydrate
	if err := json.Unmarshal(recs[0], &rh); err != nil {
		return nil, nil, err
	}
	return rehydrated(rh, res.Diagnostics), nil, nil
}

// notPersisted is the error of a packet id with no file under the root.
func (h *handler) notPersisted(id, rel string) error {
	if _, kept := h.packets.get(id); kept {
		return fmt.Errorf("packet %q: made by this server but not persisted (%s does not exist); call rtch_context again with persist=true, then rtch_rehydrate", id, filepath.ToSlash(rel))
	}
	return fmt.Errorf("packet %q: unknown: %s does not exist; rtch_rehydrate checks a packet saved by rtch_context persist=true", id, filepath.ToSlash(rel))
}

// rehydrated is the reply for a rehydration: the verdict and counts, then
// one line per chunk that changed, worst first, as many as fit.
func rehydrated(rh schema.Rehydrate, diag string) *mcp.CallToolResult {
	var changed []RehydratedRef
	for _, c := range rh.Chunks {
		if c.Status != hydrate.Refreshed {
			r := RehydratedRef{Ref: c.Path + ":" + c.LineRange, Status: c.Status, Detail: c.Detail}
			if c.NewLineRange != "" {
				r.Now = c.Path + ":" + c.NewLineRange
			}
			changed = append(changed, r)
		}
	}
	sort.SliceStable(changed, func(i, j int) bool { return hydrate.Worse(changed[i].Status, changed[j].Status) })
	head := fmt.Sprintf("packet %s: %s ·", rh.PacketID, rh.Overall)
	for _, k := range slices.Sorted(maps.Keys(rh.Counts)) {
		head += fmt.Sprintf(" %s %d", k, rh.Counts[k])
	}
	if len(changed) > 0 {
		head += " · rtch_reenter range=… reads a changed chunk as it is now"
	}
	return fitItems(len(changed), func(n int) *mcp.CallToolResult {
		var b strings.Builder
		for _, r := range changed[:n] {
			fmt.Fprintf(&b, "%s %s", r.Ref, r.Status)
			if r.Now != "" {
				fmt.Fprintf(&b, " (now %s)", r.Now)
			}
			fmt.Fprintf(&b, ": %s\n", r.Detail)
		}
		if n < len(changed) {
			fmt.Fprintf(&b, "(%d more changed chunks left out to fit the reply's budget)\n", len(changed)-n)
		}
		sc := Rehydrated{PacketID: rh.PacketID, Overall: rh.Overall, Counts: rh.Counts, Changed: append([]RehydratedRef{}, changed[:n]...), ChangedTotal: len(changed)}
		return &mcp.CallToolResult{Content: text(head+"\n"+b.String(), diagnostics("rtch_rehydrate", diag)), StructuredContent: sc}
	})
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
