package packet

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/hydrate"
	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/tokens"
)

// wholeChunk is an rtch.chunk record as rtch-hydrate writes it.
func wholeChunk(path string, s, e, rank int, commit, text string) schema.Chunk {
	lr := hydrate.LineRange(s, e)
	c := schema.Chunk{
		Envelope: record.Env(schema.KindChunk, schema.V1, path, lr), Path: path, LineRange: lr, StartLine: s, EndLine: e, TargetLine: s + 1,
		SHA256: strings.Repeat("ab", 32), FileSHA256: strings.Repeat("cd", 32), Commit: commit,
		WhyIncluded: "rank " + path, TermOrShape: "ParseFlags", ConfidenceClass: "hydrated_evidence", Limitation: "the rest of the file is not read",
		NextReEntryCommand: hydrate.ReEntryCommand(path, s, e), SedCommand: hydrate.SedCommand(path, s, e),
		Text: text, EstTokens: tokens.Estimate(text), Flags: []string{}, Rank: rank,
	}
	c.ChunkID = c.ID
	return c
}

// TestChunkRecordsRoundTrip: the packet's lean chunk records, read back from
// every format it writes, give each whole rtch.chunk record again (the
// commands of a path that needs quoting and of an effective view are kept
// on the record, as is the file hash of a file read again since; the rest
// comes from chunk_form).
func TestChunkRecordsRoundTrip(t *testing.T) {
	in := testLane()
	head := in.Zone.Git.Head
	view := wholeChunk("data/rows.csv", 4, 4, 2, head, "id,value\n")
	view.ConfidenceClass, view.NextReEntryCommand, view.BaseReEntryCommand = "effective_record_view", "rtch-gate --effective r9", "rtch-hydrate --reenter data/rows.csv:L4-L4"
	reread := wholeChunk("a.go", 40, 44, 1, head, "y\n")
	reread.FileSHA256 = strings.Repeat("ef", 32)
	in.Chunks = []schema.Chunk{
		wholeChunk("a.go", 1, 20, 1, head, "func ParseFlags() {\n\treturn \"x\"\n}\n"),
		wholeChunk("dir/has space.go", 3, 9, 1, head, "x\n"),
		wholeChunk("a.go", 30, 34, 1, head, "z\n"),
		view,
		reread,
	}
	in.Rank.Surfaces = append(in.Rank.Surfaces, schema.RankedSurface{Path: "dir/has space.go", Rank: 3, Score: 1, Anchors: []int{4}})
	for _, format := range []string{"ndjson", "json", "yaml"} {
		a, err := Assemble(in, Options{Now: t0, Budget: 40000}, format, false)
		if err != nil {
			t.Fatal(err)
		}
		w := written(t, a.Packet, format)
		if n := strings.Count(w, "rtch-hydrate --reenter"); n != 3 || strings.Contains(w, "--reenter a.go") {
			t.Errorf("%s: %d re-entry commands written, want chunk_form's rule, the quoted path's and the view's base", format, n)
		}
		if n, m := strings.Count(w, strings.Repeat("cd", 32)), strings.Count(w, strings.Repeat("ef", 32)); n != 3 || m != 1 {
			t.Errorf("%s: file hashes written %d and %d times, want once a file (3) and once for the file read again", format, n, m)
		}
		if n := strings.Count(w, "file_sha256"); n != 4 {
			t.Errorf("%s: file_sha256 written %d times, want 4", format, n)
		}
		back, err := Decode([]byte(w))
		if err != nil {
			t.Fatal(err)
		}
		want := Arrange(in.Chunks)
		if !reflect.DeepEqual(back.HydratedChunks, want) {
			t.Fatalf("%s: read back\n%+v\nwant\n%+v", format, back.HydratedChunks, want)
		}
	}
}

// TestJSONRecordALine: --format json indents the packet and writes each
// chunk record on a line of its own, a JSON object that reads back alone.
func TestJSONRecordALine(t *testing.T) {
	p, err := Build(bigLane(3, 5), Options{Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	j, err := JSON(p)
	if err != nil {
		t.Fatal(err)
	}
	var whole map[string]any
	if err := json.Unmarshal(j, &whole); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(j), "\n")
	at := slices.Index(lines, `  "hydrated_chunks": [`)
	if at < 0 || len(lines) < at+5 || lines[at+4] != "  ]," || !strings.HasPrefix(lines[1], `  "kind": "rtch.packet",`) {
		t.Fatalf("not indented with a record a line:\n%s", j)
	}
	for i, l := range lines[at+1 : at+4] {
		var r schema.PacketChunk
		if err := json.Unmarshal([]byte(strings.TrimSuffix(strings.TrimPrefix(l, "    "), ",")), &r); err != nil || r.ChunkID != p.ChunkRecords[i].ChunkID {
			t.Fatalf("line %q: %v", l, err)
		}
	}
}
