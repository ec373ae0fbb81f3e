package codegraph

import (
	"bytes"
	"regexp"
	"strings"
	"sync"

	"github.com/rtch/rtch/pkg/symbols"
)

// importRule finds one import form; group 1 is the spec.
type importRule struct {
	re    *regexp.Regexp
	local bool
}

// importRules are the import forms by language, compiled by the first
// file of a language without a parser.
var importRules = sync.OnceValue(func() map[string][]importRule {
	rules := map[string][]importRule{
		"javascript": {
			{re: regexp.MustCompile(`^\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]`)},
			{re: regexp.MustCompile(`^\s*import\s*['"]([^'"]+)['"]`)},
			{re: regexp.MustCompile(`\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)`)},
			{re: regexp.MustCompile(`\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)`)},
		},
		"rust": {
			{re: regexp.MustCompile(`^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+([A-Za-z_]\w*)\s*;`), local: true},
			{re: regexp.MustCompile(`^\s*(?:pub(?:\([^)]*\))?\s+)?use\s+([A-Za-z_][\w:]*)`)},
			{re: regexp.MustCompile(`^\s*extern\s+crate\s+([A-Za-z_]\w*)`)},
		},
		"java": {
			{re: regexp.MustCompile(`^\s*import\s+(?:static\s+)?([\w.]+(?:\.\*)?)\s*;`)},
		},
		"c": {
			{re: regexp.MustCompile(`^\s*#\s*(?:include|import)\s*"([^"]+)"`), local: true},
			{re: regexp.MustCompile(`^\s*#\s*(?:include|import)\s*<([^>]+)>`)},
		},
		"ruby": {
			{re: regexp.MustCompile(`^\s*require_relative\s*\(?\s*['"]([^'"]+)['"]`), local: true},
			{re: regexp.MustCompile(`^\s*require\s*\(?\s*['"]([^'"]+)['"]`)},
		},
	}
	rules["typescript"] = rules["javascript"]
	rules["cpp"] = rules["c"]
	return rules
})

// extractPatterned reads a file of a language without a parser here:
// imports by their forms, definitions through pkg/symbols, each spanning
// its head down to the end symbols.End finds (braces matched outside
// strings and comments, Ruby to its "end"), or its head line alone when
// the end is not found within symbols.MaxBody lines.
func extractPatterned(f *Facts, src []byte) {
	rules := importRules()[f.Lang]
	no := 0
	for _, line := range strings.Split(string(src), "\n") {
		no++
		if !strings.ContainsAny(line, "imrue#") {
			continue
		}
		for _, r := range rules {
			if m := r.re.FindStringSubmatch(line); m != nil {
				f.Imports = append(f.Imports, Import{Spec: m[1], Line: no, Local: r.local})
				break
			}
		}
	}
	lines := bytes.Split(src, []byte("\n"))
	for _, s := range symbols.Extract(f.Path, src) {
		if s.Kind == "impl" {
			continue
		}
		sig, end := "", s.Line
		if s.Line >= 1 && s.Line <= len(lines) {
			sig = signature(string(lines[s.Line-1]))
			end = max(end, symbols.End(f.Lang, lines, s.Line))
		}
		f.Defs = append(f.Defs, Def{Name: s.Name, Container: s.Container, Kind: s.Kind, Start: s.Line, End: end, Signature: sig})
	}
}
