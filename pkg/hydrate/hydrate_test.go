package hydrate

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"github.com/rtch/rtch/pkg/brief"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/tokens"
)

// numbered returns n lines "prefix N: some text".
func numbered(prefix string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s line %d: value_%d = compute(%d)\n", prefix, i, i, i*7)
	}
	return b.String()
}

func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, s := range files {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func input(surfaces ...schema.RankedSurface) *Input {
	for i := range surfaces {
		surfaces[i].Rank = i + 1
		surfaces[i].Score = float64(100 - i)
	}
	return &Input{
		Zone: &schema.Zone{ZoneRoot: "/"},
		Rank: &schema.Rank{Surfaces: surfaces, Total: len(surfaces)},
	}
}

func opts(root string, budget int) Options {
	o := NewOptions(nil, nil, root)
	o.Budget = budget
	// The planned windows alone over the whole budget; TestDeepen covers
	// the final pass, TestStop the stop rule.
	o.Deepen = false
	o.EnoughFloor = 100
	return o
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func TestWindowsMergeAndWholeFile(t *testing.T) {
	root := writeTree(t, map[string]string{"big.go": numbered("big", 300), "small.go": numbered("small", 50)})
	in := input(
		schema.RankedSurface{Path: "big.go", Anchors: []int{100, 110, 200, 125}},
		schema.RankedSurface{Path: "small.go", Anchors: []int{10}},
	)
	res, err := Hydrate(in, opts(root, 100000))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range res.Chunks {
		got = append(got, c.Path+":"+c.LineRange)
	}
	// 110 lies inside 100's window; 125's window is clipped at 121 and merged
	// with [80,120] (union 80-145 is within two windows); 200 stands alone.
	// Chunks come in the order read: each top surface's first chunk before
	// any further window.
	want := []string{"big.go:L80-L145", "small.go:L1-L50", "big.go:L180-L220"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("chunks %v, want %v", got, want)
	}
	for _, c := range res.Chunks {
		f, err := ReadFile(root, c.Path, 0)
		if err != nil {
			t.Fatal(err)
		}
		if c.SHA256 != sum(f.Bytes(c.StartLine, c.EndLine)) || c.FileSHA256 != f.SHA256 {
			t.Fatalf("%s: hashes wrong", c.LineRange)
		}
		if c.EstTokens != tokens.Estimate(c.Text) {
			t.Fatalf("%s: est_tokens %d", c.LineRange, c.EstTokens)
		}
		if c.ChunkID == "" || c.ID != c.ChunkID || c.Kind != schema.KindChunk {
			t.Fatalf("envelope %+v", c.Envelope)
		}
	}
}

func TestKnownTargetWholeUnderFiveHundredLines(t *testing.T) {
	root := writeTree(t, map[string]string{"kt.go": numbered("kt", 400), "other.go": numbered("o", 400)})
	in := input(schema.RankedSurface{Path: "other.go", Anchors: []int{5}})
	in.Intake = &schema.Intake{IntakeFields: schema.IntakeFields{KnownTarget: "kt.go", FanoutLevel: "normal"}}
	res, err := Hydrate(in, opts(root, 100000))
	if err != nil {
		t.Fatal(err)
	}
	if res.Chunks[0].Path != "kt.go" || res.Chunks[0].LineRange != "L1-L400" {
		t.Fatalf("known target not read whole first: %s %s", res.Chunks[0].Path, res.Chunks[0].LineRange)
	}
	if res.Chunks[1].Path != "other.go" || res.Chunks[1].LineRange != "L1-L25" {
		t.Fatalf("other surface: %s %s", res.Chunks[1].Path, res.Chunks[1].LineRange)
	}
	in.Intake.FanoutLevel = "wide"
	o := opts(root, 100000)
	o.Fanout = "wide"
	res, _ = Hydrate(in, o)
	if res.Chunks[0].LineRange == "L1-L400" {
		t.Fatal("known target read whole at wide fanout")
	}
}

func TestKnownTargetRange(t *testing.T) {
	root := writeTree(t, map[string]string{"kt.go": numbered("kt", 3000)})
	in := input()
	in.Intake = &schema.Intake{IntakeFields: schema.IntakeFields{KnownTarget: "kt.go:L100-L2900"}}
	res, err := Hydrate(in, opts(root, 1000000))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Chunks) != 1 || res.Chunks[0].LineRange != "L100-L599" || res.Chunks[0].Rank != 0 {
		t.Fatalf("known target range not bounded to 500 lines: %+v", res.Chunks)
	}
	in.Intake.KnownTarget = "kt.go:1500"
	res, _ = Hydrate(in, opts(root, 1000000))
	if len(res.Chunks) != 1 || res.Chunks[0].LineRange != "L1480-L1520" || !strings.Contains(res.Chunks[0].WhyIncluded, "known target") {
		t.Fatalf("known target line: %+v", res.Chunks)
	}
}

func TestBudgetDepthFirstNeverExceeded(t *testing.T) {
	files := map[string]string{}
	var ss []schema.RankedSurface
	for i := 0; i < 12; i++ {
		p := fmt.Sprintf("f%02d.go", i)
		files[p] = numbered(p, 600)
		ss = append(ss, schema.RankedSurface{Path: p, Anchors: []int{100, 300, 500}})
	}
	root := writeTree(t, files)
	for _, budget := range []int{300, 1500, 4000, 8000, 30000} {
		res, err := Hydrate(input(ss...), opts(root, budget))
		if err != nil {
			t.Fatal(err)
		}
		text := 0
		per := map[string]int{}
		for _, c := range res.Chunks {
			text += c.EstTokens
			per[c.Path]++
		}
		// What the chunks cost as the brief writes them is what was spent,
		// within the budget less the part held for the brief's frame.
		total := briefCost(res.Chunks)
		if total > budget-FrameReserve(input(ss...), budget, tokens.Chars4) || res.Spent != total || text >= total && total > 0 {
			t.Fatalf("budget %d: spent %d (reported %d), text %d", budget, total, res.Spent, text)
		}
		// Depth before breadth: no surface below the top three holds a
		// chunk while one of the top three lacks one of its three windows.
		below := false
		for _, s := range ss[3:] {
			below = below || per[s.Path] > 0
		}
		for i := 0; i < 3 && below; i++ {
			if per[ss[i].Path] < 3 {
				t.Fatalf("budget %d: a surface below the top three was read while %s holds %d of its 3 windows: %v", budget, ss[i].Path, per[ss[i].Path], per)
			}
		}
		if per[ss[0].Path] == 0 && budget >= 1500 {
			t.Fatalf("budget %d: top surface unread", budget)
		}
		// Everything not read is a skip.
		unread := 0
		for _, s := range res.Skips {
			if s.Reason == "budget" {
				unread++
			}
		}
		if budget < 30000 && unread == 0 {
			t.Fatalf("budget %d: no budget skips", budget)
		}
	}
}

func TestNarrowWindowWhenFullDoesNotFit(t *testing.T) {
	root := writeTree(t, map[string]string{"a.go": numbered("a", 600)})
	res, err := Hydrate(input(schema.RankedSurface{Path: "a.go", Anchors: []int{300}}), opts(root, 200))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Chunks) != 1 || res.Chunks[0].LineRange != "L295-L305" {
		t.Fatalf("want a narrow chunk, got %+v", res.Chunks)
	}
	if !strings.Contains(res.Chunks[0].Limitation, "narrowed") {
		t.Fatalf("limitation %q", res.Chunks[0].Limitation)
	}
}

