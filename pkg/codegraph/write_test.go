package codegraph

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/rtch/rtch/pkg/graph"
)

// TestAppendEdgeIsJSONEncoder: the hand-written edge line is the line
// json.Encoder (HTML escaping off) writes, for ids that need escaping and
// weights that are not small whole numbers.
func TestAppendEdgeIsJSONEncoder(t *testing.T) {
	ids := []string{"go:net/http#Server.Shutdown", `py:a"b`, `sym:c\d`, "file:tab\there", "file:new\nline",
		"file:ünï", "file:<html>&amp;", "file:\u2028sep", "file:bad\xffutf8", "file:\x7f", ""}
	weights := []float64{1, 4, 0, math.Copysign(0, -1), 0.55, 1e-7, 1 << 53, 1e21, 123456789, 2.5e300}
	for i, id := range ids {
		e := graph.Edge{Source: id, Target: ids[(i+1)%len(ids)], Type: EdgeCalls, Direction: "out", Weight: weights[i%len(weights)]}
		for _, w := range weights {
			e.Weight = w
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(e); err != nil {
				t.Fatal(err)
			}
			got, err := appendEdge(nil, e)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != want.String() {
				t.Errorf("edge %q → %q weight %v:\n got %s\nwant %s", e.Source, e.Target, w, got, want.String())
			}
		}
	}
	if _, err := appendEdge(nil, graph.Edge{Weight: math.NaN()}); err == nil {
		t.Error("a NaN weight encoded without an error")
	}
}
