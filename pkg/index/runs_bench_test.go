package index

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
)

// goWords is the distinct folded words of a few GOROOT packages, one a
// line, in the order of their first appearance (as a dictionary's text).
func goWords(b *testing.B) []byte {
	seen := map[string]bool{}
	var text []byte
	for _, d := range []string{"net", "encoding", "go", "crypto", "runtime"} {
		filepath.WalkDir(filepath.Join(runtime.GOROOT(), "src", d), func(p string, de fs.DirEntry, err error) error {
			if err != nil || de.IsDir() {
				return nil
			}
			data, _ := os.ReadFile(p)
			eachTextWord(bytes.ToLower(data), func(w []byte) {
				if !seen[string(w)] {
					seen[string(w)] = true
					text = append(append(text, w...), '\n')
				}
			})
			return nil
		})
	}
	return text
}

func eachTextWord(data []byte, fn func([]byte)) {
	for i := 0; i < len(data); {
		for i < len(data) && !wordByte(data[i]) {
			i++
		}
		j := i
		for j < len(data) && wordByte(data[j]) {
			j++
		}
		if j > i {
			fn(data[i:j])
		}
		i = j
	}
}

// BenchmarkRunSearch: the automaton against a pass per run over real
// words, for goals of few and many runs.
func BenchmarkRunSearch(b *testing.B) {
	text := goWords(b)
	pool := []string{"http", "server", "parse", "duration", "time", "second", "json", "unmarshal", "a", "b", "1", "5", "filepath", "join", "clean", "url", "values", "strings", "builder", "go", "mod", "request", "context", "cancel", "error", "nil", "read", "write", "buffer", "x", "y", "z"}
	b.Logf("%d bytes of words", len(text))
	for _, n := range []int{2, 4, 8, 16, 32} {
		runs := slices.Clone(pool[:n])
		b.Run(fmt.Sprintf("automaton-%d", n), func(b *testing.B) {
			for b.Loop() {
				newRunFinder(runs).lines(text, nil)
			}
		})
		b.Run(fmt.Sprintf("each-run-%d", n), func(b *testing.B) {
			for b.Loop() {
				for _, r := range runs {
					linesWith(text, []byte(r), func(int, int, []byte) {})
				}
			}
		})
	}
}