func TestLongLineBounded(t *testing.T) {
	long := strings.Repeat("x", 10<<20)
	root := writeTree(t, map[string]string{"min.js": "var a=1;\n" + long + "\nend\n"})
	o := opts(root, 8000)
	res, err := Hydrate(input(schema.RankedSurface{Path: "min.js", Anchors: []int{2}}), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Chunks) != 0 || len(res.Skips) != 1 || res.Skips[0].Reason != "too_large" {
		t.Fatalf("over the size cap: chunks %d skips %+v", len(res.Chunks), res.Skips)
	}
	o.MaxFileSize = 0
	res, err = Hydrate(input(schema.RankedSurface{Path: "min.js", Anchors: []int{2}}), o)
	if err != nil {
		t.Fatal(err)
	}
	c := res.Chunks[0]
	if len(c.Text) > 2*DefaultMaxLineRunes || !strings.Contains(strings.Join(c.Flags, ","), "truncated_lines") {
		t.Fatalf("long line not capped: %d bytes, flags %v", len(c.Text), c.Flags)
	}
	f, _ := ReadFile(root, "min.js", 0)
	if c.SHA256 != sum(f.Bytes(1, 3)) {
		t.Fatal("sha256 must cover the original, uncut line")
	}
}

func TestCorrectedRecordAsEffectiveView(t *testing.T) {
	rows := `{"id":"r1","status":"open"}
{"id":"r2","status":"open","owner":"ann"}
{"type":"record_correction","correction_id":"c1","target_record_id":"r2","patch":{"status":"closed"}}
`
	root := writeTree(t, map[string]string{"audit-logs/x.jsonl": rows})
	in := input(schema.RankedSurface{Path: "audit-logs/x.jsonl", Anchors: []int{2}})
	in.Gate = &schema.Gate{Status: "corrected", EffectiveRecords: []schema.EffectiveRecord{{
		TargetRecordID: "r2", TargetSurface: "audit-logs/x.jsonl", BaseLocation: "audit-logs/x.jsonl:L2",
		EffectiveRecord: map[string]any{"id": "r2", "status": "closed", "owner": "ann"}, AppliedCorrectionIDs: []string{"c1"},
	}}}
	res, err := Hydrate(in, opts(root, 8000))
	if err != nil {
		t.Fatal(err)
	}
	var view *schema.Chunk
	for i, c := range res.Chunks {
		if c.ConfidenceClass == "effective_record_view" {
			view = &res.Chunks[i]
			continue
		}
		if strings.Contains(c.Text, `"owner":"ann"`) {
			t.Fatalf("raw corrected row hydrated in %s", c.LineRange)
		}
	}
	if view == nil || !strings.Contains(view.Text, `"status":"closed"`) || view.LineRange != "L2-L2" {
		t.Fatalf("no effective view: %+v", res.Chunks)
	}
	if view.BaseReEntryCommand != "rtch-hydrate --reenter audit-logs/x.jsonl:L2-L2" || !strings.Contains(view.NextReEntryCommand, "rtch-zone --gate-only") {
		t.Fatalf("re-entry commands %q / %q", view.NextReEntryCommand, view.BaseReEntryCommand)
	}
	if view.SHA256 != sum([]byte(view.Text)) {
		t.Fatal("effective view sha256 must be over its text")
	}
	found := false
	for _, s := range res.Skips {
		if s.Reason == "corrected_record" && strings.Contains(s.Detail, "r2") {
			found = true
		}
	}
	if !found {
		t.Fatalf("no corrected_record skip: %+v", res.Skips)
	}
}

