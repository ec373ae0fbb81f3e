package secret

import (
	mrand "math/rand/v2"
	"strings"
	"testing"
)

// Every provider format the extra rules add is found, whole, in a line
// of its own and in the shapes it is written in.
func TestProviderFormats(t *testing.T) {
	f := fake{mrand.New(mrand.NewPCG(8, 8))}
	hex := "0123456789abcdef"
	cases := []struct{ rule, secret, context string }{
		{"openai-api-key", "sk-proj-" + f.s(b64url, 156), "OPENAI_API_KEY=%s"},
		{"openai-api-key", "sk-svcacct-" + f.s(b64url, 120), "key: %s"},
		{"openai-api-key", "sk-" + f.s(alnum, 48), `openai.api_key = "%s"`},
		{"anthropic-api-key", "sk-ant-oat01-" + f.s(b64url, 95), "token %s"},
		{"anthropic-api-key", "sk-ant-api03-" + f.s(b64url, 93) + "AA", "(%s)."},
		{"gcp-oauth-client-secret", "GOCSPX-" + f.s(b64url, 28), `"client_secret":"%s"`},
		{"gcp-oauth-access-token", "ya29." + f.s(b64url, 120), "Authorization: Bearer %s"},
		{"gcp-oauth-refresh-token", "1//0" + f.s(b64url, 100), "refresh: %s"},
		{"telegram-bot-api-token", "5" + f.s("0123456789", 9) + ":AA" + f.s(b64url, 33), "BOT=%s"},
		{"telegram-bot-api-token", "5" + f.s("0123456789", 9) + ":AA" + f.s(b64url, 33), "https://api.telegram.org/bot%s/getMe"},
		// a token as a directory or a URL path segment
		{"npm-access-token", "npm_" + f.s(alnum, 36), "/home/u/%s/config.json"},
		{"stripe-access-token", "sk_live_" + f.s(alnum, 24), "https://api.example.com/v1/%s/charges"},
		{"aws-amazon-bedrock-api-key-short-lived", "bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t" + f.s(b64, 300) + "==", "export AWS_BEARER_TOKEN_BEDROCK=%s"},
		{"groq-api-key", "gsk_" + f.s(alnum, 52), "GROQ_API_KEY=%s"},
		{"xai-api-key", "xai-" + f.s(alnum, 80), "XAI_API_KEY=%s"},
		{"openrouter-api-key", "sk-or-v1-" + f.s(hex, 64), "key %s,"},
		{"stripe-webhook-secret", "whsec_" + f.s(alnum, 32), "[%s]"},
		{"supabase-access-token", "sbp_" + f.s(hex, 40), "SUPABASE_ACCESS_TOKEN=%s"},
		{"replicate-api-token", "r8_" + f.s(alnum, 37), "REPLICATE_API_TOKEN=%s"},
		{"tailscale-key", "tskey-auth-" + f.s(alnum, 12) + "-" + f.s(alnum, 33), "--authkey=%s"},
		// gitleaks' groups name or repeat parts of these: the whole token goes
		{"microsoft-teams-webhook", "https://acme.webhook.office.com/webhookb2/" + uuid(f) + "@" + uuid(f) + "/IncomingWebhook/" + f.s(hex, 32) + "/" + uuid(f), "url: %s"},
		{"jwt-base64", "ZXlKaGJHY2lPaUpJVXpJMU5pSXNJblI1Y0NJNklrcFhWQ0o5" + f.s(b64, 80), "TOKEN=%s"},
	}
	for _, c := range cases {
		in := strings.Replace(c.context, "%s", c.secret, 1)
		out, rules := Redact(in)
		if leaks(out, c.secret) {
			t.Errorf("%s: %q survives in %q", c.rule, c.secret, out)
		}
		found := false
		for _, r := range rules {
			found = found || r == c.rule
		}
		if !found {
			t.Errorf("%s: rules %v for %q", c.rule, rules, out)
		}
	}
}

func uuid(f fake) string {
	hex := "0123456789abcdef"
	return f.s(hex, 8) + "-" + f.s(hex, 4) + "-" + f.s(hex, 4) + "-" + f.s(hex, 4) + "-" + f.s(hex, 12)
}

