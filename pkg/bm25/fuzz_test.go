package bm25

import (
	"reflect"
	"testing"
	"unicode/utf8"
)

func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"pkg.ParseFlags", "HTTPServer_config", "a-b-c", "Über-Straße", "x\xffy", "__init__", "...", "İstanbul ǅ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Tokenize(s), refTokenize(s); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: fast paths give %q, reference %q", s, got, want)
		}
		for _, tok := range Terms(s) {
			if utf8.RuneCountInString(tok) < 2 {
				t.Fatalf("short token %q from %q", tok, s)
			}
		}
		ix := New(Recall)
		ix.Add(Terms(s))
		q := Terms(s)
		for _, r := range ix.Search(q, 0) {
			if n := ix.Normalized(r.Score, q); n < 0 || n > 1 {
				t.Fatalf("normalised %v", n)
			}
		}
	})
}
