// Package graph loads and queries a guild.knowledge_graph.v1 file
// (.guild/indexes/knowledge-graph.json, SPEC §10): validation on load,
// a token-scored bounded traversal for free-text recall, and structural
// intents ("callers of X", "what imports Y", "impact of changing Z") answered
// by depth-bounded inbound or outbound traversal.
//
// Everything returned is bounded by a token budget (ceil(code points/4)
// through pkg/tokens) so a large graph can never flood a prompt.
package graph

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// RelPath is where the graph lives under a project root.
const RelPath = ".guild/indexes/knowledge-graph.json"

// Version is the schema identifier of the format.
const Version = "guild.knowledge_graph.v1"

// File is the JSON document.
type File struct {
	// Version is "guild.knowledge_graph.v1" (1 is accepted too).
	Version json.RawMessage `json:"version"`
	// Kind is codebase or knowledge.
	Kind string `json:"kind"`
	// GeneratedFromCommit is the commit the graph was built from.
	GeneratedFromCommit string `json:"generated_from_commit"`
	// Project names the project.
	Project struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	} `json:"project"`
	// Nodes are the entities.
	Nodes []Node `json:"nodes"`
	// Edges are the relations.
	Edges []Edge `json:"edges"`
	// Layers are kept opaque.
	Layers json.RawMessage `json:"layers"`
}

// Node is one entity of the graph.
type Node struct {
	// ID is unique within the graph.
	ID string `json:"id"`
	// Type is the entity kind (package, function, service, concept, …).
	Type string `json:"type"`
	// Name is the display name.
	Name string `json:"name"`
	// SourceRefs point back to sources as "path#Lx-Ly".
	SourceRefs []string `json:"source_refs"`
	// Confidence is low, medium or high.
	Confidence string `json:"confidence"`
	// Importance is 1..5 when given.
	Importance int `json:"importance,omitempty"`
	// Summary is a short description.
	Summary string `json:"summary,omitempty"`
}

// Edge is one relation.
type Edge struct {
	// Source and Target are node ids.
	Source string `json:"source"`
	Target string `json:"target"`
	// Type is the relation (calls, imports, defines, depends_on, …).
	Type string `json:"type"`
	// Direction is out (source→target), in (target→source) or bi.
	Direction string `json:"direction"`
	// Weight is the relation strength; 0 or absent counts as 1.
	Weight float64 `json:"weight"`
}

// Problem is a validation finding; the graph is still usable without the
// offending element.
type Problem struct {
	// Msg says what was wrong and what was done about it.
	Msg string
}

// arc is a directed, typed hop between node indexes.
type arc struct {
	to     int
	typ    string
	weight float64
}

// Graph is a validated graph ready to query.
type Graph struct {
	// Nodes in file order, duplicates removed.
	Nodes []Node
	byID  map[string]int
	out   [][]arc
	in    [][]arc
}

// Load decodes and validates a graph. Syntax and type errors are returned
// with the input name and line; duplicate ids (the first wins), dangling
// edges and unknown directions are Problems and the element is dropped.
func Load(r io.Reader, name string) (*Graph, []Problem, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	var f File
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&f); err != nil {
		return nil, nil, jsonError(name, data, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, fmt.Errorf("%s:%d: trailing data after the graph object", name, lineAt(data, dec.InputOffset()))
	}
	if err := checkVersion(f.Version); err != nil {
		return nil, nil, fmt.Errorf("%s: %v", name, err)
	}
	return Build(f)
}

// Build validates a decoded file into a Graph.
func Build(f File) (*Graph, []Problem, error) {
	g := &Graph{byID: map[string]int{}}
	var probs []Problem
	for i, n := range f.Nodes {
		if n.ID == "" {
			probs = append(probs, Problem{fmt.Sprintf("nodes[%d]: no id; dropped", i)})
			continue
		}
		if _, dup := g.byID[n.ID]; dup {
			probs = append(probs, Problem{fmt.Sprintf("nodes[%d]: duplicate id %q; the first one is kept", i, n.ID)})
			continue
		}
		if n.Name == "" {
			n.Name = n.ID
		}
		g.byID[n.ID] = len(g.Nodes)
		g.Nodes = append(g.Nodes, n)
	}
	g.out = make([][]arc, len(g.Nodes))
	g.in = make([][]arc, len(g.Nodes))
	for i, e := range f.Edges {
		s, okS := g.byID[e.Source]
		t, okT := g.byID[e.Target]
		if !okS || !okT {
			missing := e.Source
			if okS {
				missing = e.Target
			}
			probs = append(probs, Problem{fmt.Sprintf("edges[%d]: dangling edge %s -> %s (no node %q); dropped", i, e.Source, e.Target, missing)})
			continue
		}
		w := e.Weight
		if w <= 0 {
			w = 1
		}
		typ := strings.ToLower(e.Type)
		switch strings.ToLower(e.Direction) {
		case "out", "":
			g.link(s, t, typ, w)
		case "in":
			g.link(t, s, typ, w)
		case "bi", "both":
			g.link(s, t, typ, w)
			g.link(t, s, typ, w)
		default:
			probs = append(probs, Problem{fmt.Sprintf("edges[%d]: unknown direction %q; dropped", i, e.Direction)})
		}
	}
	return g, probs, nil
}

func (g *Graph) link(from, to int, typ string, w float64) {
	g.out[from] = append(g.out[from], arc{to, typ, w})
	g.in[to] = append(g.in[to], arc{from, typ, w})
}

// Node returns the node with id.
func (g *Graph) Node(id string) (Node, bool) {
	i, ok := g.byID[id]
	if !ok {
		return Node{}, false
	}
	return g.Nodes[i], true
}

func checkVersion(raw json.RawMessage) error {
	if len(raw) == 0 {
		return errors.New("no version; want " + Version)
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s == Version || s == "1" || s == "v1" {
			return nil
		}
		return fmt.Errorf("version %q is not %s", s, Version)
	}
	var n float64
	if json.Unmarshal(raw, &n) == nil && n == 1 {
		return nil
	}
	return fmt.Errorf("version %s is not %s", raw, Version)
}

func jsonError(name string, data []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("%s:%d: %v", name, lineAt(data, se.Offset), err)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Errorf("%s:%d: %s has the wrong type (%s, want %s)", name, lineAt(data, te.Offset), te.Field, te.Value, te.Type)
	}
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("%s: empty file", name)
	}
	return fmt.Errorf("%s: %v", name, err)
}

func lineAt(data []byte, off int64) int {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}