func TestProtectFlagsAndOriginalHash(t *testing.T) {
	root := writeTree(t, map[string]string{"cfg.py": "a = 1\npassword = 'hunter2hunter2'\nb = 2\n"})
	o := opts(root, 8000)
	// The text reaches the protector already redacted (from the whole file);
	// the chunk's flags name the rule even when the protector adds none.
	o.Protect = func(s string) (string, []string) { return s, nil }
	res, err := Hydrate(input(schema.RankedSurface{Path: "cfg.py", Anchors: []int{2}}), o)
	if err != nil {
		t.Fatal(err)
	}
	c := res.Chunks[0]
	if strings.Contains(c.Text, "hunter2") || !slices.Contains(c.Flags, "redacted:password-assignment") {
		t.Fatalf("not redacted: %q %v", c.Text, c.Flags)
	}
	f, _ := ReadFile(root, "cfg.py", 0)
	if c.SHA256 != sum(f.Bytes(1, 3)) {
		t.Fatal("sha256 not over the original bytes")
	}
	if !strings.Contains(c.Limitation, "redacted") {
		t.Fatalf("limitation %q", c.Limitation)
	}
}

func TestPerProbeCap(t *testing.T) {
	root := writeTree(t, map[string]string{"a.go": numbered("a", 2000)})
	var anchors []int
	var hits []schema.Hit
	for i := 0; i < 12; i++ {
		l := 50 + i*150
		anchors = append(anchors, l)
		hits = append(hits, schema.Hit{ProbeID: "P01", Path: "a.go", Line: l, Term: "value", ConfidenceClass: "source_bearing_hit"})
	}
	in := input(schema.RankedSurface{Path: "a.go", Anchors: anchors})
	in.Hits = hits
	res, err := Hydrate(in, opts(root, 100000))
	if err != nil {
		t.Fatal(err)
	}
	// The surface's first chunk is the ranking's; eight more are P01's.
	if len(res.Chunks) != 9 {
		t.Fatalf("%d chunks, want the first plus the cap of 8", len(res.Chunks))
	}
	capped := false
	for _, s := range res.Skips {
		if s.Reason == "cost" && strings.Contains(s.Detail, "probe P01 reached its cap of 8") {
			capped = true
		}
	}
	if !capped {
		t.Fatalf("no cap skip: %+v", res.Skips)
	}
	if res.Chunks[0].ConfidenceClass != "hydrated_evidence" || res.Chunks[0].ProbeID != "P01" {
		t.Fatalf("class %q probe %q", res.Chunks[0].ConfidenceClass, res.Chunks[0].ProbeID)
	}
	// A window that also holds another probe's hit counts against that probe
	// once P01 is full.
	in.Hits = append(in.Hits, schema.Hit{ProbeID: "P02", Path: "a.go", Line: 50 + 10*150 + 3, Term: "other", ConfidenceClass: "hit"})
	res, _ = Hydrate(in, opts(root, 100000))
	if len(res.Chunks) != 10 {
		t.Fatalf("%d chunks, want the first, 8 for P01 and one charged to P02", len(res.Chunks))
	}
	// Twelve ranked surfaces anchored by the same probe each get a first chunk.
	files := map[string]string{}
	var ss []schema.RankedSurface
	hits = nil
	for i := 0; i < 12; i++ {
		p := fmt.Sprintf("s%02d.go", i)
		files[p] = numbered(p, 400)
		ss = append(ss, schema.RankedSurface{Path: p, Anchors: []int{100}})
		hits = append(hits, schema.Hit{ProbeID: "P01", Path: p, Line: 100, Term: "value", ConfidenceClass: "source_bearing_hit"})
	}
	in = input(ss...)
	in.Hits = hits
	res, _ = Hydrate(in, opts(writeTree(t, files), 100000))
	// The term occurs on every line, so each file has more windows to give:
	// all of them after the first chunks count against P01, up to its cap.
	held := map[string]bool{}
	for _, c := range res.Chunks {
		held[c.Path] = true
	}
	if len(held) != 12 || len(res.Chunks) != 12+8 {
		t.Fatalf("%d chunks on %d surfaces, want a first chunk on each of 12 surfaces and 8 more", len(res.Chunks), len(held))
	}
}

