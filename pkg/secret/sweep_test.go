package secret

import (
	"fmt"
	mrand "math/rand/v2"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
)

// Redaction must not depend on what surrounds a secret: a token followed
// by a full stop, inside a markdown link or an HTML attribute is as secret
// as one between spaces. The sweep places every sample in every context
// below and counts the placements where any piece of it survives.

// neighbours are the characters a secret is placed between: the issue's
// nineteen (white space, quotes, brackets, punctuation), then more.
var neighbours = []string{" ", "\t", "\n", "'", `"`, "`", "(", ")", "[", "]", "{", "}", "<", ">", ".", ",", ":", ";", "="}

// moreNeighbours widen the sweep beyond the issue's nineteen. '+' and '/'
// are not among them: '+' continues a base64 run, and so does '/' after a
// value found by its name (bounds.go); TestProviderFormats holds tokens
// in paths.
var moreNeighbours = []string{"|", "!", "?", "&", "*", "~", "\\", "#", "@", "%", "^", "$", "\r", "…", "»", "\u00a0", "\u3000"}

// structures are markup a secret sits inside (%s marks where).
var structures = map[string]string{
	"markdown link target": "see [the docs](https://example.com/setup?v=%s) first",
	"markdown link text":   "see [%s](https://example.com/) first",
	"markdown code":        "run `export X=%s` then",
	"markdown bold":        "the key is **%s**.",
	"html attribute":       `<a href="/x" data-v="%s" class="k">key</a>`,
	"html attribute bare":  `<input value=%s>`,
	"html text":            `<code>%s</code>`,
	"url query":            "https://api.example.com/v1/items?q=%s&page=2",
	"json value":           `{"note": "%s", "n": 1}`,
	"yaml list":            "keys:\n  - %s\n  - other\n",
	"parenthesised prose":  "(registry token %s)",
	"graph node":           `{"id": "n1", "name": "registry token", "summary": "(registry token %s)."}`,
}

// namedStructures give a token a name that is itself a secret word, as
// real queries and attributes do. A sample of a rule that finds a value
// by its name would have that name taken for its own, so only the issue's
// tokens are placed in them.
var namedStructures = map[string]string{
	"url query named":      "https://api.example.com/v1/items?key=%s&page=2",
	"html attribute named": `<a href="/x" data-token="%s">key</a>`,
	"markdown link named":  "see [the docs](https://example.com/setup?token=%s) first",
}

// placements are the texts a sample is tried in for one neighbour: the
// neighbour before it and the same (for an opening bracket, the closing
// one) after it, alone, between words and on a line of its own, and on one
// side only. A secret is never followed by an opening bracket: that is a
// call or an index, and reads as code. A sample of a rule that reads a
// whole line (an env file's PASSWORD=…) gets the neighbours on the lines
// around it.
func placements(tok, c string, line bool) []string {
	if line {
		return []string{c + "\n" + tok + "\n" + c, "x " + c + "\n" + tok, tok + "\n" + c + " y"}
	}
	after := c
	switch c {
	case "(":
		after = ")"
	case "[":
		after = "]"
	case "{":
		after = "}"
	case "<":
		after = ">"
	}
	ps := []string{
		c + tok + after,
		"x " + c + tok + after + " y",
		"word" + c + tok + after + " word",
		"line one\n" + c + tok + after + "\nline three",
		"a " + c + tok,
	}
	if after == c {
		ps = append(ps, tok+c+" b", "b "+tok+c)
	}
	return ps
}

// leaks reports whether a piece of secret (any 10 bytes of it, or all of
// a shorter one) survives in out, marks aside.
func leaks(out, secret string) bool {
	out = markRE.ReplaceAllString(out, "")
	n := min(10, len(secret))
	for i := 0; i+n <= len(secret); i++ {
		if strings.Contains(out, secret[i:i+n]) {
			return true
		}
	}
	return false
}

var markRE = regexp.MustCompile(`\[REDACTED:[a-z0-9-]+\]`)

// sweepToken is a sample: the text to place (a token, or a name, an
// operator and a value) and the secret in it that must not survive.
type sweepToken struct {
	name, text, secret string
	line               bool // the rule reads the whole line (placements)
}

