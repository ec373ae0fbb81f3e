package rtchmcp

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The guard, on its own, makes of each malformed case what the server
// must: its own answer, or a message for the SDK to answer, or nothing.
func TestGuardOnEachCase(t *testing.T) {
	for _, c := range malformedCases() {
		f := &framer{r: bufio.NewReader(bytes.NewReader(c.line)), limit: defaultMaxMessage}
		var msgs int
		var answers [][]byte
		for {
			line, over, err := f.next()
			v := inspect(line, over, f.limit, "stdin line 1: ")
			if v.msg != nil {
				msgs++
			}
			if v.answer != nil {
				answers = append(answers, v.answer)
			}
			if err != nil {
				break
			}
		}
		switch {
		case c.want.sdk && (msgs != 1 || len(answers) != 0):
			t.Errorf("%s: %d messages for the SDK and %d answers, want the message handed on", c.name, msgs, len(answers))
		case c.want.none && !c.want.sdk && (msgs != 0 || len(answers) != 0):
			t.Errorf("%s: %d messages for the SDK and %d answers, want it dropped", c.name, msgs, len(answers))
		case !c.want.sdk && !c.want.none && (msgs != 0 || len(answers) != 1):
			t.Errorf("%s: %d messages for the SDK and %d answers, want one answer", c.name, msgs, len(answers))
		case !c.want.sdk && !c.want.none:
			if err := c.want.match(answers[0]); err != nil {
				t.Errorf("%s: %v", c.name, err)
			} else if !bytes.Contains(answers[0], []byte(`"message":"stdin line 1: `)) {
				t.Errorf("%s: the error does not name the line: %s", c.name, answers[0])
			}
		}
	}
}

// A line over the limit is read to its end and dropped but for its head,
// and the next line is read whole.
func TestFramerLimit(t *testing.T) {
	in := strings.Repeat("x", 10000) + "\n" + "short\r\n" + strings.Repeat("y", 100) + "\n" + "last"
	f := &framer{r: bufio.NewReaderSize(strings.NewReader(in), 16), limit: 100}
	for _, w := range []struct {
		line string
		over bool
		err  error
	}{
		{"x", true, nil},
		{"short\r", false, nil},
		{strings.Repeat("y", 100), false, nil},
		{"last", false, io.EOF},
	} {
		line, over, err := f.next()
		if over && len(line) <= headSize && strings.Trim(string(line), "x") == "" {
			line = []byte("x") // an over-long line's head
		}
		if string(line) != w.line || over != w.over || !errors.Is(err, w.err) && err != w.err {
			t.Fatalf("line %d: %.20q over=%v err=%v, want %.20q over=%v err=%v", f.lineNo, line, over, err, w.line, w.over, w.err)
		}
	}
}

// The guard's cost per message, beside the SDK's own decoding of it.
func BenchmarkInspect(b *testing.B) {
	for _, c := range []struct {
		name string
		line string
	}{
		{"tools/call", req("12", "tools/call", `{"name":"rtch_context","arguments":{"goal":"find where ReadLine reports a malformed line","enough":"the function is hydrated"},"_meta":{"progressToken":"p-12"}}`)},
		{"1MiB", padded("12", 1<<20)},
	} {
		line := []byte(c.line)
		b.Run(c.name+"/guard", func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			for b.Loop() {
				if v := inspect(line, false, defaultMaxMessage, ""); v.msg == nil {
					b.Fatal("refused")
				}
			}
		})
		b.Run(c.name+"/sdk-decode", func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			for b.Loop() {
				if _, err := jsonrpc.DecodeMessage(line); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Members end at the object's own commas, never at one inside a string or
// a nested value.
func TestTopMembers(t *testing.T) {
	obj := []byte(`{ "a" : "x,}:\"y" , "b":{"c":[1,{"d":2}],"e":"}"},"\u0066":[ ] }`)
	m, err := topMembers(obj)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a": `"x,}:\"y"`, "b": `{"c":[1,{"d":2}],"e":"}"}`, "f": `[ ]`}
	if len(m) != len(want) {
		t.Fatalf("members %q, want %q", m, want)
	}
	for k, v := range want {
		if string(m[k]) != v {
			t.Errorf("%s: %s, want %s", k, m[k], v)
		}
	}
	if _, err := topMembers([]byte(`{"id":1,"\u0069d":2}`)); err == nil {
		t.Error("a member given twice (once escaped) was taken")
	}
	if m, _ := topMembers([]byte(`{}`)); len(m) != 0 {
		t.Errorf("{}: %q", m)
	}
}
