package packet

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
)

// YAML encodes v (anything encoding/json accepts) as block-style YAML with the
// JSON field order kept: v is marshalled to JSON, parsed into a yaml.Node
// (JSON is YAML) and re-styled, so the YAML and JSON forms of a packet always
// carry the same fields. Multi-line strings become literal blocks when YAML can
// represent them exactly, double-quoted otherwise.
func YAML(v any) ([]byte, error) {
	j, err := record.Marshal(v)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(escapeForYAML(j), &doc); err != nil {
		return nil, err
	}
	restyle(&doc)
	return encode(&doc)
}

// escapeForYAML turns the characters JSON leaves raw but YAML does not accept
// in a stream (DEL, C1 controls except NEL, U+FFFE, U+FFFF) into \u escapes;
// they can only occur inside JSON strings, where the escape means the same.
func escapeForYAML(j []byte) []byte {
	var out []byte
	for i := 0; i < len(j); {
		r, n := utf8.DecodeRune(j[i:])
		if (r >= 0x7f && r <= 0x9f && r != 0x85) || r == 0xfffe || r == 0xffff {
			if out == nil {
				out = append([]byte{}, j[:i]...)
			}
			out = fmt.Appendf(out, `\u%04x`, r)
		} else if out != nil {
			out = append(out, j[i:i+n]...)
		}
		i += n
	}
	if out == nil {
		return j
	}
	return out
}

func encode(n *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func restyle(n *yaml.Node) {
	switch n.Kind {
	case yaml.ScalarNode:
		n.Style = 0
		if n.Tag == "!!str" && strings.Contains(n.Value, "\n") {
			// The encoder picks a literal block for multi-line strings on its
			// own; keep it only where it reads back exactly.
			n.Style = yaml.DoubleQuotedStyle
			if literalSafe(n.Value) {
				n.Style = yaml.LiteralStyle
			}
		}
	case yaml.MappingNode, yaml.SequenceNode:
		n.Style = 0
	}
	for _, c := range n.Content {
		restyle(c)
	}
}

// literalSafe reports whether s survives a round trip as a literal block. The
// encoder emits some whitespace-only lines (a lone tab) in a form its own
// parser rejects; those strings stay double-quoted.
func literalSafe(s string) bool {
	n := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: "v"},
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: s, Style: yaml.LiteralStyle},
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: "w"},
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: "x"},
	}}
	b, err := encode(n)
	if err != nil {
		return false
	}
	var back map[string]string
	return yaml.Unmarshal(b, &back) == nil && back["v"] == s
}

// Decode reads a packet persisted as YAML or JSON: the pretty form of --format
// json, one rtch.packet record, or a record stream holding one (the last wins).
func Decode(data []byte) (*schema.Packet, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, errors.New("empty packet file")
	}
	j := trimmed
	if trimmed[0] != '{' {
		var v any
		if err := yaml.Unmarshal(data, &v); err != nil {
			return nil, fmt.Errorf("not a YAML or JSON packet: %v", err)
		}
		b, err := json.Marshal(normalize(v))
		if err != nil {
			return nil, fmt.Errorf("packet YAML has values JSON cannot hold: %v", err)
		}
		j = b
	}
	if trimmed[0] == '{' && !json.Valid(trimmed) {
		// A record stream: the packet is its (last) rtch.packet record.
		var found []byte
		for _, line := range bytes.Split(trimmed, []byte("\n")) {
			var env struct {
				Kind string `json:"kind"`
			}
			if json.Unmarshal(line, &env) == nil && env.Kind == schema.KindPacket {
				found = line
			}
		}
		if found == nil {
			return nil, errors.New("not a packet: a record stream without an rtch.packet record")
		}
		j = found
	}
	var p schema.Packet
	if err := json.Unmarshal(j, &p); err != nil {
		return nil, fmt.Errorf("not a packet: %v", err)
	}
	if p.SchemaVersion != schema.PacketSchemaVersion {
		return nil, fmt.Errorf("not a packet: schema_version %q, want %q", p.SchemaVersion, schema.PacketSchemaVersion)
	}
	p.HydratedChunks = Chunks(&p)
	return &p, nil
}

// Load reads and decodes a packet file.
func Load(path string) (*schema.Packet, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	p, err := Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return p, nil
}

// normalize turns the map[any]any a YAML decoder may produce into
// map[string]any so encoding/json accepts it.
func normalize(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = normalize(e)
		}
		return x
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = normalize(e)
		}
		return m
	case []any:
		for i, e := range x {
			x[i] = normalize(e)
		}
		return x
	}
	return v
}
