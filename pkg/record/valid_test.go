package record

import (
	"encoding/json"
	"strings"
	"testing"
)

// validCases are texts at the edges of JSON's grammar and of
// encoding/json's nesting limit.
var validCases = []string{
	``, ` `, `{}`, `[]`, ` {"a":[1,2,{"b":null}]} `, `"x"`, `"\u00e9\ud83d\ude00"`, `"\u00g0"`, `"\u00e"`,
	`"\x"`, `"\/\b\f\n\r\t\"\\"`, "\"a\tb\"", "\"a\x01\"", "\"\xff\xfe\"", `"unterminated`, `"\`,
	`0`, `-0`, `01`, `-`, `1.`, `1.5`, `.5`, `1e5`, `1E+5`, `1e-`, `1e`, `-12.5e-3`, `2a`,
	`true`, `tru`, `truex`, `false`, `null`, `nul`, `NaN`,
	`{"a"}`, `{"a":}`, `{"a":1,}`, `{,}`, `[1,]`, `[,1]`, `[1 2]`, `{"a":1 "b":2}`, `{1:2}`,
	`{} {}`, `[]]`, `[[]`, "{\"a\":\n1\r\n}", "\v{}", "{}\u00a0",
}

func TestValidAsEncodingJSON(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	cases := append([]string{deep(maxDepth), deep(maxDepth + 1), strings.Repeat(`{"a":`, maxDepth) + "1" + strings.Repeat("}", maxDepth)}, validCases...)
	cases = append(cases, envelopeCases...)
	for _, c := range cases {
		if got, want := valid([]byte(c)), json.Valid([]byte(c)); got != want {
			t.Errorf("valid(%.40q) = %v, json.Valid says %v", c, got, want)
		}
	}
}

func FuzzValid(f *testing.F) {
	for _, c := range append(validCases, envelopeCases...) {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := valid(b), json.Valid(b); got != want {
			t.Fatalf("valid(%q) = %v, json.Valid says %v", b, got, want)
		}
	})
}
