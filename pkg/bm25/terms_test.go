package bm25

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestTermsWordForms(t *testing.T) {
	for in, want := range map[string][]string{
		// a phrasal verb and its joined spelling meet, the parts give way
		"how do invoice retries back off": {"invoice", "retry", "backoff"},
		"exponential backoff":             {"exponential", "backoff"},
		"Backs off, then sets up":         {"backoff", "setsup"},
		"set up the server":               {"setup", "server"},
		"the setup":                       {"setup"},
		"fail over\nto the replica":       {"failover", "replica"},
		"roll back up":                    {"roll", "backup"},
		// not across a sentence, a blank line, or punctuation
		"roll back. Off":    {"rollback", "off"},
		"roll. Back":        {"roll", "back"},
		"back\n\noff":       {"back", "off"},
		"turn (off)":        {"turn", "off"},
		"it is up":          nil,
		"x off":             {"off"},
		"RetryPolicy off":   {"retrypolicy", "retry", "policy", "off"},
		"retry_policy back": {"retry_policy", "retry", "policy", "back"},
		"time out.":         {"timeout"},
		// a capitalised stopword is still one and joins nothing; a long
		// capitalised word is held back and lowered like a short one
		"The up":                   nil,
		"It Backs OFF":             {"backoff"},
		"Reconciliations back off": {"reconciliation", "backoff"},
		"Reconciliations":          {"reconciliation"},
		"Internationalization up":  {"internationalizationup"},
		// identifiers split as Tokenize splits them; a hyphenated
		// phrasal compound also gives its joined form
		"retry_policy":   {"retry_policy", "retry", "policy"},
		"RetryPolicy":    {"retrypolicy", "retry", "policy"},
		"back-off":       {"back-off", "back", "off", "backoff"},
		"Set-Up":         {"set-up", "set", "setup"},
		"x-off":          {"x-off", "off"},
		"v1.2.3 and v12": {"v1.2.3", "v1", "v12"},
	} {
		if got := Terms(in); !reflect.DeepEqual(got, want) {
			t.Errorf("Terms(%q) = %q, want %q", in, got, want)
		}
	}
}

// BenchmarkEachTerm measures the prose form over the fixture wiki's pages
// (every wiki mechanism tokenizes each page this way).
func BenchmarkEachTerm(b *testing.B) {
	var text strings.Builder
	for _, dir := range []string{"concepts", "decisions", "standards"} {
		ms, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "fixtures", "wiki-project", "wiki", dir, "*.md"))
		for _, m := range ms {
			data, err := os.ReadFile(m)
			if err != nil {
				b.Fatal(err)
			}
			text.Write(data)
		}
	}
	s := text.String()
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		n := 0
		EachTerm(s, func(string) { n++ })
	}
}
