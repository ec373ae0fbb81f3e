package hydrate

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzChunk checks the chunker on arbitrary file bytes: lines partition the
// file exactly (what sed prints), text is valid UTF-8 without "\r" or a BOM,
// every line of text is bounded, and the whole-file hash is the file's.
func FuzzChunk(f *testing.F) {
	for _, s := range []string{"", "a", "a\n", "a\r\nb\r\n", "\xef\xbb\xbfx\ny", "\xff\xfe\n\x80", "\n\n\n", strings.Repeat("x", 2000) + "\ny"} {
		f.Add([]byte(s), 1, 2)
	}
	f.Fuzz(func(t *testing.T, data []byte, s, e int) {
		file := NewFile("f", data)
		n := file.Lines()
		var all []byte
		for i := 1; i <= n; i++ {
			all = append(all, file.Bytes(i, i)...)
		}
		if !bytes.Equal(all, data) {
			t.Fatalf("lines do not partition the file: %q vs %q", all, data)
		}
		if n > 0 && file.SHA256Of(1, n) != file.SHA256 {
			t.Fatal("whole-range hash differs from the file hash")
		}
		if n == 0 {
			return
		}
		s = 1 + abs(s)%n
		e = s + abs(e)%(n-s+1)
		text, _ := file.Render(s, e, 50)
		if !utf8.ValidString(text) {
			t.Fatalf("invalid UTF-8 text %q", text)
		}
		if strings.Contains(text, "\r") || (s == 1 && strings.HasPrefix(text, "\ufeff")) {
			t.Fatalf("CR or leading BOM in text %q", text)
		}
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		if len(lines) != e-s+1 {
			t.Fatalf("%d text lines for L%d-L%d", len(lines), s, e)
		}
		for _, l := range lines {
			if utf8.RuneCountInString(l) > 50+len(" …[line truncated: 99999999999 more bytes]") {
				t.Fatalf("line not bounded: %d runes", utf8.RuneCountInString(l))
			}
		}
	})
}
