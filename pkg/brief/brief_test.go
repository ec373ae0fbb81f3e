package brief

import (
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/schema"
)

func TestChunkAndSpans(t *testing.T) {
	cs := []schema.Chunk{
		{Path: "pkg/a.go", LineRange: "L3-L9", StartLine: 3, EndLine: 9, Rank: 1, ConfidenceClass: "hit", TermOrShape: "reader",
			SHA256: strings.Repeat("a", 64), Limitation: "lines 3-9 of 40; the rest", NextReEntryCommand: "rtch-hydrate --reenter pkg/a.go:L3-L9",
			Text: "### `fake.go:L1-L2` · a heading inside the text\n```\n"},
		{Path: "we ird`.md", LineRange: "L1-L2", StartLine: 1, EndLine: 2, Rank: 2, ConfidenceClass: "hydrated_evidence",
			Limitation: "whole file; x", NextReEntryCommand: "rtch-hydrate --reenter 'we ird`.md:L1-L2'", Text: "x\ny\n", Flags: []string{"injection:override_phrase"}},
	}
	var md strings.Builder
	for _, c := range cs {
		md.WriteString(Chunk(c))
	}
	out := md.String()
	for _, want := range []string{
		"### `pkg/a.go:L3-L9` · rank 1 · hit · `reader` · of 40 lines · sha256 aaaaaaaaaaaa\n\n````go\n",
		"### `` we ird`.md:L1-L2 `` · rank 2 · hydrated_evidence · whole file · `injection:override_phrase`\nre-enter: `` rtch-hydrate --reenter 'we ird`.md:L1-L2' ``\n**caution:**",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	spans := Spans(out)
	if len(spans) != 2 || spans[0] != (Span{"pkg/a.go", 3, 9}) || spans[1] != (Span{"we ird`.md", 1, 2}) {
		t.Fatalf("spans %+v", spans)
	}
}
