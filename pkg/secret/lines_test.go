package secret

import (
	"fmt"
	mrand "math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// linesTexts are texts where findings span lines, overlap one another and
// sit next to each other: every format in a file of its own and all of them
// in one file between filler lines, a key whose BEGIN line is 40 lines above
// a window, an OpenSSH key (70-character lines, which only the whole-text
// block rule recognises), a certificate before a key-shaped run, netrc
// entries over several lines, and some assignment texts of the gate test.
func linesTexts(t *testing.T) []string {
	f := fake{mrand.New(mrand.NewPCG(4, 4))}
	var texts, all []string
	for i, c := range formatCases(t) {
		in := strings.Replace(c.context, "%s", c.secret, 1)
		texts = append(texts, in)
		all = append(all, fmt.Sprintf("// filler %d\n%s\n", i, in))
	}
	texts = append(texts, strings.Join(all, ""), strings.Join(all, "x = 1\n"))
	var ssh strings.Builder
	ssh.WriteString("a\nb\n-----BEGIN OPENSSH PRIVATE KEY-----\n")
	for range 40 {
		ssh.WriteString(f.s(b64, 70) + "\n")
	}
	ssh.WriteString(f.s(b64, 20) + "==\n-----END OPENSSH PRIVATE KEY-----\nafter\n")
	cert := "-----BEGIN CERTIFICATE-----\n" + strings.Repeat(f.s(b64, 64)+"\n", 5) + "-----END CERTIFICATE-----\n"
	texts = append(texts,
		"a\nb\nc\nd\ne\n"+rsaShaped(5)+"after\n",
		ssh.String(),
		strings.Repeat(ssh.String(), 2),
		cert+strings.Repeat(f.s(b64, 64)+"\n", 4)+"end\n",
		"machine a\nlogin u\n\npassword "+f.s(alnum, 12)+"\nmachine b login v password "+f.s(alnum, 12)+"\n",
		"token = \"ghp_"+f.s(alnum, 36)+"\"\r\npassword: hunter2\r\n\r\n",
	)
	// a sample of the assignment texts (each costs ~15 ms to redact)
	for i, g := range gateTexts() {
		if i%15 == 0 {
			texts = append(texts, g)
		}
	}
	return texts
}

// TestLinesMatchRedact holds Lines to its claim: Get(a, b) is lines a..b
// of Redact(text), for every range of the small texts and for random
// ranges of large ones (GOROOT's net/http), asked of a fresh Lines and of
// one that already redacted other ranges.
func TestLinesMatchRedact(t *testing.T) {
	texts := linesTexts(t)
	for _, name := range []string{"server.go", "transport.go", "request.go"} {
		if b, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "net", "http", name)); err == nil {
			texts = append(texts, string(b))
		}
	}
	r := mrand.New(mrand.NewPCG(1, 1))
	marks := 0
	for ti, text := range texts {
		red := String(text)
		want := strings.Split(red, "\n")
		marks += strings.Count(red, markPrefix)
		shared := NewLines(text)
		if shared.Count() != len(want) {
			t.Fatalf("text %d: %d lines, Redact has %d", ti, shared.Count(), len(want))
		}
		check := func(l *Lines, a, b int) {
			if got := l.Get(a, b); !slices.Equal(got, want[a-1:b]) {
				t.Fatalf("text %d, lines %d-%d:\ngot  %q\nwant %q", ti, a, b, got, want[a-1:b])
			}
		}
		n := len(want)
		// every range on a fresh Lines for small texts, random ones else,
		// then every line and random ranges of the Lines that holds them
		if n <= 12 {
			for a := 1; a <= n; a++ {
				for b := a; b <= n; b++ {
					check(NewLines(text), a, b)
				}
			}
		} else {
			for range 20 {
				a := 1 + r.IntN(n)
				check(NewLines(text), a, min(n, a+r.IntN(60)))
			}
		}
		for range 100 {
			a := 1 + r.IntN(n)
			check(shared, a, min(n, a+r.IntN(60)))
		}
		for a := 1; a <= n; a++ {
			check(shared, a, a)
		}
		check(shared, 1, n)
	}
	if marks < len(texts) {
		t.Fatalf("%d marks in %d texts: the texts no longer hold secrets", marks, len(texts))
	}
}

// Lines clamps its range and answers an empty text as Split does.
func TestLinesEdges(t *testing.T) {
	if got := NewLines("").Get(1, 3); !slices.Equal(got, []string{""}) {
		t.Errorf("empty text: %q", got)
	}
	if got := NewLines("a\nb\n").Get(0, 9); !slices.Equal(got, []string{"a", "b", ""}) {
		t.Errorf("clamped: %q", got)
	}
	if got := NewLines("a\nb").Get(2, 1); got != nil {
		t.Errorf("reversed range: %q", got)
	}
}

// Raw cuts lines as Get does, leaves secrets as they are, and runs none of
// the whole-text passes, which Get runs when it first needs them.
func TestLinesRaw(t *testing.T) {
	text := "a\n\ntoken = \"ghp_" + strings.Repeat("aB3dE5gH7j", 3) + "K9mN1p\"\nlast"
	whole := strings.Split(text, "\n")
	l := NewLines(text)
	for a := 0; a <= len(whole)+1; a++ {
		for b := a - 1; b <= len(whole)+1; b++ {
			want := []string(nil)
			if lo, hi := max(a, 1), min(b, len(whole)); lo <= hi {
				want = whole[lo-1 : hi]
			}
			if got := l.Raw(a, b); !slices.Equal(got, want) {
				t.Fatalf("Raw(%d, %d) = %q, want %q", a, b, got, want)
			}
		}
	}
	if l.scanned {
		t.Fatal("Raw ran the whole-text passes")
	}
	if got := l.Get(3, 3)[0]; strings.Contains(got, "ghp_") || !l.scanned {
		t.Fatalf("Get(3, 3) = %q", got)
	}
}