func TestForbiddenAndUnreadableSkips(t *testing.T) {
	root := writeTree(t, map[string]string{"vendor/x.go": "x\n", "ok.go": "ok\n", "bin.dat": "a\x00b"})
	in := input(
		schema.RankedSurface{Path: "vendor/x.go"},
		schema.RankedSurface{Path: "gone.go"},
		schema.RankedSurface{Path: "bin.dat"},
		schema.RankedSurface{Path: "ok.go"},
	)
	in.Intake = &schema.Intake{IntakeFields: schema.IntakeFields{ForbiddenAssumptions: []string{"vendor/", "the bug is not in the lexer"}}}
	in.Hits = []schema.Hit{{Path: "unranked.go", Line: 3}}
	res, err := Hydrate(in, opts(root, 8000))
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string]string{}
	for _, s := range res.Skips {
		reasons[s.Path] = s.Reason
		if s.Stage != Stage || s.ID == "" {
			t.Fatalf("skip %+v", s)
		}
	}
	want := map[string]string{"vendor/x.go": "forbidden", "gone.go": "unreadable", "bin.dat": "binary", "unranked.go": "cost"}
	for p, r := range want {
		if reasons[p] != r {
			t.Errorf("%s: reason %q, want %q", p, reasons[p], r)
		}
	}
	if len(res.Chunks) != 1 || res.Chunks[0].Path != "ok.go" {
		t.Fatalf("chunks %+v", res.Chunks)
	}
}

