package secret

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// longLine is n bytes of one line of base64-like text (a source map's
// mappings, a minified bundle): letters, digits, + and /, with the words
// of many rules' keywords sprinkled in.
func longLine(n int, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 40))
	const alpha = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	words := []string{"key", "token", "secret", "api", "pass", "auth", "AKIA", "ghp_", "xox", "sk_"}
	var b strings.Builder
	for b.Len() < n {
		if r.IntN(2000) == 0 {
			b.WriteString(words[r.IntN(len(words))])
		}
		b.WriteByte(alpha[r.IntN(len(alpha))])
	}
	return b.String()[:n]
}

// A long line's windows are bounded around their hits: the bytes the
// rules' regexps are given grow with the hits, not with the line (a
// 1 MB line was given whole to every rule with a hit in it).
func TestLongLineWindowsBounded(t *testing.T) {
	text := longLine(1<<20, 1)
	hits := []int{1000, 300_000, 700_000, 1_000_000}
	total := 0
	for _, w := range windowsAt(text, hits, 1) {
		total += w.hi - w.lo
	}
	if total > len(hits)*4096 {
		t.Errorf("4 hits in a 1 MB line open windows of %d bytes in all", total)
	}
}

// A secret in a long line is masked whole wherever it sits: near a hit, far
// from it, and a token longer than a window (a JWT of 6 KB) across a cut.
func TestLongLineSecretsMasked(t *testing.T) {
	pat := "ghp_" + strings.Repeat("aB3dE5gH7j", 3) + "K9mN4p"
	jwt := "eyJhbGciOiJIUzI1NiJ9.eyJ" + strings.Repeat("zdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0", 120) + ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
	filler := strings.ReplaceAll(longLine(400_000, 2), "/", ",")
	for name, text := range map[string]string{
		"pat mid-line":  filler[:200_000] + `,"` + pat + `",` + filler[200_000:],
		"jwt mid-line":  filler[:150_000] + ` "` + jwt + `" ` + filler[150_000:],
		"pat line end":  filler + " token=" + pat,
		"jwt line head": jwt + " " + filler,
	} {
		red := String(text)
		for _, s := range []string{pat, jwt} {
			if strings.Contains(text, s) {
				for _, piece := range []string{s[:16], s[len(s)/2 : len(s)/2+16], s[len(s)-16:]} {
					if strings.Contains(red, piece) {
						t.Errorf("%s: %q of a %d-byte token is left", name, piece, len(s))
					}
				}
			}
		}
	}
}
