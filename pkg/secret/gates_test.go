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

// gateTexts are assignments of secret-shaped values to every keyword the
// gates look after, in every spelling of the operators and fillers the
// rules allow, one per line and also split over two lines.
func gateTexts() []string {
	f := fake{mrand.New(mrand.NewPCG(9, 9))}
	names := []string{"access", "api", "API", "auth", "key", "credential", "creds", "passwd", "password", "secret", "token",
		"db_password", "clientSecret", "api_key", "AWS_SECRET_ACCESS_KEY", "aws_session_token", "pwd", "pass", "my.auth.key", "private_key"}
	ops := []string{"=", ":", ":=", "=>", "::=", "||", "?=", ",", ">", " = ", ": ", "\t=\t", `": "`, `' => '`, " \n= ", ":\n  "}
	fills := []string{"", "s", "_v2", " value", ".x", "-id", `"`, `'`, "  \t"}
	var texts []string
	for _, n := range names {
		for _, o := range ops {
			for _, fl := range fills {
				v := f.s(alnum, 32)
				texts = append(texts,
					fmt.Sprintf("%s%s%s\"%s\"\n", n, fl, o, v),
					fmt.Sprintf("x.%s%s%s%s;\n", n, fl, o, v),
					fmt.Sprintf("s.%s %s%s s.%s\n", f.s(alnum, 24), n, o, f.s(alnum, 30)))
			}
		}
	}
	texts = append(texts, "token := s."+f.s(alnum, 24)+"\nhvs."+f.s(alnum, 100)+"\n")
	// JWTs after every kind of byte, and "ey" where none starts
	for _, before := range []string{"", " ", "\"", "=", "x", "_", "\n", "Bearer "} {
		for _, n := range []int{16, 17, 30} {
			// the second part's "ey" fails the gate (an _ within 17): the
			// first one alone has the match
			jwt := "ey" + f.s(alnum, n) + ".ey" + f.s(alnum, 5) + "_" + f.s(alnum, 30) + "." + f.s(b64url, 43)
			texts = append(texts, before+jwt+"\n", "they"+before+jwt+"\n", "EY"+f.s(alnum, n)+".ey"+f.s(alnum, 20)+".x\n")
		}
	}
	// thirty lines a text: the rules see each line's window as alone
	var out []string
	for i := 0; i < len(texts); i += 30 {
		out = append(out, strings.Join(texts[i:min(i+30, len(texts))], ""))
	}
	return out
}

// TestGatesKeepEveryFinding holds the gates to their claim: Find gives the
// same findings with and without them, on the assignment texts and on Go
// files of GOROOT's net/http.
func TestGatesKeepEveryFinding(t *testing.T) {
	texts := gateTexts()
	// without gates the generic rule runs on every "key" and "token" line,
	// seconds over all of net/http: its larger files, ~470 KB, suffice
	for _, name := range []string{"server.go", "transport.go", "request.go", "client.go", "fs.go", "cookie.go", "header.go", "clientserver_test.go"} {
		b, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "net", "http", name))
		if err != nil {
			t.Logf("GOROOT/src/net/http: %v; assignment texts only", err)
			continue
		}
		texts = append(texts, string(b))
	}
	found := 0
	for _, fs := range findingsAlike(t, texts, &gatesOff, "gates") {
		found += len(fs)
	}
	if found < 4*len(texts) {
		t.Fatalf("only %d findings in %d texts: the texts no longer hold secrets", found, len(texts))
	}
}

// findingsAlike checks that Find gives each text the same findings with
// *off set as without (what names the shortcut off turns off) and returns
// them.
func findingsAlike(t *testing.T, texts []string, off *bool, what string) [][]Finding {
	t.Helper()
	out := make([][]Finding, len(texts))
	for i, text := range texts {
		with := Find(text)
		*off = true
		without := Find(text)
		*off = false
		if !slices.Equal(with, without) {
			t.Errorf("%s change the findings of %.200q:\nwith    %v\nwithout %v", what, text, with, without)
		}
		out[i] = with
	}
	return out
}

func TestOperatorFollows(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"key = x1234567890", true}, {"key\n  : x1234567890", true}, {`key": "x1234567890`, true},
		{"key, okay_value := m[k]", true}, {"key:::= '\"  0123456789", true}, {"key = a+b/c=d.e-f_g", true},
		{"key)", false}, {"key(x) = 1", false}, {"key" + strings.Repeat(" ", 24) + "=", false},
		{"key" + strings.Repeat("a", 23) + "=0123456789", true},
		// the value is short, or starts too far after the operator
		{"key = x", false}, {"key, ok := m[k]", false}, {"key = 123456789", false}, {"key:::=      0123456789", false},
	} {
		if got := operatorFollows(c.text, 0, 3); got != c.want {
			t.Errorf("operatorFollows(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

// The stop words are ASCII, which the matcher that finds them folds.
func TestStopWordsASCII(t *testing.T) {
	for _, r := range gitleaksTable.Rules {
		for _, a := range append(r.Allowlists, gitleaksTable.Allowlist) {
			for _, w := range a.StopWords {
				for i := 0; i < len(w); i++ {
					if w[i] >= 0x80 {
						t.Fatalf("%s: stop word %q is not ASCII", r.ID, w)
					}
				}
			}
		}
	}
}

// A gitleaks stop word in a value keeps it (the generic rule's list of
// common words), and the same value without one is masked.
func TestStopWords(t *testing.T) {
	if out, rules := Redact("token ?= bootstrap9Xk2mQ7zL4"); len(rules) != 0 {
		t.Errorf("a stop word's value masked: %q", out)
	}
	if out, rules := Redact("token ?= zqw9Xk2mQ7zL4vB8"); len(rules) == 0 {
		t.Errorf("a value without a stop word kept: %q", out)
	}
}
