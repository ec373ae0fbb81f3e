package gate

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rtch/rtch/pkg/pathenc"
	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
)

func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

// RFC 7396 Appendix A, every example.
func TestMergePatchRFC7396(t *testing.T) {
	cases := [][3]string{
		{`{"a":"b"}`, `{"a":"c"}`, `{"a":"c"}`},
		{`{"a":"b"}`, `{"b":"c"}`, `{"a":"b","b":"c"}`},
		{`{"a":"b"}`, `{"a":null}`, `{}`},
		{`{"a":"b","b":"c"}`, `{"a":null}`, `{"b":"c"}`},
		{`{"a":["b"]}`, `{"a":"c"}`, `{"a":"c"}`},
		{`{"a":"c"}`, `{"a":["b"]}`, `{"a":["b"]}`},
		{`{"a":{"b":"c"}}`, `{"a":{"b":"d","c":null}}`, `{"a":{"b":"d"}}`},
		{`{"a":[{"b":"c"}]}`, `{"a":[1]}`, `{"a":[1]}`},
		{`["a","b"]`, `["c","d"]`, `["c","d"]`},
		{`{"a":"b"}`, `["c"]`, `["c"]`},
		{`{"a":"foo"}`, `null`, `null`},
		{`{"a":"foo"}`, `"bar"`, `"bar"`},
		{`{"e":null}`, `{"a":1}`, `{"e":null,"a":1}`},
		{`[1,2]`, `{"a":"b","c":null}`, `{"a":"b"}`},
		{`{}`, `{"a":{"bb":{"ccc":null}}}`, `{"a":{"bb":{}}}`},
	}
	for _, c := range cases {
		target := decode(t, c[0])
		before, _ := json.Marshal(target)
		got := MergePatch(target, decode(t, c[1]))
		if !reflect.DeepEqual(got, decode(t, c[2])) {
			gb, _ := json.Marshal(got)
			t.Errorf("merge %s with %s: got %s, want %s", c[0], c[1], gb, c[2])
		}
		if after, _ := json.Marshal(target); !bytes.Equal(before, after) {
			t.Errorf("merge %s with %s modified the target", c[0], c[1])
		}
	}
}

func TestMatch(t *testing.T) {
	for _, c := range []struct {
		g, p string
		ok   bool
	}{
		{"audit-logs/**/*.jsonl", "audit-logs/a.jsonl", true},
		{"audit-logs/**/*.jsonl", "audit-logs/x/y/a.jsonl", true},
		{"audit-logs/**/*.jsonl", "audit-logs/a.json", false},
		{"audit-logs/**/*.jsonl", "other/a.jsonl", false},
		{"**/*.jsonl", "a.jsonl", true},
		{"**/*.jsonl", "d/e/a.jsonl", true},
		{"logs/*.jsonl", "logs/x/a.jsonl", false},
		{"logs/**", "logs/x/a.jsonl", true},
	} {
		if got := Match(c.g, c.p); got != c.ok {
			t.Errorf("Match(%q, %q) = %v", c.g, c.p, got)
		}
	}
}

const surf = "audit-logs/decisions.jsonl"

func lines(rows ...string) string { return strings.Join(rows, "\n") + "\n" }

func corr(id, target, state, at, patch string, extra ...string) string {
	s := `{"type":"record_correction","correction_id":"` + id + `","target_record_id":"` + target + `","target_surface":"` + surf + `","patch":` + patch + `,"lifecycle_state":"` + state + `","effective_at":"` + at + `","reason":"test"`
	for _, e := range extra {
		s += "," + e
	}
	return s + "}"
}

