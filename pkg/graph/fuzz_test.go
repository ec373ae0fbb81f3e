package graph

import (
	"os"
	"strings"
	"testing"
)

func FuzzLoad(f *testing.F) {
	if b, err := os.ReadFile("testdata/kg.json"); err == nil {
		f.Add(string(b), "callers of Charge")
	}
	f.Add(`{"version":1,"nodes":[{"id":"a"},{"id":"b"}],"edges":[{"source":"a","target":"b","direction":"bi"}]}`, "impact of a")
	f.Fuzz(func(t *testing.T, doc, q string) {
		g, _, err := Load(strings.NewReader(doc), "f.json")
		if err != nil {
			return
		}
		total := 0
		for _, h := range g.Query(q, Options{MaxTokens: 200}) {
			total += h.Tokens
		}
		if total > 200 {
			t.Fatalf("cap exceeded: %d", total)
		}
		if in, ok := ParseIntent(q); ok {
			g.Structural(in, Options{MaxTokens: 200})
		}
	})
}
