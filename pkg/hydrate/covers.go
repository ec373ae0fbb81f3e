package hydrate

import (
	"strings"

	"github.com/rtch/rtch/pkg/schema"
)

// Covers reports whether chunk c holds term in its text or path; a term
// written in lower case matches any case, as the probes search it.
func Covers(c schema.Chunk, term string) bool {
	text, path := c.Text, c.Path
	if strings.ToLower(term) == term {
		text, path = strings.ToLower(text), strings.ToLower(path)
	}
	return strings.Contains(text, term) || strings.Contains(path, term)
}