func eval(t *testing.T, files map[string]string) schema.Gate {
	t.Helper()
	fsys := fstest.MapFS{}
	for p, c := range files {
		fsys[p] = &fstest.MapFile{Data: []byte(c)}
	}
	g, err := Evaluate(Options{FS: fsys})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func reasons(g schema.Gate) []string {
	var r []string
	for _, u := range g.Unresolved {
		r = append(r, u.Reason+"@"+u.Location)
	}
	return r
}

// Two surfaces whose names differ in a byte that is not UTF-8 stay two
// surfaces, spelt with pkg/pathenc's escapes (through pathenc.DirFS, as
// rtch-zone reads the zone).
func TestGateNonUTF8SurfaceNames(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "audit-logs"), 0o755)
	for name, text := range map[string]string{"x_\xff.jsonl": lines(`{"id":"d1","title":"a"}`), "x_\xfe.jsonl": lines(`{"id":"d2","title":"b"}`)} {
		if err := os.WriteFile(filepath.Join(dir, "audit-logs", name), []byte(text), 0o644); err != nil {
			t.Skipf("this file system refuses the name %q: %v", name, err)
		}
	}
	g, err := Evaluate(Options{FS: pathenc.DirFS(dir)})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"audit-logs/x_¤xFE.jsonl", "audit-logs/x_¤xFF.jsonl"}; !reflect.DeepEqual(g.Surfaces, want) {
		t.Fatalf("surfaces %q, want %q", g.Surfaces, want)
	}
}

func TestGateSafe(t *testing.T) {
	g := eval(t, map[string]string{"README.md": "x"})
	if g.Status != StatusSafe || len(g.Surfaces) != 0 || g.EffectiveRecords == nil || g.Unresolved == nil {
		t.Fatalf("no surfaces: %+v", g)
	}
	g = eval(t, map[string]string{
		surf: lines(`{"id":"d1","title":"keep"}`,
			corr("c1", "d1", "proposed", "2024-01-02T00:00:00Z", `{"title":"changed"}`),
			corr("c2", "d1", "revoked", "2024-01-02T00:00:00Z", `{"title":"changed"}`),
			corr("c3", "d1", "authorized", "2024-01-03T00:00:00Z", `{"title":"keep"}`)),
		"audit-logs/other.json": "not a surface",
	})
	if g.Status != StatusSafe || len(g.Unresolved) != 0 || len(g.EffectiveRecords) != 0 {
		t.Fatalf("proposed/revoked/no-op corrections: %+v", g)
	}
	if !reflect.DeepEqual(g.Surfaces, []string{surf}) {
		t.Fatalf("surfaces %v", g.Surfaces)
	}
	if g.Kind != schema.KindGate || g.ID != record.ID(schema.KindGate, g.SourceDigest) || len(g.SourceDigest) != 64 {
		t.Fatalf("envelope %+v digest %q", g.Envelope, g.SourceDigest)
	}
}

func TestGateCorrectedOrderSupersessionAndNumbers(t *testing.T) {
	g := eval(t, map[string]string{
		surf: lines(
			`{"id":"d1","title":"old","n":12345678901234567890,"drop":true}`,
			`{"record_id":"d2","title":"other"}`,
			// Applied by effective_at, then correction_id: c-b before c-a at the same time.
			corr("c-a", "d1", "ratified", "2024-03-01T00:00:00Z", `{"title":"third"}`),
			corr("c-b", "d1", "authorized", "2024-03-01T00:00:00Z", `{"title":"second","drop":null}`),
			corr("c-0", "d1", "authorized", "2024-01-01", `{"title":"first","extra":{"k":1}}`),
			// c-z would win last, but c-s supersedes it; c-s itself is only proposed.
			corr("c-z", "d1", "authorized", "2025-01-01T00:00:00Z", `{"title":"superseded"}`),
			corr("c-s", "d1", "authorized", "2024-01-01T00:00:00Z", `{}`, `"supersedes":["c-z"]`),
			corr("c-q", "d2", "superseded", "2024-01-01T00:00:00Z", `{"title":"no"}`),
		),
	})
	if g.Status != StatusCorrected || len(g.Unresolved) != 0 {
		t.Fatalf("status %s unresolved %v", g.Status, reasons(g))
	}
	if len(g.EffectiveRecords) != 1 {
		t.Fatalf("effective records %+v", g.EffectiveRecords)
	}
	e := g.EffectiveRecords[0]
	if e.TargetRecordID != "d1" || e.TargetSurface != surf || e.BaseLocation != surf+":L1" {
		t.Fatalf("effective record %+v", e)
	}
	if !reflect.DeepEqual(e.AppliedCorrectionIDs, []string{"c-0", "c-s", "c-a", "c-b"}) {
		// c-s (2024-01-01T00:00:00Z) ties with c-0 (2024-01-01): c-0 < c-s by id.
		t.Fatalf("applied %v", e.AppliedCorrectionIDs)
	}
	b, _ := record.Marshal(e.EffectiveRecord)
	if string(b) != `{"extra":{"k":1},"id":"d1","n":12345678901234567890,"title":"second"}` {
		t.Fatalf("effective view %s", b)
	}
}