func TestNoRankNoZone(t *testing.T) {
	if _, err := Hydrate(&Input{Zone: &schema.Zone{}}, Options{}); err != ErrNoRank {
		t.Fatalf("got %v", err)
	}
	if _, err := Hydrate(&Input{Rank: &schema.Rank{}}, Options{}); err != ErrNoZone {
		t.Fatalf("got %v", err)
	}
}

func TestReenterReproducesChunkAndSed(t *testing.T) {
	content := "\xef\xbb\xbffirst\r\nsecond line\n\xff bad utf8\nno newline at end"
	root := writeTree(t, map[string]string{"dir with space/it's.txt": content, "b.go": numbered("b", 120), "new\nline\tname.txt": "one\ntwo\n"})
	res, err := Hydrate(input(
		schema.RankedSurface{Path: "b.go", Anchors: []int{60}},
		schema.RankedSurface{Path: "dir with space/it's.txt", Anchors: []int{2}},
		schema.RankedSurface{Path: "new\nline\tname.txt", Anchors: []int{1}},
	), opts(root, 8000))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Chunks) != 3 {
		t.Fatalf("%d chunks", len(res.Chunks))
	}
	// A control character in a name is quoted as $'…', which bash reads
	// (dash, the sh of Debian, does not); every command stays on one line.
	shell := "sh"
	if _, err := exec.LookPath("bash"); err == nil {
		shell = "bash"
	}
	_, sedErr := exec.LookPath("sed")
	for _, c := range res.Chunks {
		if strings.ContainsAny(c.NextReEntryCommand+c.SedCommand, "\n\t") {
			t.Fatalf("a command spans a control character: %q / %q", c.NextReEntryCommand, c.SedCommand)
		}
		if shell == "sh" && strings.Contains(c.NextReEntryCommand, "$'") {
			continue
		}
		arg := strings.TrimPrefix(c.NextReEntryCommand, "rtch-hydrate --reenter ")
		out, err := exec.Command(shell, "-c", "printf %s "+arg).Output()
		if err != nil {
			t.Fatal(err)
		}
		r, err := ParseRange(string(out))
		if err != nil {
			t.Fatal(err)
		}
		re, err := Reenter(r, ReenterOptions{Root: root})
		if err != nil {
			t.Fatal(err)
		}
		if re.SHA256 != c.SHA256 || re.ChunkID != c.ChunkID || re.Text != c.Text {
			t.Fatalf("%s: re-entry differs", c.NextReEntryCommand)
		}
		if sedErr == nil {
			cmd := exec.Command(shell, "-c", c.SedCommand)
			cmd.Dir = root
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s: %v", c.SedCommand, err)
			}
			if sum(out) != c.SHA256 {
				t.Fatalf("%s: sed output %q does not hash to the chunk's sha256", c.SedCommand, out)
			}
		}
	}
	txt := res.Chunks[1].Text
	if strings.Contains(txt, "\r") || strings.Contains(txt, "\ufeff") || !strings.Contains(txt, "\ufffd bad utf8") {
		t.Fatalf("text not cleaned: %q", txt)
	}
	// A window form and errors.
	c, err := Reenter(Range{Path: "b.go", Line: 10}, ReenterOptions{Root: root, Window: 3})
	if err != nil || c.LineRange != "L7-L13" || c.TargetLine != 10 {
		t.Fatalf("window: %+v %v", c.LineRange, err)
	}
	for _, r := range []Range{{Path: "b.go", Start: 500, End: 510}, {Path: "../etc/passwd", Start: 1, End: 2}, {Path: "nope.go", Start: 1, End: 1}} {
		if _, err := Reenter(r, ReenterOptions{Root: root}); err == nil {
			t.Errorf("%v: no error", r)
		}
	}
}

