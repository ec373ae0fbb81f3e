package bm25

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestTokenize(t *testing.T) {
	cases := map[string][]string{
		"pkg.ParseFlags":        {"pkg.parseflags", "pkg", "parse", "flags"},
		"HTTPServer_config":     {"httpserver_config", "http", "server", "config"},
		"recall-before-read.":   {"recall-before-read", "recall", "before", "read"},
		"a b the Über-Straße x": {"the", "über-straße", "über", "straße"},
		"utf8Decode v2":         {"utf8decode", "utf8", "decode", "v2"},
		"...":                   nil,
	}
	for in, want := range cases {
		if got := Tokenize(in); !reflect.DeepEqual(got, want) {
			t.Errorf("Tokenize(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Terms("How does the RetryPolicy work"); !reflect.DeepEqual(got, []string{"retrypolicy", "retry", "policy", "work"}) {
		t.Errorf("Terms = %q", got)
	}
	for in, want := range map[string]string{
		"retries": "retry", "payments": "payment", "processes": "process", "boxes": "box",
		"matches": "match", "wishes": "wish", "uses": "uses", "status": "status", "analysis": "analysis",
		"class": "class", "integers": "integer", "flags": "flag", "gas": "gas", "v2s": "v2s", "utf8s": "utf8s",
	} {
		if got := Plural(in); got != want {
			t.Errorf("Plural(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSearchAndNormalize(t *testing.T) {
	ix := New(Recall)
	docs := []string{
		"retry policy for the payment gateway retry retry",
		"the payment gateway accepts cards",
		"logging standards and log levels",
		"retry budget and backoff",
	}
	for _, d := range docs {
		ix.Add(Terms(d))
	}
	q := Terms("payment retry")
	res := ix.Search(q, 0)
	if len(res) != 3 || res[0].Doc != 0 {
		t.Fatalf("results %+v", res)
	}
	for i := 1; i < len(res); i++ {
		if res[i].Score > res[i-1].Score {
			t.Fatal("not sorted")
		}
	}
	n0 := ix.Normalized(res[0].Score, q)
	if n0 <= 0 || n0 >= 1 {
		t.Fatalf("normalised %v", n0)
	}
	// Adding a term the corpus has never seen lowers the normalised score.
	q2 := append(q, "kubernetes")
	if n := ix.Normalized(ix.Search(q2, 1)[0].Score, q2); n >= n0 {
		t.Fatalf("unknown term did not lower the score: %v >= %v", n, n0)
	}
	if got := ix.Search(Terms("zebra"), 0); len(got) != 0 {
		t.Fatalf("unexpected %v", got)
	}
	if got := ix.Search(q, 1); len(got) != 1 {
		t.Fatalf("limit ignored: %v", got)
	}
}

func TestScoreMatchesFormula(t *testing.T) {
	ix := New(Params{K1: 1.5, B: 0.75})
	ix.Add([]string{"a1", "b1", "a1"})
	ix.Add([]string{"b1"})
	res := ix.Search([]string{"a1"}, 0)
	// N=2, n=1: idf = ln(1 + 1.5/1.5) = ln 2; dl=3, avgdl=2, tf=2.
	want := math.Log(2) * 2 * 2.5 / (2 + 1.5*(0.25+0.75*1.5))
	if len(res) != 1 || math.Abs(res[0].Score-want) > 1e-12 {
		t.Fatalf("got %+v want %v", res, want)
	}
	// A document with each query term once at average length normalises to 1/(k1+1).
	ix2 := New(Recall)
	ix2.Add([]string{"x1", "y1"})
	ix2.Add([]string{"z1", "w1"})
	r := ix2.Search([]string{"x1"}, 1)
	if n := ix2.Normalized(r[0].Score, []string{"x1"}); math.Abs(n-0.4) > 1e-12 {
		t.Fatalf("normalised %v, want 0.4", n)
	}
}

func BenchmarkSearch400(b *testing.B) {
	ix := New(Recall)
	words := strings.Fields("retry payment gateway ledger invoice refund settlement webhook idempotency key timeout backoff circuit breaker queue worker schema migration index cache eviction token budget")
	for i := 0; i < 400; i++ {
		var sb strings.Builder
		for j := 0; j < 300; j++ {
			sb.WriteString(words[(i*7+j*13+j*j)%len(words)])
			sb.WriteByte(' ')
		}
		fmt.Fprintf(&sb, "Page%d", i)
		ix.Add(Terms(sb.String()))
	}
	q := Terms("payment retry idempotency key")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ix.Search(q, 10)
	}
}