func TestGateBlockedCases(t *testing.T) {
	cases := []struct {
		name string
		rows []string
		want []string
	}{
		{"missing target record", []string{`{"id":"d1"}`, corr("c1", "nope", "authorized", "2024-01-01", `{"a":1}`)},
			[]string{"missing_target@" + surf + ":L2"}},
		{"missing target surface", []string{`{"id":"d1"}`, strings.Replace(corr("c1", "d1", "proposed", "2024-01-01", `{"a":1}`), surf, "audit-logs/gone.jsonl", 1)},
			[]string{"missing_target@" + surf + ":L2"}},
		{"ambiguous target", []string{`{"id":"d1"}`, `{"id":"d1"}`, corr("c1", "d1", "authorized", "2024-01-01", `{"a":1}`)},
			[]string{"ambiguous_target@" + surf + ":L3"}},
		{"missing superseded", []string{`{"id":"d1"}`, corr("c1", "d1", "authorized", "2024-01-01", `{"a":1}`, `"supersedes":["c0"]`)},
			[]string{"missing_superseded@" + surf + ":L2"}},
		{"cycle", []string{`{"id":"d1"}`,
			corr("c1", "d1", "authorized", "2024-01-01", `{"a":1}`, `"supersedes":["c2"]`),
			corr("c2", "d1", "authorized", "2024-01-01", `{"a":2}`, `"supersedes":["c1"]`)},
			[]string{"cycle@" + surf + ":L2"}},
		{"self cycle", []string{`{"id":"d1"}`, corr("c1", "d1", "proposed", "2024-01-01", `{"a":1}`, `"supersedes":["c1"]`)},
			[]string{"cycle@" + surf + ":L2"}},
		{"duplicate correction id", []string{`{"id":"d1"}`,
			corr("c1", "d1", "authorized", "2024-01-01", `{"a":1}`),
			corr("c1", "d1", "authorized", "2024-01-02", `{"a":2}`)},
			[]string{"duplicate_correction_id@" + surf + ":L3"}},
		{"malformed envelope", []string{`{"id":"d1"}`,
			`{"type":"record_correction","correction_id":"c1","target_record_id":"d1","target_surface":"` + surf + `","patch":[1],"lifecycle_state":"approved","effective_at":"yesterday"}`,
			`{"type":"record_correction"}`},
			[]string{"malformed_envelope@" + surf + ":L2", "malformed_envelope@" + surf + ":L3"}},
		{"invalid JSON and non-object rows", []string{`{"id":"d1"}`, `{"id":`, `[1,2]`, `"text"`},
			[]string{"invalid_json@" + surf + ":L2", "malformed_envelope@" + surf + ":L3", "malformed_envelope@" + surf + ":L4"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := eval(t, map[string]string{surf: lines(c.rows...)})
			if g.Status != StatusBlocked {
				t.Fatalf("status %s, want blocked", g.Status)
			}
			if got := reasons(g); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("unresolved %v, want %v (%+v)", got, c.want, g.Unresolved)
			}
			for _, u := range g.Unresolved {
				if u.Detail == "" {
					t.Fatalf("no detail: %+v", u)
				}
			}
		})
	}
	// A malformed envelope names every fault at once.
	g := eval(t, map[string]string{surf: lines(`{"type":"record_correction","correction_id":"c1","patch":"x","lifecycle_state":"approved","effective_at":"yesterday","supersedes":"c0"}`)})
	d := g.Unresolved[0].Detail
	for _, want := range []string{"target_record_id is missing", "target_surface is missing", "patch is a string", "supersedes is a string", `lifecycle_state "approved"`, `effective_at "yesterday"`} {
		if !strings.Contains(d, want) {
			t.Errorf("detail %q lacks %q", d, want)
		}
	}
}

func TestGateDigestFollowsContent(t *testing.T) {
	a := eval(t, map[string]string{surf: lines(`{"id":"d1"}`)})
	b := eval(t, map[string]string{surf: lines(`{"id":"d1"}`)})
	c := eval(t, map[string]string{surf: lines(`{"id":"d2"}`)})
	d := eval(t, map[string]string{"audit-logs/other.jsonl": lines(`{"id":"d1"}`)})
	if a.SourceDigest != b.SourceDigest || a.SourceDigest == c.SourceDigest || a.SourceDigest == d.SourceDigest {
		t.Fatalf("digests %s %s %s %s", a.SourceDigest, b.SourceDigest, c.SourceDigest, d.SourceDigest)
	}
}

