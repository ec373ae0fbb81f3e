package record

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
)

func TestIDDeterministicAndSeparated(t *testing.T) {
	if ID("k", "a", "b") != ID("k", "a", "b") {
		t.Fatal("ID not deterministic")
	}
	if ID("k", "ab", "c") == ID("k", "a", "bc") {
		t.Fatal("field boundaries collide")
	}
	if ID("k1", "a") == ID("k2", "a") {
		t.Fatal("kind not part of the ID")
	}
	if len(ID("k")) != 16 {
		t.Fatalf("ID length %d", len(ID("k")))
	}
}

func TestMarshalKeepsMarkupReadable(t *testing.T) {
	type rec struct {
		Envelope
		Text string `json:"text"`
	}
	b, err := Marshal(rec{Env("x.y", 1, "a"), `<a href="x">&</a> \u003c`})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"kind":"x.y","v":1,"id":"` + ID("x.y", "a") + `","text":"<a href=\"x\">&</a> \\u003c"}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
}

func TestReaderPassThroughAndLineNumbers(t *testing.T) {
	in := "{\"z\":1,\"kind\":\"a.b\",\"v\":2,\"n\":12345678901234567890}\n\n  \n{\"kind\":\"c.d\"}\r\n{\"kind\":\"e\",\"v\":1}"
	r := NewReader(strings.NewReader(in), "stdin")
	var got []Line
	for {
		l, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, l)
	}
	if len(got) != 3 {
		t.Fatalf("got %d records", len(got))
	}
	if string(got[0].Raw) != `{"z":1,"kind":"a.b","v":2,"n":12345678901234567890}` || got[0].Kind != "a.b" || got[0].V != 2 || got[0].No != 1 {
		t.Fatalf("first record %+v", got[0])
	}
	if got[1].No != 4 || string(got[1].Raw) != `{"kind":"c.d"}` {
		t.Fatalf("second record %+v (CR must be stripped, blank lines counted)", got[1])
	}
	if got[2].No != 5 || got[2].Kind != "e" {
		t.Fatalf("last line without newline lost: %+v", got[2])
	}
}

func TestReaderErrorsNameInputAndLine(t *testing.T) {
	for _, in := range []string{
		"{\"kind\":\"a\"}\n{not json}\n",
		"{\"kind\":\"a\"}\n[1,2]\n",
		"{\"kind\":\"a\"}\n{\"v\":1}\n",
		"{\"kind\":\"a\"}\n{\"kind\":\"\"}\n",
	} {
		r := NewReader(strings.NewReader(in), "in.ndjson")
		if _, err := r.Next(); err != nil {
			t.Fatal(err)
		}
		_, err := r.Next()
		var se *SyntaxError
		if !errors.As(err, &se) || !strings.HasPrefix(err.Error(), "in.ndjson:2: ") {
			t.Fatalf("input %q: error %v", in, err)
		}
	}
}

func TestReaderNamesANonStringKind(t *testing.T) {
	for in, want := range map[string]string{
		`{"kind":1}`:        `stdin:1: malformed record: "kind" is a JSON number, not a string`,
		`{"kind":["a"]}`:    `stdin:1: malformed record: "kind" is a JSON array, not a string`,
		`[{"kind":"a"}]`:    `stdin:1: malformed record: not a JSON object`,
		`"kind"`:            `stdin:1: malformed record: not a JSON object`,
		`{"kind":"","v":1}`: `stdin:1: malformed record: no "kind"`,
	} {
		_, err := NewReader(strings.NewReader(in+"\n"), "stdin").Next()
		if err == nil || err.Error() != want {
			t.Errorf("%s: error %v, want %s", in, err, want)
		}
	}
}

func TestReaderLongLine(t *testing.T) {
	big := strings.Repeat("x", 17<<20)
	in := `{"kind":"big","s":"` + big + `"}` + "\n" + `{"kind":"after"}` + "\n"
	r := NewReader(strings.NewReader(in), "stdin")
	l, err := r.Next()
	if err != nil || len(l.Raw) != len(big)+len(`{"kind":"big","s":""}`) {
		t.Fatalf("long line: %v", err)
	}
	l, err = r.Next()
	if err != nil || l.Kind != "after" || l.No != 2 {
		t.Fatalf("after long line: %+v %v", l, err)
	}
}

func TestWriterConcurrentWholeLines(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf, nil)
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 20; j++ {
				if err := w.Emit(map[string]any{"kind": "t", "s": strings.Repeat("y", 1000)}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 1000 || w.Count() != 1000 {
		t.Fatalf("%d lines, count %d", len(lines), w.Count())
	}
	for _, l := range lines {
		if len(l) != len(lines[0]) {
			t.Fatal("interleaved write")
		}
	}
}

func TestWriterFilterOnlyEmitted(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf, func(raw []byte) (bool, error) { return bytes.Contains(raw, []byte("keep")), nil })
	_ = w.PassRaw([]byte(`{"kind":"up","drop":1}`))
	_ = w.Emit(map[string]string{"kind": "mine", "x": "keep"})
	_ = w.Emit(map[string]string{"kind": "mine", "x": "no"})
	want := "{\"kind\":\"up\",\"drop\":1}\n{\"kind\":\"mine\",\"x\":\"keep\"}\n"
	if buf.String() != want {
		t.Fatalf("got %q", buf.String())
	}
}

func FuzzReader(f *testing.F) {
	f.Add([]byte("{\"kind\":\"a\",\"v\":1}\n\n{\"kind\":\"b\"}"))
	f.Add([]byte("{\"kind\":1}\n"))
	f.Add([]byte("\r\n\xff{\"kind\":\"a\"}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(bytes.NewReader(data), "fuzz")
		for i := 0; i < 1000; i++ {
			l, err := r.Next()
			if err != nil {
				var se *SyntaxError
				if !errors.Is(err, io.EOF) && !errors.As(err, &se) {
					t.Fatalf("unexpected error type %T: %v", err, err)
				}
				return
			}
			if l.Kind == "" || l.No < 1 {
				t.Fatalf("bad line %+v", l)
			}
		}
	})
}
