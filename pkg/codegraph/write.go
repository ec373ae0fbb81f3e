package codegraph

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

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
	for i, e := range f.Edges {
		if err := element(cw, enc, i, e); err != nil {
			return cw.n, err
		}
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
