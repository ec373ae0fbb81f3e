package main

import (
	"reflect"
	"strings"
	"testing"
)

func testResolver() *resolver {
	src := source{Repo: "o/n", URLBase: []string{"/docs/"}, Hosts: []string{"example.org"},
		Replace: map[string]string{"{{< param version >}}": "v3"}}
	return newResolver(src, []string{
		"faq.md", "guide/setup.md", "guide/index.md", "ref/cli.md", "ref/config/_index.md",
		"v3/ops.md", "api/ipc.mdx", "README.md", "name/unique-page.md",
	})
}

func TestResolve(t *testing.T) {
	r := testResolver()
	for _, c := range []struct{ from, target, want string }{
		{"faq.md", "guide/setup.md", "guide/setup.md"},
		{"faq.md", "guide/setup.md#anchor", "guide/setup.md"},
		{"guide/setup.md", "../ref/cli.md?x=1", "ref/cli.md"},
		{"faq.md", "/docs/ref/cli/", "ref/cli.md"},
		{"faq.md", "https://example.org/docs/guide/", "guide/index.md"},
		{"faq.md", "https://other.org/docs/guide/setup.md", ""},
		{"faq.md", "/blog/guide/setup.md", ""},
		{"faq.md", "ref/config", "ref/config/_index.md"},
		{"faq.md", "api/ipc.html", "api/ipc.mdx"},
		{"faq.md", "#only-an-anchor", ""},
		{"faq.md", "mailto:a@example.org", ""},
		{"faq.md", "../outside.md", ""},
		{"faq.md", "/docs/", ""},
		// a page served at guide/setup/ resolves relative links against that URL
		{"guide/setup.md", "../../ref/cli/", "ref/cli.md"},
		{"faq.md", "/docs/{{< param version >}}/ops/", "v3/ops.md"},
		{"faq.md", `{{< relref "ref/cli#install" >}}`, "ref/cli.md"},
		{"faq.md", `{{< ref unique-page >}}`, "name/unique-page.md"},
		{"faq.md", `{{< ref missing >}}`, ""},
	} {
		if got := r.resolve(c.from, c.target); got != c.want {
			t.Errorf("resolve(%q, %q) = %q, want %q", c.from, c.target, got, c.want)
		}
	}
}

func TestLinks(t *testing.T) {
	text := "See ![img](pic.png) the [setup](guide/setup.md \"title\") and [cli][ref], <a href=\"/docs/ref/cli/\">x</a>, " +
		"[dep]({{< relref \"dependency-specification#x\" >}}) and [Config][].\n\n[ref]: ref/cli.md\n[config]: <ref/config>\n"
	var got []string
	for _, l := range links(text, linkDefs(text)) {
		got = append(got, l.target)
	}
	want := []string{"guide/setup.md", "ref/cli.md", "/docs/ref/cli/", `{{< relref "dependency-specification#x" >}}`, "ref/config"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("links = %q, want %q", got, want)
	}
}

