package hydrate

import (
	mrand "math/rand/v2"
	"strings"
	"testing"
)

// A window inside a private key whose BEGIN line lies far above it is
// masked on every line, also for an OpenSSH key: its 70-character lines do
// not have the shape of a PEM body line, so only the file's own BEGIN line
// (the whole-file state behind Render) tells that they are a key. The
// windows are rendered in an order that redacts the middle first.
func TestRenderMasksWindowInsideKey(t *testing.T) {
	r := mrand.New(mrand.NewPCG(3, 3))
	const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	var key strings.Builder
	key.WriteString("-----BEGIN OPENSSH PRIVATE KEY-----\n")
	var body []string
	for range 50 {
		l := make([]byte, 70)
		for i := range l {
			l[i] = b64[r.IntN(len(b64))]
		}
		body = append(body, string(l))
		key.WriteString(string(l) + "\n")
	}
	key.WriteString("-----END OPENSSH PRIVATE KEY-----\n")
	data := "# filler 1\n# filler 2\n# filler 3\n# filler 4\n# filler 5\n" + key.String() + "after\n"
	f := NewFile("keys/id_test", []byte(data))
	for _, w := range [][2]int{{20, 30}, {10, 40}, {1, 8}, {50, 58}} {
		text, _ := f.Render(w[0], w[1], 0)
		for _, b := range body {
			if strings.Contains(text, b[20:50]) {
				t.Fatalf("L%d-L%d shows key line %q:\n%s", w[0], w[1], b, text)
			}
		}
		for i, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
			n := w[0] + i
			if n >= 6 && n <= 57 && l != "[REDACTED:private-key]" {
				t.Errorf("L%d: %q", n, l)
			}
		}
	}
	if text, _ := f.Render(1, 5, 0); text != "# filler 1\n# filler 2\n# filler 3\n# filler 4\n# filler 5\n" {
		t.Errorf("filler lines changed: %q", text)
	}
	if text, _ := f.Render(58, 58, 0); text != "after\n" {
		t.Errorf("line after the key: %q", text)
	}
}
