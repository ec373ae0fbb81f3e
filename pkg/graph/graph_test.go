package graph

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

func load(t *testing.T) (*Graph, []Problem) {
	t.Helper()
	f, err := os.Open("testdata/kg.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, probs, err := Load(f, "kg.json")
	if err != nil {
		t.Fatal(err)
	}
	return g, probs
}

func ids(hs []Hit) []string {
	var out []string
	for _, h := range hs {
		out = append(out, h.Node.ID)
	}
	return out
}

func TestValidation(t *testing.T) {
	g, probs := load(t)
	var msgs []string
	for _, p := range probs {
		msgs = append(msgs, p.Msg)
	}
	want := []string{
		`nodes[6]: duplicate id "pkg/pay.Retry"; the first one is kept`,
		`edges[6]: dangling edge pkg/api.Handler -> pkg/missing (no node "pkg/missing"); dropped`,
		`edges[7]: unknown direction "sideways"; dropped`,
	}
	if !reflect.DeepEqual(msgs, want) {
		t.Fatalf("problems %q", msgs)
	}
	if len(g.Nodes) != 6 {
		t.Fatalf("nodes %d", len(g.Nodes))
	}
}

func TestLoadErrors(t *testing.T) {
	for src, want := range map[string]string{
		"{\n\"version\": 1,\n\"nodes\": [1]\n}": "x.json:3: nodes",
		"{\n\"version\": 1,\n\"nodes\": [\n":    "x.json",
		"{\"version\": \"guild.kg.v9\"}":        `version "guild.kg.v9"`,
		"{\"nodes\": []}":                       "no version",
		"{\"version\": 1}\n{\"version\": 1}":    "x.json:2: trailing data",
		"":                                      "x.json: empty file",
	} {
		_, _, err := Load(strings.NewReader(src), "x.json")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", src, err, want)
		}
	}
}

func TestParseIntent(t *testing.T) {
	cases := map[string]Intent{
		"callers of Charge?":                     {Kind: "callers", Target: "Charge", Inbound: true, EdgeTypes: callTypes},
		"implementations of io.Reader":           {Kind: "implementers", Target: "io.Reader", Inbound: true, EdgeTypes: implementTypes},
		"what implements http.Handler?":          {Kind: "implementers", Target: "http.Handler", Inbound: true, EdgeTypes: implementTypes},
		"what does bytes.Buffer implement":       {Kind: "implemented", Target: "bytes.Buffer", Inbound: false, EdgeTypes: implementTypes},
		"Who calls `pkg/pay.Charge`":             {Kind: "callers", Target: "pkg/pay.Charge", Inbound: true, EdgeTypes: callTypes},
		"what imports pay":                       {Kind: "importers", Target: "pay", Inbound: true, EdgeTypes: importTypes},
		"impact of changing Retry":               {Kind: "impact", Target: "Retry", Inbound: true},
		"what does Charge call":                  {Kind: "callees", Target: "Charge", EdgeTypes: callTypes},
		"imports of api":                         {Kind: "imports", Target: "api", EdgeTypes: importTypes},
		"what does pay define":                   {Kind: "defines", Target: "pay", EdgeTypes: defineTypes},
		"what breaks if we change pkg/pay.Retry": {Kind: "impact", Target: "pkg/pay.Retry", Inbound: true},
	}
	for q, want := range cases {
		got, ok := ParseIntent(q)
		if !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("ParseIntent(%q) = %+v %v, want %+v", q, got, ok, want)
		}
	}
	for _, q := range []string{"how do retries work", "payment retry policy", "callers of the retry logic in the payment gateway module"} {
		if in, ok := ParseIntent(q); ok {
			t.Errorf("%q parsed as %+v", q, in)
		}
	}
}

func TestStructural(t *testing.T) {
	g, _ := load(t)
	run := func(q string) []Hit {
		in, ok := ParseIntent(q)
		if !ok {
			t.Fatalf("not an intent: %q", q)
		}
		hs, ok := g.Structural(in, Options{})
		if !ok {
			t.Fatalf("unresolved: %q", q)
		}
		return hs
	}
	if got := ids(run("callers of Charge")); !reflect.DeepEqual(got, []string{"pkg/pay.Charge", "pkg/api.Handler", "pkg/cli.Main"}) {
		t.Errorf("callers: %q", got)
	}
	if got := ids(run("what does Charge call")); !reflect.DeepEqual(got, []string{"pkg/pay.Charge", "pkg/pay.Retry"}) {
		t.Errorf("callees: %q", got)
	}
	if got := ids(run("what imports pay")); !reflect.DeepEqual(got, []string{"pkg/pay", "pkg/api"}) {
		t.Errorf("importers: %q", got)
	}
	if got := ids(run("what does pay define")); !reflect.DeepEqual(got, []string{"pkg/pay", "pkg/pay.Charge", "pkg/pay.Retry"}) {
		t.Errorf("defines: %q", got)
	}
	// Impact follows every inbound edge: Retry is called by Charge, defined by
	// pay; Charge is called by Handler and Main; pay is imported by api. A
	// use outranks a container, a path through a container ranks last.
	hs := run("impact of changing pkg/pay.Retry")
	if got := ids(hs); !reflect.DeepEqual(got, []string{"pkg/pay.Retry", "pkg/pay.Charge", "pkg/pay", "pkg/api.Handler", "pkg/api", "pkg/cli.Main"}) {
		t.Errorf("impact: %q", got)
	}
	if hs[2].Depth != 1 || !strings.Contains(hs[2].Text, "reached: defines Retry") {
		t.Errorf("hit %+v", hs[2])
	}
	in, _ := ParseIntent("impact of changing Retry")
	if hs, _ := g.Structural(in, Options{MaxDepth: 1}); len(hs) != 3 {
		t.Errorf("depth 1 gave %q", ids(hs))
	}
	if _, ok := g.Structural(Intent{Kind: "callers", Target: "Nope", Inbound: true}, Options{}); ok {
		t.Error("unknown target resolved")
	}
	if got := g.Resolve("pkg/pay/retry.go"); len(got) != 1 || g.Nodes[got[0]].ID != "pkg/pay.Retry" {
		t.Errorf("resolve by source ref: %v", got)
	}
}

func TestQueryTokenCap(t *testing.T) {
	g, _ := load(t)
	hs := g.Query("retry backoff policy", Options{})
	if len(hs) == 0 || hs[0].Node.ID != "pkg/pay.Retry" || hs[0].Score <= 0 || hs[0].Score > 1 {
		t.Fatalf("hits %+v", hs)
	}
	for i := 1; i < len(hs); i++ {
		if hs[i].Score > hs[i-1].Score || hs[i].Depth == 0 && hs[i].Relation != "" {
			t.Fatalf("order %+v", hs)
		}
	}
	capped := g.Query("retry backoff policy", Options{MaxTokens: hs[0].Tokens})
	total := 0
	for _, h := range capped {
		total += h.Tokens
	}
	if len(capped) == 0 || total > hs[0].Tokens {
		t.Fatalf("cap ignored: %d tokens in %d hits", total, len(capped))
	}
	if got := g.Query("the of and", Options{}); got != nil {
		t.Fatalf("stopword query gave %v", got)
	}
}
