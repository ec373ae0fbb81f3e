package bm25

import (
	"reflect"
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
