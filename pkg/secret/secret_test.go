package secret

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	mrand "math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// fake draws n characters from alphabet with a fixed seed: realistic-looking
// keys that are not anyone's.
type fake struct{ r *mrand.Rand }

func (f fake) s(alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[f.r.IntN(len(alphabet))]
	}
	return string(b)
}

const (
	upperDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	alnum       = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b64         = alnum + "+/"
	b64url      = alnum + "-_"
)

func pemKey(t *testing.T, typ string) string {
	t.Helper()
	var der []byte
	switch typ {
	case "EC PRIVATE KEY":
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		if der, err = x509.MarshalECPrivateKey(k); err != nil {
			t.Fatal(err)
		}
	default:
		_, k, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		if der, err = x509.MarshalPKCS8PrivateKey(k); err != nil {
			t.Fatal(err)
		}
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}))
}

// rsaShaped is a PEM block the size of a 4096-bit RSA key (random DER
// bytes: the shape, not a key), 50 lines.
func rsaShaped(seed uint64) string {
	r := mrand.New(mrand.NewPCG(seed, 7))
	der := make([]byte, 2348)
	for i := range der {
		der[i] = byte(r.IntN(256))
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: der}))
}

// formatCase is a secret of a format, planted in a context (%s marks where).
type formatCase struct{ rule, secret, context string }

// formatCases are one secret of every format the rules know, each in a
// context where it is found.
func formatCases(t *testing.T) []formatCase {
	f := fake{mrand.New(mrand.NewPCG(1, 2))}
	jwt := func() string {
		enc := base64.RawURLEncoding.EncodeToString
		return enc([]byte(`{"alg":"HS256","typ":"JWT"}`)) + "." +
			enc([]byte(`{"sub":"1234567890","name":"Jo Doe","iat":1516239022}`)) + "." + f.s(b64url, 43)
	}
	ecKey, pkcs8 := pemKey(t, "EC PRIVATE KEY"), pemKey(t, "PRIVATE KEY")
	cut := strings.Join(strings.Split(rsaShaped(1), "\n")[:3], "\n") // block cut by a chunk boundary
	return []formatCase{
		{"private-key", ecKey, "key := `%s`"},
		{"private-key", pkcs8, "%s"},
		{"private-key", strings.TrimSpace(cut), "config:\n%s"},
		{"private-key", "-----BEGIN OPENSSH PRIVATE KEY-----\n" + f.s(b64, 70) + "\n" + f.s(b64, 70) + "\n-----END OPENSSH PRIVATE KEY-----", "%s\n"},
		{"private-key", `-----BEGIN PRIVATE KEY-----\n` + f.s(b64, 64) + `\n-----END PRIVATE KEY-----\n`, `{"private_key": "%s"}`},
		{"private-key", `-----BEGIN PRIVATE KEY-----\n` + f.s(b64, 64) + `\n` + f.s(b64, 64), `{"private_key": "%s`},
		{"aws-access-token", "AKIA" + f.s(upperDigits, 16), "aws_access_key_id = %s"},
		{"aws-secret-access-key", f.s(b64, 40), "aws_secret_access_key=%s\n"},
		{"aws-session-token", "IQoJb3JpZ2luX2VjE" + f.s(b64, 200), "aws_session_token = %s\n"},
		{"gcp-api-key", "AIza" + f.s(b64url, 35), `const key = "%s"`},
		{"gcp-private-key-id", f.s("0123456789abcdef", 40), `{"type": "service_account", "private_key_id": "%s"}`},
		{"azure-storage-key", f.s(b64, 86) + "==", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=%s;EndpointSuffix=core.windows.net"},
		{"github-pat", "ghp_" + f.s(alnum, 36), "GITHUB_TOKEN: %s"},
		{"github-fine-grained-pat", "github_pat_" + f.s(alnum, 22) + "_" + f.s(alnum, 59), "token %s"},
		{"gitlab-pat", "glpat-" + f.s(b64url, 20), "git clone https://oauth2:%s@gitlab.com/x/y.git"},
		{"slack-bot-token", "xoxb-" + f.s("0123456789", 12) + "-" + f.s("0123456789", 13) + "-" + f.s(alnum, 24), "SLACK=%s"},
		{"stripe-access-token", "sk_live_" + f.s(alnum, 24), "stripe.Key = \"%s\""},
		{"sendgrid-api-token", "SG." + f.s(b64url, 22) + "." + f.s(b64url, 43), "SENDGRID=%s"},
		{"jwt", jwt(), "Authorization: Bearer %s"},
		{"url-credentials", "Xk9" + f.s(alnum, 13), "DATABASE_URL=postgres://app:%s@db.internal:5432/app"},
		{"password-assignment", "hunter2", "password: %s"},
		{"password-assignment", "hunter2", `db_password = "%s"`},
		{"password-assignment", "s3cr3t-Pa55", `{"user": "svc", "pass": "%s"}`},
		{"netrc-password", "Tr0ub4dor3", "machine api.example.com\n  login bob\n  password %s\n"},
		{"docker-config-auth", base64.StdEncoding.EncodeToString([]byte("bob:" + f.s(alnum, 12))), `{"auths": {"ghcr.io": {"auth": "%s"}}}`},
		{"kubeconfig-key-data", base64.StdEncoding.EncodeToString([]byte(f.s(alnum, 90))), "users:\n- name: u\n  user:\n    client-key-data: %s\n"},
		{"base64-github-pat", base64.StdEncoding.EncodeToString([]byte("ghp_" + f.s(alnum, 36))), "TOKEN_B64=%s"},
		{"secret-assignment", "a8F3" + f.s(alnum, 20), "api_key: '%s'"},
	}
}

func TestRedactKeyFormats(t *testing.T) {
	for _, c := range formatCases(t) {
		in := strings.Replace(c.context, "%s", c.secret, 1)
		out, rules := Redact(in)
		core := strings.TrimSpace(c.secret)
		if len(core) > 40 {
			core = core[len(core)/2-10 : len(core)/2+10] // a piece from the middle of a block
		}
		if strings.Contains(out, core) {
			t.Errorf("%s: secret survives in %q", c.rule, out)
		}
		if !slices.Contains(rules, c.rule) {
			t.Errorf("%s: rules %v, output %q", c.rule, rules, out)
		}
		if strings.Count(out, "\n") != strings.Count(in, "\n") {
			t.Errorf("%s: line count changed: %q", c.rule, out)
		}
		if again, _ := Redact(out); again != out {
			t.Errorf("%s: not idempotent: %q then %q", c.rule, out, again)
		}
		if got := Rules(out); !slices.Equal(got, rules) {
			t.Errorf("%s: Rules(out) = %v, want %v", c.rule, got, rules)
		}
	}
}

// A window that starts inside a key, below its BEGIN line, is still
// redacted: the body lines are recognised by their shape.
func TestRedactWindowInsideKey(t *testing.T) {
	file := "a\nb\nc\nd\ne\n" + rsaShaped(3) + "after\n"
	lines := strings.Split(file, "\n")
	window := strings.Join(lines[9:40], "\n") + "\n" // L10-L40
	out, rules := Redact(window)
	for i, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if l != Mark("private-key") {
			t.Errorf("window line %d not redacted: %q", i+10, l)
		}
	}
	if !slices.Equal(rules, []string{"private-key"}) {
		t.Errorf("rules %v", rules)
	}
	whole, _ := Redact(file)
	if strings.Count(whole, Mark("private-key")) != 51 || !strings.HasPrefix(whole, "a\nb\n") || !strings.HasSuffix(whole, "after\n") {
		t.Errorf("whole file: %q", whole)
	}
}

