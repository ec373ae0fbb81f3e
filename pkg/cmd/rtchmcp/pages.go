package rtchmcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rtch/rtch/pkg/internal/bounded"
	"github.com/rtch/rtch/pkg/packet"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/tokens"
)

// keptPackets is how many whole packets the server keeps for rtch_packet,
// the latest of each id: an agent pages through the packet of a call it
// just made.
const keptPackets = 16

// packetStore keeps the whole packets of the server's recent rtch_context
// calls.
type packetStore struct {
	mu sync.Mutex
	m  bounded.Map[string, *schema.Packet]
}

func (s *packetStore) keep(p *schema.Packet) {
	if p == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m.Limit = keptPackets
	s.m.Put(p.PacketID, p)
}

func (s *packetStore) get(id string) (*schema.Packet, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m.Get(id)
}

// PacketInput is rtch_packet's arguments.
type PacketInput struct {
	Packet  string `json:"packet" jsonschema:"packet_id from rtch_context."`
	Section string `json:"section,omitempty" jsonschema:"A part of the packet, a dotted path such as candidate_basket.terms."`
	Offset  int    `json:"offset,omitempty" jsonschema:"The first item of a list."`
}

const packetDescription = `Page through the whole packet behind an rtch_context reply: without section its outline, long lists replaced by their length; with section (e.g. skipped_surfaces) that part, a list one item per line from offset.`

func addPacketTool(s *mcp.Server, h *handler) {
	mcp.AddTool(s, &mcp.Tool{
		Name: "rtch_packet", Title: "Page through a whole packet", Description: packetDescription,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, speaking("rtch_packet", h.packet))
}

func (h *handler) packet(ctx context.Context, req *mcp.CallToolRequest, in PacketInput) (*mcp.CallToolResult, any, error) {
	p, err := h.findPacket(in.Packet)
	if err != nil {
		return nil, nil, err
	}
	raw, err := json.Marshal(p)
	if err != nil {
		return nil, nil, err
	}
	var root any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&root); err != nil {
		return nil, nil, err
	}
	pg := pager{id: p.PacketID}
	v, err := pg.section(root, in.Section)
	if err != nil {
		return nil, nil, err
	}
	if list, ok := v.([]any); ok {
		return pg.list(in.Section, list, in.Offset), nil, nil
	}
	if in.Offset != 0 {
		return nil, nil, fmt.Errorf("offset %d: section %q is not a list", in.Offset, in.Section)
	}
	return pg.outline(in.Section, v), nil, nil
}

// findPacket is the packet of id: kept from a call of this server, else
// persisted under the root (rtch_context persist=true).
func (h *handler) findPacket(id string) (*schema.Packet, error) {
	if !packetIDRE.MatchString(id) {
		return nil, fmt.Errorf("packet %q: not a packet id (rtch_packet_ and 12 hex digits, as rtch_context's packet_id)", id)
	}
	if p, ok := h.packets.get(id); ok {
		return p, nil
	}
	abs, rel := packet.PersistPath(h.root.Dir, id)
	if _, err := os.Stat(abs); err != nil {
		return nil, unknownPacket(id, rel)
	}
	return packet.Load(abs)
}

// unknownPacket is the error of a packet id the server has neither kept
// nor found persisted.
func unknownPacket(id, rel string) error {
	return fmt.Errorf("packet %q: unknown: no rtch_context call of this server made it (it keeps the last %d) and %s does not exist; call rtch_context again (persist=true keeps the packet across restarts)", id, keptPackets, rel)
}

// pager renders parts of one packet within ReplyBudget.
type pager struct{ id string }

// section is the value at a dotted path of the packet.
func (pg pager) section(root any, path string) (any, error) {
	v := root
	if path == "" {
		return v, nil
	}
	for _, key := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("section %q: %s is not an object", path, key)
		}
		next, ok := m[key]
		if !ok {
			keys := make([]string, 0, len(m))
			for k := range m {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			return nil, fmt.Errorf("section %q: no part %q here; the parts are %s", path, key, strings.Join(keys, ", "))
		}
		v = next
	}
	return v, nil
}

// inlineList is the most a list may weigh (tokens, compact JSON) and stay
// in an outline; a longer one is replaced by its length and the section
// that pages it.
const inlineList = 200

// outline is v with every long list replaced by a pointer to it.
func (pg pager) outline(path string, v any) *mcp.CallToolResult {
	o := pg.shorten(path, v)
	b, _ := json.Marshal(o)
	head := fmt.Sprintf("packet %s", pg.id)
	if path != "" {
		head += " section " + path
	}
	head += ": long lists are replaced by their length; page one with rtch_packet packet=" + pg.id + " section=NAME"
	return pg.fitText(head, string(b))
}

func (pg pager) shorten(path string, v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = pg.shorten(join(path, k), e)
		}
		return out
	case []any:
		b, _ := json.Marshal(x)
		if tokens.Estimate(string(b)) <= inlineList {
			return x
		}
		return fmt.Sprintf("[%d items: rtch_packet packet=%s section=%s]", len(x), pg.id, path)
	}
	return v
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// list is the items of a list section from offset, one compact JSON value
// per line, as many as the budget holds (at least one, its long strings
// cut to fit), and the call for the next page.
func (pg pager) list(path string, items []any, offset int) *mcp.CallToolResult {
	offset = max(0, min(offset, len(items)))
	build := func(n int) *mcp.CallToolResult {
		var b strings.Builder
		for _, it := range items[offset : offset+n] {
			line, _ := json.Marshal(it)
			b.Write(line)
			b.WriteByte('\n')
		}
		return &mcp.CallToolResult{Content: text(pg.listHead(path, offset, n, len(items)) + "\n" + b.String())}
	}
	res, n := fitCount(len(items)-offset, build)
	if n == 0 && offset < len(items) {
		// One item alone is over the budget: its long strings are cut.
		line, _ := json.Marshal(cutStrings(items[offset], ReplyBudget*2))
		res = &mcp.CallToolResult{Content: text(pg.listHead(path, offset, 1, len(items)) + " (its long strings cut; rtch_reenter reads a chunk whole)\n" + string(line) + "\n")}
	}
	return res
}

func (pg pager) listHead(path string, offset, n, total int) string {
	head := fmt.Sprintf("packet %s section %s: items %d-%d of %d", pg.id, path, offset, offset+n-1, total)
	if n == 0 {
		head = fmt.Sprintf("packet %s section %s: no items from %d of %d", pg.id, path, offset, total)
	}
	if offset+n < total {
		head += fmt.Sprintf("; next: rtch_packet packet=%s section=%s offset=%d", pg.id, path, offset+n)
	}
	return head
}

// fitText is head and body, the body cut at a line to fit the budget.
func (pg pager) fitText(head, body string) *mcp.CallToolResult {
	res := &mcp.CallToolResult{Content: text(head + "\n" + body)}
	for !fits(res, ReplyBudget) && len(body) > 0 {
		body = string([]rune(body)[:len([]rune(body))*3/4])
		res = &mcp.CallToolResult{Content: text(head + " (cut to fit the reply's budget; ask for a narrower section)\n" + body)}
	}
	return res
}

// cutStrings is v with every string longer than n runes cut to n.
func cutStrings(v any, n int) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = cutStrings(e, n)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = cutStrings(e, n)
		}
		return out
	case string:
		if r := []rune(x); len(r) > n {
			return string(r[:n]) + "…"
		}
	}
	return v
}
