package secret

import (
	"strings"
	"testing"
)

// TestKeptFindingsAsFound: with the cache on, a text searched again gets
// the findings a search gives, from the cache, and changing what a caller
// got does not change what the next one gets.
func TestKeptFindingsAsFound(t *testing.T) {
	KeepFindings()
	defer func() { // the package's other tests and benchmarks search afresh
		keepOn.Store(false)
		kept.Clear()
	}()
	pad := strings.Repeat("ordinary words and code, nothing to hide here.\n", 20)
	texts := []string{
		pad + "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n" + pad,
		pad,
		"pw=x\n",
		strings.Repeat(pad, 20),
	}
	for _, text := range texts {
		want := find(text)
		before := kept.Hits()
		first, second := findKept(text), findKept(text)
		if !sameFindings(first, want) || !sameFindings(second, want) {
			t.Fatalf("%.30q: found %v then %v, want %v", text, first, second, want)
		}
		hits := kept.Hits() - before
		if cacheable := len(text) >= keptMin && len(text) <= keptMax; cacheable && hits != 1 || !cacheable && hits != 0 {
			t.Fatalf("%.30q (%d bytes): %d answers from the cache", text, len(text), hits)
		}
		for i := range second {
			second[i].Rule = "changed"
		}
		if third := findKept(text); !sameFindings(third, want) {
			t.Fatalf("%.30q: a caller's change reached the cache: %v", text, third)
		}
	}
	if len(find(texts[0])) == 0 {
		t.Fatal("the test's secret is not found: the test proves nothing")
	}
}

// Texts searched in turn each get their own findings from the cache.
func TestKeptFindingsPerText(t *testing.T) {
	KeepFindings()
	defer func() {
		keepOn.Store(false)
		kept.Clear()
	}()
	clean, dirty := "nothing to see in this line", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	for range 2 {
		if _, rules := Redact(dirty); len(rules) == 0 {
			t.Fatal("the secret was not found after a clean text was kept")
		}
		if out, rules := Redact(clean); out != clean {
			t.Fatalf("the clean text got the secret's findings: %q %v", out, rules)
		}
	}
}

func sameFindings(a, b []Finding) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