// Certificates and public keys are not secrets: their bodies stay.
func TestRedactKeepsCertificates(t *testing.T) {
	der := make([]byte, 600)
	for i := range der {
		der[i] = byte(i * 7)
	}
	cert := string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
	if out, rules := Redact(cert); out != cert {
		t.Errorf("certificate changed: %v %q", rules, out)
	}
}

// Code and prose that only name secrets keep every byte.
func TestRedactLeavesMentionsAlone(t *testing.T) {
	for _, s := range []string{
		`password := flag.String("password", "", "database password")`,
		`tok := token.Pos(12)`,
		`if token == "" { return errNoToken }`,
		`var errBadToken = errors.New("bad token")`,
		`const tokenType = "IDENT"`,
		`tokenizer = "cl100k_base"`,
		`secretName: "db-credentials"`,
		`password = os.Getenv("DB_PASSWORD")`,
		"\tXMIT_PASS                         = 0x2\n\tNFT_PASS = 0x14",
		`Password: cfg.Password,`,
		`password: password`,
		`api_key: ${{ secrets.API_KEY }}`,
		`"password": "{{ .Values.password }}"`,
		`PASSWORD=changeme`,
		`export API_TOKEN=<your-token-here>`,
		`postgres://user:password@localhost:5432/db`,
		`https://user:${PASS}@example.com`,
		`// The secret key is read from the keychain; see docs/secrets.md.`,
		`func (p *Parser) token() Token { return p.tok }`,
		`private_key_path = "/etc/ssl/private/server.key"`,
		`AKIA is the prefix of long-term AWS access key ids.`,
		`sk_live_ keys must never be committed.`,
		`const pemHeader = "-----BEGIN RSA PRIVATE KEY-----"` + "\nfunc parse(b []byte) {}\n",
	} {
		out, rules := Redact(s)
		if out != s || len(rules) != 0 {
			t.Errorf("Redact(%q) = %q %v; want it unchanged", s, out, rules)
		}
	}
}

func TestDefaultRulesLoad(t *testing.T) {
	rs := defaultRules()
	if len(rs.rules) < 150 {
		t.Fatalf("%d gitleaks rules loaded", len(rs.rules))
	}
	for _, r := range rs.rules {
		mustCompile(t, r.src.ID, r.src.Regex)
		r.compile()
	}
}

func mustCompile(t *testing.T, id, src string) *regexp.Regexp {
	re, err := regexp.Compile(src)
	if err != nil {
		t.Fatalf("rule %s: %v", id, err)
	}
	return re
}

// TestRedactionEnabled fails in a build with the rtch_noredact tag, the
// measurement build: such binaries must never pass for the real ones.
func TestRedactionEnabled(t *testing.T) {
	if !enabled {
		t.Fatal("built with -tags rtch_noredact: redaction is off")
	}
}
