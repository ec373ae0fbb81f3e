package secret

import (
	"slices"
	"sync/atomic"

	"github.com/rtch/rtch/pkg/internal/bounded"
)

// A long-lived host (rtch-mcp) redacts the same texts call after call:
// the chunks of files it hydrated before, the lines of a packet it wrote
// before, the strings of its replies. Once KeepFindings is on, Redact keeps
// the findings of every text of keptMin to keptMax bytes, keyed by the text
// itself (Find, which screens whole files for the index, does not: a file
// is screened once). They are a function of the text alone (the rules are
// fixed for the life of the process), so a kept answer cannot go stale. A
// packet is thousands of short lines at its boundary, most of them the
// same from one call to the next (the skipped files, the chunks a question
// shares with the last), hence the low minimum; longer texts (a whole
// reply) are seldom searched twice.
const (
	keptMin   = 8
	keptMax   = 16 << 10
	keptTexts = 1 << 14
	keptBytes = 8 << 20
)

var (
	keepOn atomic.Bool
	kept   = bounded.Texts[[]Finding]{Limit: keptTexts, MaxSize: keptBytes}
)

// KeepFindings turns the cache of findings on for the rest of the process.
func KeepFindings() { keepOn.Store(true) }

// findKept is Find through the cache.
func findKept(text string) []Finding {
	if !keepOn.Load() || len(text) < keptMin || len(text) > keptMax || !enabled {
		return Find(text)
	}
	if fs, ok := kept.Get(text); ok {
		return slices.Clone(fs)
	}
	fs := Find(text)
	kept.Put(text, slices.Clone(fs), 0)
	return fs
}
