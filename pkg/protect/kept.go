package protect

import (
	"strings"
	"sync"

	"github.com/rtch/rtch/pkg/internal/bounded"
)

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

var kept = struct {
	mu sync.Mutex
	m  bounded.Map[string, keptEscape]
}{m: bounded.Map[string, keptEscape]{Limit: keptTexts, MaxSize: keptBytes,
	Size: func(k keptEscape) int { return k.size }}}

// keptEscape is a text's escaping and the bytes the entry holds, the text
// being the key.
type keptEscape struct {
	escaped string
	size    int
}

// escapeText is escape through the kept texts.
func escapeText(text string) string {
	if len(text) > keptMax {
		return escape(text)
	}
	kept.mu.Lock()
	k, ok := kept.m.Get(text)
	kept.mu.Unlock()
	if ok {
		return k.escaped
	}
	out := escape(text)
	key := strings.Clone(text) // text may alias a caller's buffer
	k = keptEscape{escaped: out, size: len(key)}
	if out == text {
		k.escaped = key
	} else {
		k.size += len(out)
	}
	kept.mu.Lock()
	kept.m.Put(key, k)
	kept.mu.Unlock()
	return out
}
