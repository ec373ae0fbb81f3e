package main

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strconv"

	"github.com/rtch/rtch/pkg/symbols"
)

// hunkHeader is a unified diff hunk header; the old side's start and count.
var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@`)

// goldLines are the base-side line ranges a commit touched in each file, as
// the evaluation sets give them: a hunk that deletes or changes lines a..b
// is [a, b]; one that only inserts after line a is [a, a] (line 1 for an
// insertion at the top).
func goldLines(gitDir, parent, commit string, files []string) (map[string][][2]int, error) {
	args := append([]string{"diff", "-U0", "--no-renames", "--no-ext-diff", "--no-color", parent, commit, "--"}, files...)
	out, err := git(gitDir, args...)
	if err != nil {
		return nil, err
	}
	return parseHunks(out)
}

// parseHunks reads `git diff -U0` output into base-side ranges per file.
func parseHunks(diff []byte) (map[string][][2]int, error) {
	ranges := map[string][][2]int{}
	cur := ""
	for _, line := range bytes.Split(diff, []byte("\n")) {
		switch {
		case bytes.HasPrefix(line, []byte("--- a/")):
			cur = string(line[len("--- a/"):])
		case bytes.HasPrefix(line, []byte("--- ")):
			cur = ""
		case bytes.HasPrefix(line, []byte("@@ ")):
			m := hunkHeader.FindSubmatch(line)
			if m == nil {
				return nil, fmt.Errorf("diff: hunk header %q", line)
			}
			if cur == "" {
				continue
			}
			a, _ := strconv.Atoi(string(m[1]))
			n := 1
			if len(m[2]) > 0 {
				n, _ = strconv.Atoi(string(m[2]))
			}
			r := [2]int{a, a + n - 1}
			if n == 0 {
				r = [2]int{max(a, 1), max(a, 1)}
			}
			ranges[cur] = append(ranges[cur], r)
		}
	}
	return ranges, nil
}

// goldFunc is a definition enclosing changed base-side lines.
type goldFunc struct {
	Name  string `json:"name"`
	Kind  string `json:"kind"`
	Start int    `json:"start"`
	End   int    `json:"end"`
}

// goldFunctions are, for one file's base-side source, the innermost
// definitions (pkg/symbols, with symbols.End for their last line) that
// enclose a line of each range: the functions, methods or types the fix
// changed. Lines outside every definition (imports, top-level statements)
// name none. A definition whose end the line scanner cannot find is
// skipped.
func goldFunctions(path string, src []byte, ranges [][2]int) []goldFunc {
	lang := symbols.Lang(path)
	syms := symbols.Extract(path, src)
	if len(syms) == 0 {
		return nil
	}
	lines := bytes.Split(src, []byte("\n"))
	type span struct {
		s   symbols.Symbol
		end int
	}
	var spans []span
	for _, s := range syms {
		if e := symbols.End(lang, lines, s.Line); e >= s.Line {
			spans = append(spans, span{s, e})
		}
	}
	seen := map[string]bool{}
	var out []goldFunc
	for _, r := range ranges {
		for l := r[0]; l <= r[1]; l++ {
			best := -1
			for i, sp := range spans {
				if sp.s.Line <= l && l <= sp.end && (best < 0 || sp.end-sp.s.Line < spans[best].end-spans[best].s.Line) {
					best = i
				}
			}
			if best < 0 {
				continue
			}
			sp := spans[best]
			name := sp.s.Name
			if sp.s.Container != "" {
				name = sp.s.Container + "." + name
			}
			key := fmt.Sprintf("%s:%d", name, sp.s.Line)
			if !seen[key] {
				seen[key] = true
				out = append(out, goldFunc{Name: name, Kind: sp.s.Kind, Start: sp.s.Line, End: sp.end})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}
