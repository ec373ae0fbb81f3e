package main

import (
	"reflect"
	"strings"
	"testing"
)

func commit(msg string, files ...fileChange) commitInfo {
	return commitInfo{Hash: strings.Repeat("c", 40), Parents: []string{strings.Repeat("p", 40)}, Author: "Ann", Email: "ann@example.com",
		Message: msg, Files: files}
}

func mod(p string) fileChange { return fileChange{Path: p, Status: 'M', Added: 2, Deleted: 1} }

func TestJudge(t *testing.T) {
	ok := commit("Fix the panic on an empty route\n\nSigned-off-by: Ann <ann@example.com>\n", mod("router.go"), mod("router_test.go"), mod("README.md"))
	j, why := judge(ok)
	if why != "" || !reflect.DeepEqual(j.Gold, []string{"router.go"}) || j.Intent != "Fix the panic on an empty route" {
		t.Fatalf("judge = %+v, %q", j, why)
	}
	merge := ok
	merge.Parents = append(merge.Parents, strings.Repeat("d", 40))
	bot := ok
	bot.Author = "dependabot[bot]"
	cases := map[string]commitInfo{
		"not one parent":                         merge,
		"bot author":                             bot,
		"not a fix":                              commit("Add a router option for trailing slashes", mod("router.go")),
		"excluded topic":                         commit("fix typo in the router docs", mod("router.go")),
		"short message":                          commit("fix #123", mod("router.go")),
		"no gold source file":                    commit("Fix the broken link in the guide", mod("docs/guide.md"), mod("router_test.go")),
		"adds, deletes or retypes a source file": commit("Fix the crash with a new helper", mod("router.go"), fileChange{Path: "helper.go", Status: 'A'}),
		"too many gold files":                    commit("Fix the wrong header in every handler", mod("a.go"), mod("b.go"), mod("c.go"), mod("d.go"), mod("e.go"), mod("f.go")),
	}
	for want, c := range cases {
		if _, why := judge(c); why != want {
			t.Errorf("%q: reason %q, want %q", c.Message, why, want)
		}
	}
	// Generated, vendored and test files are never gold.
	j, why = judge(commit("fix wrong default timeout", mod("api/x.pb.go"), mod("vendor/a/b.go"), mod("src/__tests__/a.ts"), mod("client.go")))
	if why != "" || !reflect.DeepEqual(j.Gold, []string{"client.go"}) {
		t.Errorf("gold %v (%q), want only client.go", j.Gold, why)
	}
	big := commit("Fix the wrong header", fileChange{Path: "a.go", Status: 'M', Added: 250, Deleted: 60})
	if why := checkLines(big, []string{"a.go"}); why != "too many gold lines" {
		t.Errorf("a 310-line change: %q", why)
	}
}

func TestIntentKeepsTheMessageWithoutTrailers(t *testing.T) {
	msg := "fix(router): keep the query string\n\nThe redirect dropped it.\nFixes #12.\n\nSigned-off-by: A <a@b>\nCo-authored-by: B <b@c>\n"
	want := "fix(router): keep the query string\n\nThe redirect dropped it.\nFixes #12."
	if got := intentOf(msg); got != want {
		t.Errorf("intent %q, want %q", got, want)
	}
}

func TestParseHunks(t *testing.T) {
	diff := "diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -160,0 +161,3 @@ func f() {\n+a\n@@ -178 +181 @@\n-b\n+c\n@@ -200,3 +203,2 @@\n" +
		"diff --git a/new.go b/new.go\n--- /dev/null\n+++ b/new.go\n@@ -0,0 +1,2 @@\n"
	got, err := parseHunks([]byte(diff))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][][2]int{"x.go": {{160, 160}, {178, 178}, {200, 202}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("hunks %v, want %v", got, want)
	}
}

func TestGoldFunctionsAreTheInnermostDefinitions(t *testing.T) {
	src := "package x\n\nimport \"fmt\"\n\ntype T struct{}\n\nfunc (t *T) Run() {\n\tfmt.Println(1)\n}\n\nfunc helper() int {\n\treturn 2\n}\n"
	got := goldFunctions("x.go", []byte(src), [][2]int{{3, 3}, {8, 8}, {12, 12}})
	want := []goldFunc{{Name: "T.Run", Kind: "method", Start: 7, End: 9}, {Name: "helper", Kind: "func", Start: 11, End: 13}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("gold functions %+v, want %+v", got, want)
	}
	py := "class A:\n    def f(self):\n        return 1\n\n    def g(self):\n        return 2\n"
	got = goldFunctions("a.py", []byte(py), [][2]int{{6, 6}})
	if len(got) != 1 || got[0].Name != "A.g" || got[0].Start != 5 {
		t.Errorf("python gold functions %+v, want A.g at 5", got)
	}
}
