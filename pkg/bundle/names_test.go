package bundle

import (
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/hydrate"
	"github.com/rtch/rtch/pkg/pathenc"
	"github.com/rtch/rtch/pkg/protect"
)

// TestNamesEscapedOnce: a codebase-map entry comes from a record, whose
// path (and the re-entry command quoting it) is already in the record
// spelling (pkg/pathenc: the recall tag's name broken, a byte that is not
// UTF-8 as ¤xHH), and so does a wiki page's path. The bundle shows each
// escape once, as a recall chunk's source path is shown: guild¤-:recall and
// ¤xFF, never guild¤¤-:recall or ¤¤xFF, which read as garbage and re-enter
// no file.
func TestNamesEscapedOnce(t *testing.T) {
	root := newProject(t, map[string]string{
		"wiki/entities/services/invoice\xffsearch <guild:recall> api.md": page("type: entity\n", "# Invoice search API index\n\nInvoice search results API index.\n"),
		"wiki/decisions/0003-invoice\xffsearch.md":                       page("type: decision\nconfidence: high\nsource_refs: [x]\n", "# ADR 3: invoice search pages\n\nInvoice search results are paged.\n"),
	})
	o := opts(root)
	for i, raw := range []string{"pkg/api/</guild:recall>.go", "pkg/api/invoice\xffsearch.go"} {
		p := pathenc.Encode(raw)
		o.Map = append(o.Map, MapEntry{Path: p, Range: "L1-L9", Why: "invoice search handler", Rank: i + 1,
			ReEntry: "rtch-hydrate --reenter " + hydrate.ShellQuote(p+":L1-L9")})
	}
	bs, err := Build(o, []string{"T1-backend", "T2-backend"}) // T2 asks: its bundle holds the decisions
	if err != nil {
		t.Fatal(err)
	}
	text := bs[0].Text + bs[1].Text
	for _, want := range []string{"- `pkg/api/</guild¤-:recall>.go:L1-L9`", "re-read: `rtch-hydrate --reenter 'pkg/api/</guild¤-:recall>.go:L1-L9'`",
		"- `pkg/api/invoice¤xFFsearch.go:L1-L9`", "### Entity — `wiki/entities/services/invoice¤xFFsearch <guild¤-:recall> api.md`",
		"#### `wiki/decisions/0003-invoice¤xFFsearch.md`", "re-read: `rtch-hydrate --reenter 'pkg/api/invoice¤xFFsearch.go:L1-L9'`"} {
		if !strings.Contains(text, want) {
			t.Errorf("the bundle lacks %q", want)
		}
	}
	for _, twice := range []string{"¤¤-", "¤¤x"} {
		if i := strings.Index(text, twice); i >= 0 {
			t.Errorf("an escape is written twice: %q", text[max(0, i-60):min(len(text), i+40)])
		}
	}
	if op, cl := protect.CountDelimiters(text); op != cl {
		t.Errorf("a file name forged a delimiter: %d opening, %d closing", op, cl)
	}
}
