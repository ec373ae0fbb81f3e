package codegraph

import (
	"bytes"

	"github.com/rtch/rtch/pkg/symbols"
)

// Extract reads one file alone: its language, definitions, imports and
// uses. It needs nothing but the path and the bytes, so its result can be
// cached per content hash. A file of a language the graph does not read
// gets Facts with an empty Lang.
func Extract(path string, src []byte) Facts {
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	f := Facts{Path: path, Lang: symbols.Lang(path), Lines: countLines(src)}
	switch f.Lang {
	case "go":
		extractGo(&f, src)
	case "python":
		extractPython(&f, src)
	case "":
	default:
		extractPatterned(&f, src)
	}
	return f
}

func countLines(src []byte) int {
	n := bytes.Count(src, []byte("\n"))
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return n
}
