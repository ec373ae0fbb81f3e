package protect

import "github.com/rtch/rtch/pkg/internal/bounded"

// Wrap's escaping is a function of the text alone, and the same texts are
// escaped again and again: the md brief renders every chunk anew each time
// it shortens itself to fit its budget, and rtch-mcp renders the same
// chunks on every repeat call. escapeText keeps the escaping of texts up to
// keptMax bytes, keyed by the text itself, within these bounds.
const (
	keptMax   = 64 << 10
	keptTexts = 1 << 12
	keptBytes = 16 << 20
)

var kept = bounded.Texts[string]{Limit: keptTexts, MaxSize: keptBytes}

// escapeText is escape through the kept texts.
func escapeText(text string) string {
	if len(text) > keptMax {
		return escape(text)
	}
	if out, ok := kept.Get(text); ok {
		return out
	}
	out := escape(text)
	kept.Put(text, out, len(out))
	return out
}
