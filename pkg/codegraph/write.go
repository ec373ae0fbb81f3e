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
}

type layer struct {
	Name       string       `json:"name"`
	Summary    string       `json:"summary"`
	References []Unresolved `json:"references"`
}

// WriteTo writes the document as JSON with one node, edge or unresolved
// use per line, so a diff of two builds reads element by element and a
// decoding error names a useful line. Two writes of the same graph are
// byte-identical.
func (g Graph) WriteTo(w io.Writer) (int64, error) {
	cw := &countWriter{w: bufio.NewWriterSize(w, 1<<20)}
	enc := json.NewEncoder(cw)
	enc.SetEscapeHTML(false)
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
	for i, n := range f.Nodes {
		if err := element(cw, enc, i, n); err != nil {
			return cw.n, err
		}
	}
	cw.WriteString("],\n\"edges\": [\n")
	var buf []byte
	for i, e := range f.Edges {
		buf = buf[:0]
		if i > 0 {
			buf = append(buf, ',')
		}
		var err error
		if buf, err = appendEdge(buf, e); err != nil {
			return cw.n, err
		}
		cw.Write(buf)
	}
	cw.WriteString("],\n\"layers\": [\n")
	l := layer{Name: UnresolvedLayer, References: g.Unresolved,
		Summary: fmt.Sprintf("uses the builder could not tie to a node of the tree (a name from outside the tree, a field or method it cannot place); kept, never guessed into an edge; %d selectors on local values of unknown type are counted, not listed", g.Untyped)}
	if l.References == nil {
		l.References = []Unresolved{}
	}
	if err := enc.Encode(l); err != nil {
		return cw.n, err
	}
	cw.WriteString("]\n}\n")
	if cw.err != nil {
		return cw.n, cw.err
	}
	return cw.n, cw.w.(*bufio.Writer).Flush()
}

func element(cw *countWriter, enc *json.Encoder, i int, v any) error {
	if i > 0 {
		cw.WriteString(",")
	}
	return enc.Encode(v)
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
	b = append(b, `{"source":`...)
	b = appendJSONString(b, e.Source)
	b = append(b, `,"target":`...)
	b = appendJSONString(b, e.Target)
	b = append(b, `,"type":`...)
	b = appendJSONString(b, e.Type)
	b = append(b, `,"direction":`...)
	b = appendJSONString(b, e.Direction)
	b = append(b, `,"weight":`...)
	b, err := appendJSONFloat(b, e.Weight)
	return append(b, "}\n"...), err
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