// issueTokens are the issue's sixteen token types, in their current
// shapes.
func issueTokens() []sweepToken {
	f := fake{mrand.New(mrand.NewPCG(41, 4))}
	tok := func(name, s string) sweepToken { return sweepToken{name: name, text: s, secret: s} }
	jwt := "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." + "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvIERvZSJ9." + f.s(b64url, 43)
	return []sweepToken{
		tok("openai-project", "sk-proj-"+f.s(b64url, 156)),
		tok("openai-user", "sk-"+f.s(alnum, 48)),
		tok("gcp-oauth-client-secret", "GOCSPX-"+f.s(b64url, 28)),
		tok("telegram-bot", "7"+f.s("0123456789", 9)+":AA"+f.s(b64url, 33)),
		tok("stripe", "sk_live_"+f.s(alnum, 99)),
		tok("npm", "npm_"+f.s(alnum, 36)),
		tok("sendgrid", "SG."+f.s(b64url, 22)+"."+f.s(b64url, 43)),
		tok("vault", "hvs."+f.s(b64url, 95)),
		tok("anthropic", "sk-ant-api03-"+f.s(b64url, 93)+"AA"),
		tok("gcp-api-key", "AIza"+f.s(b64url, 35)),
		tok("github-pat", "ghp_"+f.s(alnum, 36)),
		tok("aws-access-key-id", "AKIA"+f.s(upperDigits, 16)),
		tok("slack-bot", "xoxb-"+f.s("0123456789", 12)+"-"+f.s("0123456789", 13)+"-"+f.s(alnum, 24)),
		tok("gitlab-pat", "glpat-"+f.s(b64url, 20)),
		tok("jwt", jwt),
		tok("huggingface", "hf_"+f.s(alnum[:52], 34)),
	}
}

// sweep places each token in each context and returns the leaking
// (token, context) pairs, and how many pairs it tried.
func sweep(tokens []sweepToken, chars []string, structs map[string]string) (leaked []string, tried int) {
	for _, tk := range tokens {
		for _, c := range chars {
			tried++
			for _, text := range placements(tk.text, c, tk.line) {
				if out, _ := Redact(text); leaks(out, tk.secret) {
					leaked = append(leaked, fmt.Sprintf("%s next to %q: %q", tk.name, c, out))
					break
				}
			}
		}
		for name, s := range structs {
			if tk.line {
				continue // markup holds no env line
			}
			tried++
			if out, _ := Redact(fmt.Sprintf(s, tk.text)); leaks(out, tk.secret) {
				leaked = append(leaked, fmt.Sprintf("%s in %s: %q", tk.name, name, out))
			}
		}
	}
	return leaked, tried
}

// TestSweepIssueTokens: the issue's sixteen token types next to each of its
// nineteen neighbouring characters (304 placements), then next to more
// characters and inside markup, leak nowhere.
func TestSweepIssueTokens(t *testing.T) {
	leaked, tried := sweep(issueTokens(), neighbours, nil)
	t.Logf("issue sweep: %d of %d placements leak", len(leaked), tried)
	for _, l := range leaked {
		t.Error(l)
	}
	all := map[string]string{}
	for _, m := range []map[string]string{structures, namedStructures} {
		for k, v := range m {
			all[k] = v
		}
	}
	leaked, tried = sweep(issueTokens(), moreNeighbours, all)
	t.Logf("wider sweep: %d of %d placements leak", len(leaked), tried)
	for _, l := range leaked {
		t.Error(l)
	}
}

// ruleSamples are, for every rule with keywords (gitleaks' and the extra
// ones), up to n matches of its own pattern that it finds between spaces
// (the match without the space that closes it) and the secret in each.
func ruleSamples(t *testing.T, n int) (samples []sweepToken, rules map[string]bool) {
	t.Helper()
	r := mrand.New(mrand.NewPCG(4, 41))
	rules = map[string]bool{}
	for _, p := range rulePatterns() {
		parsed, err := syntax.Parse(p.src, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		re := regexp.MustCompile(p.src)
		found := 0
		for try := 0; try < 40*n && found < n; try++ {
			var b strings.Builder
			if !sample(&b, parsed, r, true) {
				continue
			}
			text := " " + b.String() + " "
			m := re.FindStringIndex(text)
			if m == nil || strings.ContainsAny(text[m[0]:m[1]], "\n\r") {
				continue
			}
			var secret string
			for _, f := range Find(text) {
				if f.Start < m[1] && f.End > m[0] && f.Rule == p.id {
					secret = text[f.Start:f.End]
					break
				}
			}
			if secret == "" || strings.ContainsAny(secret, " \t") {
				continue
			}
			rules[p.id] = true
			samples = append(samples, sweepToken{p.id, strings.Trim(text[m[0]:m[1]], " "), secret, strings.HasPrefix(p.src, "(?m)^")})
			found++
		}
	}
	return samples, rules
}

// TestSweepEveryRule: a sample of every rule (drawn from the rule's own
// pattern, found between spaces) is found next to every neighbouring
// character and inside every markup context.
func TestSweepEveryRule(t *testing.T) {
	samples, rules := ruleSamples(t, 2)
	if len(rules) < 150 {
		t.Fatalf("samples of only %d rules", len(rules))
	}
	leaked, tried := sweep(samples, append(append([]string{}, neighbours...), moreNeighbours...), structures)
	t.Logf("rule sweep: %d samples of %d rules, %d of %d placements leak", len(samples), len(rules), len(leaked), tried)
	for i, l := range leaked {
		if i == 4000 {
			t.Errorf("and %d more", len(leaked)-40)
			break
		}
		t.Error(l)
	}
}