func TestSymlinkEscapeRefused(t *testing.T) {
	root := writeTree(t, map[string]string{"a.txt": "a\n"})
	outside := writeTree(t, map[string]string{"secret.txt": "s\n"})
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "link.txt")); err != nil {
		t.Skip(err)
	}
	if _, err := ReadFile(root, "link.txt", 0); err == nil || !strings.Contains(err.Error(), "symlink_escape") {
		t.Fatalf("escape not refused: %v", err)
	}
}

func TestRehydrateStatuses(t *testing.T) {
	base := numbered("r", 300)
	root := writeTree(t, map[string]string{"keep.go": base, "move.go": base, "edit.go": base, "del.go": base})
	var ss []schema.RankedSurface
	for _, p := range []string{"keep.go", "move.go", "edit.go", "del.go"} {
		ss = append(ss, schema.RankedSurface{Path: p, Anchors: []int{50}})
	}
	res, err := Hydrate(input(ss...), opts(root, 100000))
	if err != nil {
		t.Fatal(err)
	}
	p := &schema.Packet{PacketID: "rtch_packet_test", HydratedChunks: res.Chunks}

	r := Rehydrate(p, RehydrateOptions{Root: root})
	if r.Overall != Refreshed || r.Counts[Refreshed] != 4 {
		t.Fatalf("unchanged tree: %+v", r)
	}
	write := func(name, s string) {
		if err := os.WriteFile(filepath.Join(root, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("move.go", "// new header\n// another\n// and one more\n"+base)
	lines := strings.SplitAfter(base, "\n")
	lines[49] = "changed anchor line\n"
	write("edit.go", "// inserted\n"+strings.Join(lines, ""))
	if err := os.Remove(filepath.Join(root, "del.go")); err != nil {
		t.Fatal(err)
	}
	r = Rehydrate(p, RehydrateOptions{Root: root})
	got := map[string]schema.RehydratedChunk{}
	for _, c := range r.Chunks {
		got[c.Path] = c
	}
	if got["keep.go"].Status != Refreshed {
		t.Errorf("keep: %+v", got["keep.go"])
	}
	if c := got["move.go"]; c.Status != DriftDetected || c.NewLineRange != "L33-L73" || c.NewSHA256 != c.OldSHA256 {
		t.Errorf("move: %+v", c)
	}
	if c := got["edit.go"]; c.Status != DriftDetected || c.NewLineRange != "L31-L71" || !strings.Contains(c.Detail, "re-located from L50 to L51") {
		t.Errorf("edit: %+v", c)
	}
	if c := got["del.go"]; c.Status != Superseded {
		t.Errorf("del: %+v", c)
	}
	if r.Overall != Superseded {
		t.Errorf("overall %s", r.Overall)
	}
	// Effective views hold; a raw chunk over a row corrected since is superseded.
	p.HydratedChunks = append(p.HydratedChunks, schema.Chunk{Path: "keep.go", LineRange: "L1-L1", StartLine: 1, EndLine: 1, ConfidenceClass: "effective_record_view", NextReEntryCommand: "x"})
	p.EffectiveRecordProjection.EffectiveRecords = []schema.EffectiveRecord{{TargetRecordID: "r9", BaseLocation: "keep.go:L40"}}
	r = Rehydrate(p, RehydrateOptions{Root: root})
	if r.Chunks[0].Status != Superseded || r.Chunks[4].Status != EffectiveRecordHold {
		t.Errorf("projection: %+v / %+v", r.Chunks[0], r.Chunks[4])
	}
}

// briefCost is what chunks cost as the brief writes them.
func briefCost(cs []schema.Chunk) int {
	n := 0
	for _, c := range cs {
		n += tokens.Estimate(brief.Chunk(c))
	}
	return n
}