// Code that names a secret and then an identifier, a call or a path keeps
// every byte: the closes gitleaks refused are accepted only for values
// that do not read as code. The lines are GOROOT's and prometheus' that
// the wider closes first masked.
func TestBoundsLeaveCodeAlone(t *testing.T) {
	for _, s := range []string{
		"\ttestCertificates := []Certificate{{Certificate: [][]byte{testRSA2048Certificate}, PrivateKey: testRSA2048PrivateKey}}",
		`	{"APIBKeyLo_EL1", REG_APIBKeyLo_EL1, 0x182140, SR_READ | SR_WRITE},`,
		"\t\ttestRoundTrip(t, GenerateKey768, NewEncapsulationKey768, NewDecapsulationKey768)",
		"github.com/jimstudt/http-authentication,v0.0.0-20140401203705-3eca13d6893a,h1:BcF8coBl0QFVhe8vAMMlD+CV8EISiu9MGKLoj6ZEyJA=,0bcf35e1ca",
		"\tif !s.ReadUint16LengthPrefixed(&keyShares) {",
		"\tfor _, f := range []func(*cryptobyte.String) bool{s.ReadUint16LengthPrefixed, s.ReadUint24LengthPrefixed} {",
		"\tearlySecret := tls13.NewEarlySecret(hs.suite.hash.New, psk)",
		"\tsig, err := rsa.SignPSS(rand.Reader, key, crypto.SHA512, hashed, opts)",
		"\t\t{name: \"in link with original PWD\", dir: link, pwd: cwd},",
		"\t\t\tt.Fatalf(\"PWD: got %q, want %q\", pwd, tc.pwd)",
		"// process ([\"USER=go\", \"PWD=/tmp\"]).",
		"\t\t// \tgroupname:password:GID:user_list",
		"\tapi := api_v1.NewAPI(",
		"key = permutedChoice1[i]",
	} {
		if out, rules := Redact(s); out != s {
			t.Errorf("Redact(%q) = %q %v; want it unchanged", s, out, rules)
		}
	}
}

// A value after a name is found before the closes gitleaks refused when
// it does not read as code, and a value rejected as code does not hide the
// assignment inside it.
func TestBoundsFindValues(t *testing.T) {
	for _, c := range []struct{ in, secret string }{
		{"(api_key: 8f3Kd92mDk3kd9f3Xq1z)", "8f3Kd92mDk3kd9f3Xq1z"},
		{"{password: hunter2}", "hunter2"},
		{"<b>password: s3cret!</b>", "s3cret!"},
		{"?token=credentials=9fJ2kQ8zLm3Xw7Vb1NcT&page=2", "9fJ2kQ8zLm3Xw7Vb1NcT"},
		{"the vault token s.Xk29dJ3kLs9aQ1bW7cN4vR2e, rotated", "Xk29dJ3kLs9aQ1bW7cN4vR2e"},
	} {
		out, rules := Redact(c.in)
		if leaks(out, c.secret) || len(rules) == 0 || strings.Count(out, markPrefix) != 1 {
			t.Errorf("Redact(%q) = %q %v", c.in, out, rules)
		}
	}
}

// A random value reads as code seldom: under 1% of 32-character keys of
// the usual alphabets, closed by a byte gitleaks refused.
func TestCodeValueRarelyRandom(t *testing.T) {
	f := fake{mrand.New(mrand.NewPCG(5, 5))}
	for _, alphabet := range []string{alnum, "0123456789abcdef", "abcdefghijklmnopqrstuvwxyz0123456789", b64url} {
		code := 0
		for range 2000 {
			if codeValue(f.s(alphabet, 32)) {
				code++
			}
		}
		if code > 20 {
			t.Errorf("alphabet %q: %d of 2000 random values read as code", alphabet, code)
		}
	}
}

// Each bound fix finds what it replaces in gitleaks' pattern: after a
// gitleaks upgrade that rewrites one, this fails until the fix is looked
// at again.
func TestBoundFixesApply(t *testing.T) {
	n := 0
	for _, gr := range gitleaksTable.Rules {
		for _, f := range boundFixes[gr.ID] {
			n++
			if !strings.Contains(gr.Regex, f[0]) {
				t.Errorf("%s: %q is no longer in its pattern", gr.ID, f[0])
			}
		}
	}
	want := 0
	for _, fs := range boundFixes {
		want += len(fs)
	}
	if n != want {
		t.Errorf("%d fixes met their rules, want %d", n, want)
	}
	if c := strings.Count(closeTokens("x", gitleaksTable.Rules[2].Regex), gitleaksClose); c != 0 {
		t.Errorf("a gitleaks close is left: %d", c)
	}
}
