package codegraph

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/rtch/rtch/pkg/graph"
)

// UnresolvedLayer names the layer that lists the uses no edge could be
// built for.
const UnresolvedLayer = "unresolved"

// Graph is a built graph ready to write.
type Graph struct {
	// File is the guild.knowledge_graph.v1 document, sorted.
	File graph.File
	// Unresolved goes into the document's "unresolved" layer.
	Unresolved []Unresolved
	// Untyped counts selectors on local values of unknown type, which the
	// layer does not list.
	Untyped int
	// Workers bounds the goroutines that encode the lines (0: GOMAXPROCS);
	// the bytes are the same for every value.
	Workers int
}

// WriteTo writes the document as JSON with one node, edge or unresolved
// use per line, so a diff of two builds reads element by element and a
// decoding error names a useful line. Two writes of the same graph are
// byte-identical. Every line is what json.Encoder (HTML escaping off)
// writes, encoded by hand and in parallel chunks.
func (g Graph) WriteTo(w io.Writer) (int64, error) {
	cw := &countWriter{w: bufio.NewWriterSize(w, 1<<20)}
	f := g.File
	head := struct {
		Version             string `json:"version"`
		Kind                string `json:"kind"`
		GeneratedFromCommit string `json:"generated_from_commit"`
		Project             any    `json:"project"`
	}{graph.Version, f.Kind, f.GeneratedFromCommit, f.Project}
	var hb bytes.Buffer
	he := json.NewEncoder(&hb)
	he.SetEscapeHTML(false)
	if err := he.Encode(head); err != nil {
		return cw.n, err
	}
	cw.WriteString(string(bytes.TrimSuffix(bytes.TrimSpace(hb.Bytes()), []byte("}"))))
	cw.WriteString(",\n\"nodes\": [\n")
	err := writeChunks(cw, len(f.Nodes), g.Workers, func(b []byte, i int) ([]byte, error) {
		if i > 0 {
			b = append(b, ',')
		}
		return appendNode(b, &f.Nodes[i]), nil
	})
	if err != nil {
		return cw.n, err
	}
	cw.WriteString("],\n\"edges\": [\n")
	err = writeChunks(cw, len(f.Edges), g.Workers, func(b []byte, i int) ([]byte, error) {
		if i > 0 {
			b = append(b, ',')
		}
		return appendEdge(b, f.Edges[i])
	})
	if err != nil {
		return cw.n, err
	}
	cw.WriteString("],\n\"layers\": [\n")
	if err := g.writeLayer(cw); err != nil {
		return cw.n, err
	}
	cw.WriteString("]\n}\n")
	if cw.err != nil {
		return cw.n, cw.err
	}
	return cw.n, cw.w.(*bufio.Writer).Flush()
}

// writeLayer writes the unresolved layer, one line, as json.Encoder writes
// a layer value.
func (g Graph) writeLayer(cw *countWriter) error {
	summary := fmt.Sprintf("uses the builder could not tie to a node of the tree (a name from outside the tree, a field or method it cannot place); kept, never guessed into an edge; %d selectors on local values of unknown type are counted, not listed", g.Untyped)
	b := appendField(nil, `{"name":`, UnresolvedLayer)
	b = appendField(b, `,"summary":`, summary)
	b = append(b, `,"references":[`...)
	cw.Write(b)
	err := writeChunks(cw, len(g.Unresolved), g.Workers, func(b []byte, i int) ([]byte, error) {
		if i > 0 {
			b = append(b, ',')
		}
		return appendUnresolved(b, &g.Unresolved[i]), nil
	})
	cw.WriteString("]}\n")
	return err
}

type countWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.err = err
	return n, err
}

func (c *countWriter) WriteString(s string) { c.Write([]byte(s)) }

// appendEdge appends the edge's line as json.Encoder (HTML escaping off)
// writes it, without reflection: the edges are four fifths of a graph's
// lines and encoding them was the larger part of the write.
func appendEdge(b []byte, e graph.Edge) ([]byte, error) {
	b = appendField(b, `{"source":`, e.Source)
	b = appendField(b, `,"target":`, e.Target)
	b = appendField(b, `,"type":`, e.Type)
	b = appendField(b, `,"direction":`, e.Direction)
	b = append(b, `,"weight":`...)
	b, err := appendJSONFloat(b, e.Weight)
	return append(b, "}\n"...), err
}

// appendNode appends the node's line as json.Encoder (HTML escaping off)
// writes a graph.Node.
func appendNode(b []byte, n *graph.Node) []byte {
	b = appendField(b, `{"id":`, n.ID)
	b = appendField(b, `,"type":`, n.Type)
	b = appendField(b, `,"name":`, n.Name)
	b = append(b, `,"source_refs":`...)
	if n.SourceRefs == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, r := range n.SourceRefs {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, r)
		}
		b = append(b, ']')
	}
	b = appendField(b, `,"confidence":`, n.Confidence)
	if n.Importance != 0 {
		b = append(b, `,"importance":`...)
		b = strconv.AppendInt(b, int64(n.Importance), 10)
	}
	if n.Summary != "" {
		b = appendField(b, `,"summary":`, n.Summary)
	}
	return append(b, "}\n"...)
}

// appendUnresolved appends an unresolved use as json.Marshal writes it
// (HTML escaping off), without a newline: the layer is one line.
func appendUnresolved(b []byte, u *Unresolved) []byte {
	b = appendField(b, `{"from":`, u.From)
	b = appendField(b, `,"name":`, u.Name)
	b = appendField(b, `,"ref":`, u.Ref)
	b = append(b, `,"count":`...)
	b = strconv.AppendInt(b, int64(u.Count), 10)
	return append(b, '}')
}

// appendField appends a key (with its separator and colon) and a string.
func appendField(b []byte, key, s string) []byte {
	return appendJSONString(append(b, key...), s)
}

// appendJSONString writes s as encoding/json does with HTML escaping off:
// printable ASCII other than a quote or a backslash as it is, anything
// else through encoding/json itself.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			var sb bytes.Buffer
			enc := json.NewEncoder(&sb)
			enc.SetEscapeHTML(false)
			enc.Encode(s) // a string always encodes
			return append(b, bytes.TrimSuffix(sb.Bytes(), []byte("\n"))...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendJSONFloat writes a weight as encoding/json does: a whole number
// below 2^53 (not -0) as an integer, anything else through encoding/json,
// whose error (NaN, an infinity) it returns.
func appendJSONFloat(b []byte, f float64) ([]byte, error) {
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 && !math.Signbit(f) {
		return strconv.AppendInt(b, int64(f), 10), nil
	}
	j, err := json.Marshal(f)
	return append(b, j...), err
}
