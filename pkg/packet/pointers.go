package packet

import (
	"fmt"
	"path"

	"github.com/rtch/rtch/pkg/brief"
	"github.com/rtch/rtch/pkg/hydrate"
	"github.com/rtch/rtch/pkg/mdsafe"
)

// Pointers names the calls a packet points its reader to (next legal
// probes, re-entry, the lists its brief shortens): shell commands of the
// binaries (PointCLI, the default), or calls of rtch-mcp's tools with
// their arguments (PointMCP), for an agent that has no shell
// (docs/decisions/agent-reply.md). The packet's chunk records keep their
// shell commands either way: they are the records the pipes exchange.
type Pointers int

const (
	// PointCLI names shell commands: rtch-hydrate --reenter PATH:Ls-Le.
	PointCLI Pointers = iota
	// PointMCP names rtch-mcp's tools: rtch_reenter range=PATH:Ls-Le.
	PointMCP
)

// PointerNames are the values of rtch-packet --pointers.
var PointerNames = []string{"cli", "mcp"}

// ParsePointers reads a --pointers value.
func ParsePointers(s string) (Pointers, error) {
	switch s {
	case "", "cli":
		return PointCLI, nil
	case "mcp":
		return PointMCP, nil
	}
	return PointCLI, fmt.Errorf("%q: want cli or mcp", s)
}

// reenter re-reads the window around one line, or a range (PATH:N,
// PATH:Ls-Le).
func (v Pointers) reenter(arg string) string {
	if v == PointMCP {
		return brief.MCPReEnter(arg)
	}
	return "rtch-hydrate --reenter " + hydrate.ShellQuote(arg)
}

// wider runs the lane again at wide fanout, for why.
func (v Pointers) wider(why string) string {
	if v == PointMCP {
		return "call rtch_context again with fanout=wide " + why
	}
	return "rerun the lane with rtch-intake --fanout wide " + why
}

// seed runs the lane again with item as an explicit seed.
func (v Pointers) seed(item string) string {
	if v == PointMCP {
		return fmt.Sprintf("call rtch_context again with seeds=[%s] so the scout pairs it", brief.MCPValue(item))
	}
	return fmt.Sprintf("rerun the lane with rtch-intake --seed %s so the scout pairs it", hydrate.ShellQuote(item))
}

// gate shows the effective-record gate's records.
func (v Pointers) gate(packetID string) string {
	if v == PointMCP {
		return "rtch_packet packet=" + packetID + " section=effective_record_projection"
	}
	return "rtch-zone --gate-only"
}

// rehydrate checks the packet against the tree later: persisted is the
// packet file when this run writes it, else "".
func (v Pointers) rehydrate(packetID, persisted string) string {
	switch {
	case v == PointMCP && persisted != "":
		return "rtch_rehydrate packet=" + packetID
	case v == PointMCP:
		return "call rtch_context with persist=true, then rtch_rehydrate packet=" + packetID + " before acting on this packet later"
	case persisted != "":
		return "rtch-hydrate --rehydrate " + hydrate.ShellQuote(persisted)
	}
	return fmt.Sprintf("rtch-packet --persist, then rtch-hydrate --rehydrate %s before acting on this packet later", hydrate.ShellQuote(path.Join(PersistDir, packetID+".yaml")))
}

// list says where the whole of a list the brief shortens is, as the end
// of "N more …": field is the packet's key.
func (v Pointers) list(packetID, field string) string {
	if v == PointMCP {
		return "via rtch_packet packet=" + packetID + " section=" + field
	}
	return "in " + field + " of the JSON or YAML form"
}

// reEnterRule is the brief's one sentence on how any chunk is re-entered.
func (v Pointers) reEnterRule() string {
	if v == PointMCP {
		return "its heading's " + mdsafe.Code("PATH:Ls-Le") + " is the range of " + mdsafe.Code("rtch_reenter") + ", which reads it again (or a wider range) unless the chunk names another call"
	}
	return "its heading's " + mdsafe.Code("PATH:Ls-Le") + " re-enters it with " + mdsafe.Code(brief.ReEnterRule) + " (or " + mdsafe.Code("sed -n 's,ep' PATH") + ") from the zone root unless the chunk names its own command"
}

// fullPacket is how the whole packet is read, for a summary.
func (v Pointers) fullPacket(packetID string) string {
	if v == PointMCP {
		return "rtch_packet packet=" + packetID + " (a section and its offset page through it)"
	}
	return "rtch-packet --format json (or yaml) on the same stream"
}
