package probe

import (
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/secret"
)

func redactAll(ls []string) string { return secret.String(strings.Join(ls, "\n")) }

// A hit on a 600 KB line shows its first bytes redacted as the whole
// line's redaction would show them, from the part of the line and of its
// neighbours that can matter.
func TestRedactedLongLine(t *testing.T) {
	pat := "ghp_" + strings.Repeat("aB3dE5gH7j", 3) + "K9mN4p"
	filler := strings.Repeat("var a=b.c(d,e);", 40_000)
	ls := []string{
		filler + ` password =`,
		`  "Kq8#vL2@pX9!"` + filler,
		`x = "` + pat + `"` + filler,
		filler,
	}
	for n, want := range map[int]string{2: "Kq8#vL2@pX9!", 3: pat} {
		got := capLine(redactedLine(ls, n))
		if strings.Contains(got, want) || !strings.Contains(got, "[REDACTED:") {
			t.Errorf("line %d shows %q", n, got)
		}
		if full := capLine(strings.Split(redactAll(ls), "\n")[n-1]); got != full {
			t.Errorf("line %d: %q, the whole text's redaction shows %q", n, got, full)
		}
	}
}
