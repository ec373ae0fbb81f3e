package hydrate

import (
	"testing"

	"github.com/rtch/rtch/pkg/schema"
)

func TestCovers(t *testing.T) {
	c := schema.Chunk{Path: "pkg/Flags/parse.go", Text: "func ParseFlags() {}"}
	for term, want := range map[string]bool{"parseflags": true, "ParseFlags": true, "parseFlags": false, "flags/parse": true, "Flags/parse": true, "missing": false} {
		if Covers(c, term) != want {
			t.Errorf("Covers(%q) = %v", term, !want)
		}
	}
}
