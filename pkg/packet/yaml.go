package packet

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

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
	if err := yaml.Unmarshal(j, &doc); err != nil {
		return nil, err
	}
	restyle(&doc)
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
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
			n.Style = yaml.LiteralStyle
		}
	case yaml.MappingNode, yaml.SequenceNode:
		n.Style = 0
	}
	for _, c := range n.Content {
		restyle(c)
	}
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
