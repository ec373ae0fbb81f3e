package rtchmcp

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/internal/testtree"
)

// rtch_packet pages through the whole packet of a call: the outline with
// its long lists replaced by their length, a list from an offset with the
// call for the next page, every item once; a packet persisted by another
// server is read from its file; an unknown id and section say so.
func TestPacketPages(t *testing.T) {
	root := repo(t)
	for i := range 400 {
		testtree.Write(t, root, fmt.Sprintf("blobs/b%03d.bin", i), "\x00binary\x00")
	}
	cs := connect(t, root, nil)
	res := callTool(t, cs, "rtch_context", map[string]any{"goal": "find where ReadLine reports a malformed line", "enough": "the function is hydrated", "persist": true})
	if res.IsError {
		t.Fatal(textOf(res))
	}
	b, _ := json.Marshal(res.StructuredContent)
	var sum struct {
		ID      string `json:"packet_id"`
		Skipped struct {
			Total int `json:"total"`
		} `json:"skipped"`
	}
	json.Unmarshal(b, &sum)
	if sum.Skipped.Total < 400 {
		t.Fatalf("summary: %s", b)
	}

	outline := textOf(callTool(t, cs, "rtch_packet", map[string]any{"packet": sum.ID}))
	want := fmt.Sprintf(`"skipped_surfaces":"[%d items: rtch_packet packet=%s section=skipped_surfaces]"`, sum.Skipped.Total, sum.ID)
	if !strings.Contains(outline, want) || !strings.Contains(outline, `"halting_reason":`) {
		t.Fatalf("outline lacks %s:\n%.2000s", want, outline)
	}

	next := regexp.MustCompile(`next: rtch_packet packet=\S+ section=skipped_surfaces offset=(\d+)`)
	seen := map[string]bool{}
	offset := 0
	for pages := 0; ; pages++ {
		page := textOf(callTool(t, cs, "rtch_packet", map[string]any{"packet": sum.ID, "section": "skipped_surfaces", "offset": offset}))
		lines := strings.Split(strings.TrimSpace(page), "\n")
		for _, l := range lines[1:] {
			var sk struct{ Path string }
			if err := json.Unmarshal([]byte(l), &sk); err != nil {
				t.Fatalf("page line %q: %v", l, err)
			}
			if seen[sk.Path] {
				t.Fatalf("%s on two pages", sk.Path)
			}
			seen[sk.Path] = true
		}
		m := next.FindStringSubmatch(lines[0])
		if m == nil {
			break
		}
		fmt.Sscan(m[1], &offset)
		if pages > 50 {
			t.Fatal("paging does not end")
		}
	}
	if len(seen) != sum.Skipped.Total {
		t.Fatalf("pages held %d skips of %d", len(seen), sum.Skipped.Total)
	}

	// Another server, which made no call, reads the persisted packet.
	other := connect(t, root, nil)
	if res := callTool(t, other, "rtch_packet", map[string]any{"packet": sum.ID, "section": "halting_reason"}); res.IsError || !strings.Contains(textOf(res), `"`) {
		t.Fatalf("persisted packet: %s", textOf(res))
	}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"packet": "rtch_packet_000000000000"}, `packet "rtch_packet_000000000000": unknown: no rtch_context call of this server made it`},
		{map[string]any{"packet": "latest"}, `packet "latest": not a packet id`},
		{map[string]any{"packet": sum.ID, "section": "nope"}, `section "nope": no part "nope" here; the parts are budget, candidate_basket,`},
		{map[string]any{"packet": sum.ID, "section": "budget", "offset": 3}, `offset 3: section "budget" is not a list`},
	} {
		res := callTool(t, other, "rtch_packet", c.args)
		if !res.IsError || !strings.Contains(textOf(res), c.want) {
			t.Errorf("rtch_packet %v: %q, want %q", c.args, textOf(res), c.want)
		}
	}
}
