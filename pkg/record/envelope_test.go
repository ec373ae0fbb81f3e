package record

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// envelopeCases are lines on which the scan's shortcuts could part from
// encoding/json: keys in other cases, escaped or folded, duplicates, null,
// values of every type and nesting, odd spacing, and lines that are not
// objects or not JSON.
var envelopeCases = []string{
	`{"kind":"rtch.zone","v":1,"id":"abc"}`,
	` { "kind" : "a" , "v" : 2 , "id" : "x" } `,
	`{"KIND":"a","V":3,"ID":"y"}`,
	`{"Kind":"a","kind":"b"}`,
	`{"kind":"a","kind":null}`,
	`{"kind":null,"kind":"b"}`,
	`{"kind":1,"kind":"b"}`,
	`{"kind":"b","kind":true}`,
	`{"kind":["a"]}`,
	`{"kind":{"kind":"x"}}`,
	`{"\u006bind":"escaped key"}`,
	`{"\u212aind":"kelvin sign"}`,
	`{"İD":"dotted capital i","kind":"k"}`,
	`{"ſ":"long s","kind":"k"}`,
	`{"kind":"k\u00e9\"q\\","id":"\ud83d\ude00"}`,
	"{\"kind\":\"bad utf8 \xff here\"}",
	"{\"k\xffnd\":\"x\",\"kind\":\"k\"}",
	`{"a":{"kind":"inner","b":[1,{"id":"z"}]},"kind":"outer","id":"top"}`,
	`{"a":"}","b":"{[","kind":"k","c":[{"d":"]"}],"v":-1.5e3}`,
	`{"kind":"k","v":"2","id":7}`,
	`{"kind":"k","v":null,"id":null}`,
	`{"kind":"","id":"empty kind"}`,
	`{}`,
	`[]`,
	`"kind"`,
	`12`,
	`null`,
	`{"kind":"k",}`,
	`{"kind":"k"`,
	`{"kind":"k"} trailing`,
	`not json`,
	"{\"kind\":\"k\",\n\"v\":\t1}",
}

func TestEnvelopeAsEncodingJSON(t *testing.T) {
	lines := append([]string{}, envelopeCases...)
	// The records the script tests feed the tools and expect of them.
	scripts, _ := filepath.Glob("../../testdata/script/*/*.txtar")
	for _, s := range scripts {
		b, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range bytes.Split(b, []byte("\n")) {
			if bytes.HasPrefix(l, []byte("{")) {
				lines = append(lines, string(l))
			}
		}
	}
	if len(lines) < len(envelopeCases)+50 {
		t.Fatalf("only %d lines: the testdata streams were not found", len(lines))
	}
	for _, l := range lines {
		sameEnvelope(t, []byte(l))
	}
}

func FuzzEnvelope(f *testing.F) {
	for _, c := range envelopeCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, raw []byte) { sameEnvelope(t, raw) })
}

func sameEnvelope(t *testing.T, raw []byte) {
	t.Helper()
	var want envelope
	wantErr := json.Unmarshal(raw, &want)
	got, gotErr := decodeEnvelope(raw)
	if (wantErr == nil) != (gotErr == nil) || wantErr != nil && describeError(wantErr) != describeError(gotErr) {
		t.Fatalf("%q: error %v, encoding/json says %v", raw, gotErr, wantErr)
	}
	if wantErr != nil {
		return
	}
	if !reflect.DeepEqual(got.Kind, want.Kind) || !bytes.Equal(got.V, want.V) || !bytes.Equal(got.ID, want.ID) {
		t.Fatalf("%q: kind %v v %q id %q, encoding/json says %v %q %q", raw, str(got.Kind), got.V, got.ID, str(want.Kind), want.V, want.ID)
	}
}

func str(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return strings.Clone(*p)
}