func TestBuildPairs(t *testing.T) {
	src := source{Repo: "o/n", Commit: "abc", URLBase: []string{"/"}}
	faq := "---\ntitle: FAQ\n---\n## General\n\n### How do I set `up` a box?\n\nSee [setup](guide/setup.md) and [cli](ref/cli.md).\n\n" +
		"#### Details\n\nAlso [setup again](guide/setup.md).\n\n### I lost my config\n\nRead [the config page](ref/config/).\n\n" +
		"### Is this answered elsewhere?\n\nOnly [an external page](https://example.com/).\n\n" +
		"### How do I set up a box?\n\nAsked twice: [cli](ref/cli.md).\n\n### Why not the root?\n\nSee [home](/).\n"
	guide := "# Setup\n\n## Steps\n\nRun it, then [configure](../ref/config/_index.md).\n\n## How to go faster?\n\nRead [the cli](../ref/cli.md).\n\n" +
		"## Frequently asked questions\n\n### Backups\n\nSee [config](../ref/config/_index.md).\n\n### Can it scale?\n\nYes, [cli](../ref/cli.md).\n"
	pages := []docPage{
		{Rel: "faq.md", Data: []byte(faq)},
		{Rel: "guide/setup.md", Data: []byte(guide)},
		{Rel: "ref/cli.md", Data: []byte("# CLI\n\ntext\n")},
		{Rel: "ref/config/_index.md", Data: []byte("# Config\n\ntext\n")},
		{Rel: "_index.md", Data: []byte("# Home\n\ntext\n")},
	}
	got := buildPairs(src, pages)
	var lines []string
	for _, p := range got {
		lines = append(lines, p.Rule+" "+p.From+": "+p.Question+" -> "+strings.Join(p.Pages, ","))
	}
	want := []string{
		"faq wiki/faq.md: How do I set up a box? -> wiki/guide/setup.md,wiki/ref/cli.md",
		"faq wiki/faq.md: I lost my config -> wiki/ref/config/_index.md",
		"question-heading wiki/guide/setup.md: How to go faster? -> wiki/ref/cli.md",
		"question-heading wiki/guide/setup.md: Can it scale? -> wiki/ref/cli.md",
	}
	if !reflect.DeepEqual(lines, want) {
		t.Errorf("pairs:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	if got[0].ID != "o/n#1" || got[0].Line != 6 || got[0].Split != splitOf(src) {
		t.Errorf("first pair %+v", got[0])
	}
}

func TestScore(t *testing.T) {
	p := pair{From: "wiki/faq.md", Pages: []string{"wiki/b.md", "wiki/c.md"}}
	a := score([]string{"wiki/faq.md", "wiki/a.md", "wiki/a.md", "wiki/c.md", "wiki/b.md"}, p)
	if !reflect.DeepEqual(a.Pages, []string{"wiki/a.md", "wiki/c.md", "wiki/b.md"}) || a.Rank != 2 {
		t.Errorf("score = %+v", a)
	}
	var many []string
	for i := 0; i < 20; i++ {
		many = append(many, "wiki/x"+string(rune('a'+i))+".md")
	}
	if a := score(append(many, "wiki/b.md"), p); a.Rank != 0 || len(a.Pages) != depth {
		t.Errorf("beyond depth: %+v", a)
	}
}

func TestMeasure(t *testing.T) {
	outs := []outcome{
		{pair: pair{Split: "tune"}, Answers: map[string]answer{"x": {Pages: []string{"a"}, Rank: 1}, "y": {Pages: []string{"a"}}}},
		{pair: pair{Split: "tune"}, Answers: map[string]answer{"x": {Pages: []string{"a", "b"}, Rank: 4}, "y": {Pages: []string{"b"}}}},
		{pair: pair{Split: "tune"}, Answers: map[string]answer{"x": {}, "y": {}}},
		{pair: pair{Split: "tune"}, Answers: map[string]answer{"x": {Pages: []string{"c"}, Rank: 6}, "y": {Pages: []string{"c"}}}},
	}
	m := measure(outs, "x")
	if m.N != 4 || m.R1 != 0.25 || m.R5 != 0.5 || m.EmptyShare != 0.25 || m.Found != 0.75 {
		t.Errorf("measure = %+v", m)
	}
	if want := (1 + 0.25 + 1.0/6) / 4; m.MRR != want {
		t.Errorf("MRR %v, want %v", m.MRR, want)
	}
	if got := agreement(outs, []string{"x", "y"}); got != 0.75 {
		t.Errorf("agreement %v, want 0.75", got)
	}
}

// TestPairList checks the committed pair list against the builder's rules
// without the mirrors: every pair names a source of sources.go with its
// split, ids are unique, there are at least 200 pairs and both splits hold
// some.
func TestPairList(t *testing.T) {
	pairs, err := readPairs("pairs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(pairs) < 200 {
		t.Errorf("%d pairs, want at least 200", len(pairs))
	}
	ids := map[string]bool{}
	split := map[string]int{}
	for _, p := range pairs {
		src, err := sourceOf(p)
		if err != nil {
			t.Fatal(err)
		}
		if p.Split != splitOf(src) {
			t.Errorf("%s: split %q, want %q", p.ID, p.Split, splitOf(src))
		}
		if ids[p.ID] {
			t.Errorf("%s: duplicate id", p.ID)
		}
		ids[p.ID] = true
		split[p.Split]++
		if p.Question == "" || len(p.Pages) == 0 || !strings.HasPrefix(p.From, "wiki/") {
			t.Errorf("%s: incomplete pair %+v", p.ID, p)
		}
	}
	if split["tune"] == 0 || split["heldout"] == 0 {
		t.Errorf("splits %v", split)
	}
}