func TestEvaluateConfiguredSurfacesAndIDFields(t *testing.T) {
	fsys := fstest.MapFS{
		"logs/x.jsonl":       {Data: []byte(lines(`{"key":"k1","v":1}`, `{"type":"record_correction","correction_id":"c1","target_record_id":"k1","target_surface":"logs/x.jsonl","patch":{"v":2},"lifecycle_state":"ratified","effective_at":"2024-01-01"}`))},
		"audit-logs/a.jsonl": {Data: []byte(`{bad` + "\n")},
	}
	g, err := Evaluate(Options{FS: fsys, Surfaces: []string{"logs/*.jsonl"}, IDFields: []string{"key"}})
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != StatusCorrected || g.EffectiveRecords[0].TargetRecordID != "k1" {
		t.Fatalf("%+v", g)
	}
	if _, err := Evaluate(Options{FS: fsys, Surfaces: []string{"logs/[.jsonl"}}); err == nil {
		t.Fatal("a bad glob must be an error")
	}
}

func TestReadSurfaceLinesAndCRLF(t *testing.T) {
	rows, probs, err := ReadSurface(strings.NewReader("{\"id\":1}\r\n\n   \n{\"id\":2}"), "s.jsonl")
	if err != nil || len(probs) != 0 || len(rows) != 2 || rows[0].Line != 1 || rows[1].Line != 4 {
		t.Fatalf("rows %+v probs %v err %v", rows, probs, err)
	}
	if n, ok := rows[0].Value["id"].(json.Number); !ok || n.String() != "1" {
		t.Fatalf("numbers must stay json.Number: %#v", rows[0].Value["id"])
	}
}

func FuzzReadSurface(f *testing.F) {
	f.Add([]byte("{\"id\":\"a\"}\n{\"type\":\"record_correction\",\"correction_id\":\"c\",\"target_record_id\":\"a\",\"target_surface\":\"s\",\"patch\":{\"x\":null},\"lifecycle_state\":\"authorized\",\"effective_at\":\"2024-01-01\",\"supersedes\":[\"c\"]}\n"))
	f.Add([]byte("\r\n[1]\n{\"id\":\n\xff\n"))
	f.Add([]byte(`{"id":1e999}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, probs, err := ReadSurface(bytes.NewReader(data), "s")
		if err != nil {
			t.Fatalf("in-memory read failed: %v", err)
		}
		max := bytes.Count(data, []byte("\n")) + 1
		for _, r := range rows {
			if r.Line < 1 || r.Line > max || r.Value == nil {
				t.Fatalf("bad row %+v", r)
			}
		}
		for _, p := range probs {
			if !strings.HasPrefix(p.Location, "s:L") || p.Detail == "" {
				t.Fatalf("bad problem %+v", p)
			}
		}
		// Resolution never panics and every problem is reported.
		g := Resolve(rows, []string{"s"}, nil)
		if g.Unresolved == nil || g.EffectiveRecords == nil {
			t.Fatal("nil lists")
		}
	})
}

func TestFindSurfacesOnDiskSkipsGitAndLinks(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	write := func(p, s string) {
		t.Helper()
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("logs/a.jsonl", `{"id":"a"}`+"\n")
	write(".git/logs/x.jsonl", "{bad\n")
	write("deep/er/b.jsonl", `{"id":"b"}`+"\n")
	if err := os.WriteFile(filepath.Join(outside, "c.jsonl"), []byte("{bad\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "c.jsonl"), filepath.Join(root, "logs", "c.jsonl")); err != nil {
		t.Skip("no symlinks:", err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "linked")); err != nil {
		t.Fatal(err)
	}
	got, err := FindSurfaces(os.DirFS(root), []string{"**/*.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, []string{"deep/er/b.jsonl", "logs/a.jsonl"}) {
		t.Fatalf("surfaces %v", got)
	}
	g, err := Evaluate(Options{FS: os.DirFS(root), Surfaces: []string{"**/*.jsonl"}})
	if err != nil || g.Status != StatusSafe {
		t.Fatalf("%+v %v", g, err)
	}
}
