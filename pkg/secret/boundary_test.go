package secret

import (
	"bufio"
	"bytes"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// A record's strings are redacted in place: key order, numbers and the
// other bytes stay, the result is still one valid JSON line, and a clean
// record comes back as the same slice.
func TestJSONRedactsStringsInPlace(t *testing.T) {
	tok := "ghp_" + strings.Repeat("aB3dE5gH7j", 3) + "K9mN1p"
	in := []byte(`{"kind":"rtch.hit","v":1,"n":1.50,"line_text":"GITHUB_TOKEN=` + tok + `","text":"a\n-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\n"}`)
	out, ok := JSON(in)
	want := `{"kind":"rtch.hit","v":1,"n":1.50,"line_text":"GITHUB_TOKEN=[REDACTED:github-pat]","text":"a\n[REDACTED:private-key]\n[REDACTED:private-key]\n"}`
	if !ok || string(out) != want {
		t.Fatalf("JSON:\n got %s\nwant %s", out, want)
	}
	clean := []byte(`{"kind":"rtch.hit","line_text":"func main() {}"}`)
	if out, ok := JSON(clean); !ok || &out[0] != &clean[0] {
		t.Fatal("a clean record must come back unchanged")
	}
	if _, ok := JSON([]byte(`{"a":"unterminated`)); ok {
		t.Fatal("malformed JSON accepted")
	}
}

// The writer redacts whole lines whatever the write boundaries, and passes
// redacted text through unchanged.
func TestWriterRedactsAcrossWrites(t *testing.T) {
	tok := "ghp_" + strings.Repeat("aB3dE5gH7j", 3) + "K9mN1p"
	text := "# brief\n- token: " + tok + "\n{\"text\":\"password: hunter2\"}\ntail " + tok
	var b bytes.Buffer
	w := NewWriter(&b)
	for i := 0; i < len(text); i += 7 {
		w.Write([]byte(text[i:min(i+7, len(text))]))
	}
	w.Flush()
	want := "# brief\n- token: [REDACTED:github-pat]\n{\"text\":\"password: [REDACTED:password-assignment]\"}\ntail [REDACTED:github-pat]"
	if b.String() != want {
		t.Fatalf("got %q\nwant %q", b.String(), want)
	}
	var again bytes.Buffer
	w = NewWriter(&again)
	w.Write(b.Bytes())
	w.Flush()
	if again.String() != want {
		t.Fatalf("not idempotent: %q", again.String())
	}
}

// Passed lines go out byte for byte and in order; a pass while a partial
// line waits goes through the redactor with it; Flush reaches a buffer
// beneath the writer (rtch-mcp flushes each reply through the boundary,
// and its session hung while replies sat in the buffer under it).
func TestWriterPassedAndFlush(t *testing.T) {
	tok := "ghp_" + strings.Repeat("aB3dE5gH7j", 3) + "K9mN1p"
	var b bytes.Buffer
	bw := bufio.NewWriter(&b)
	w := NewWriter(bw)
	p := w.Passed()
	w.Write([]byte("emitted " + tok + "\n"))
	p.Write([]byte("passed " + tok + "\n"))
	w.Write([]byte("partial "))
	p.Write([]byte(tok + "\n"))
	if b.Len() != 0 {
		t.Fatalf("written before Flush: %q", b.String())
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	want := "emitted [REDACTED:github-pat]\npassed " + tok + "\npartial [REDACTED:github-pat]\n"
	if b.String() != want {
		t.Fatalf("got %q\nwant %q", b.String(), want)
	}
}

// Diagnostics redact each write whole and hold nothing back: a progress
// line without a newline is written at once.
func TestDiagnostics(t *testing.T) {
	tok := "ghp_" + strings.Repeat("aB3dE5gH7j", 3) + "K9mN1p"
	var b bytes.Buffer
	d := Diagnostics(&b)
	msg := "tool: warning: page.md:3: importance \"" + tok + "\" is not an integer\n"
	if n, err := d.Write([]byte(msg)); err != nil || n != len(msg) {
		t.Fatalf("Write = %d, %v", n, err)
	}
	d.Write([]byte("\rtool: reading x.go\033[K"))
	want := "tool: warning: page.md:3: importance \"[REDACTED:github-pat]\" is not an integer\n\rtool: reading x.go\033[K"
	if b.String() != want {
		t.Fatalf("got %q\nwant %q", b.String(), want)
	}
}

// FuzzRedact: redaction keeps valid UTF-8 valid, keeps the line count, is
// idempotent, and Lines gives the lines Redact gives (a range cut from the
// input's length, then every line alone).
func FuzzRedact(f *testing.F) {
	for _, s := range []string{"", "password: hunter2\n", "token = \"ghp_aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5\"",
		"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----\n", "login u password p\n",
		`{"auth": "dXNlcjpwYXNzd29yZA=="}`, "Z2hwX2FCM2RFNWdIN2pLOW1OMXBRM3NUNXZXN3laOWJDMWRFM2ZHNQ=="} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, _ := Redact(s)
		if utf8.ValidString(s) && !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 from %q: %q", s, out)
		}
		if strings.Count(out, "\n") != strings.Count(s, "\n") {
			t.Fatalf("line count changed: %q -> %q", s, out)
		}
		if again, _ := Redact(out); again != out {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, out, again)
		}
		want := strings.Split(out, "\n")
		l := NewLines(s)
		a := 1 + len(s)%len(want)
		b := a + len(s)/7%(len(want)-a+1)
		if got := l.Get(a, b); !slices.Equal(got, want[a-1:b]) {
			t.Fatalf("Lines %d-%d of %q: %q, Redact: %q", a, b, s, got, want[a-1:b])
		}
		for n := range want {
			if got := l.Get(n+1, n+1); len(got) != 1 || got[0] != want[n] {
				t.Fatalf("line %d of %q: %q, Redact: %q", n+1, s, got, want[n])
			}
		}
	})
}
