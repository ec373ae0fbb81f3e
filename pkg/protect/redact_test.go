package protect

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	mrand "math/rand/v2"
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

func TestRedactKeyFormats(t *testing.T) {
	f := fake{mrand.New(mrand.NewPCG(1, 2))}
	jwt := func() string {
		enc := base64.RawURLEncoding.EncodeToString
		return enc([]byte(`{"alg":"HS256","typ":"JWT"}`)) + "." +
			enc([]byte(`{"sub":"1234567890","name":"Jo Doe","iat":1516239022}`)) + "." + f.s(b64url, 43)
	}
	ecKey, pkcs8 := pemKey(t, "EC PRIVATE KEY"), pemKey(t, "PRIVATE KEY")
	cut := strings.Join(strings.Split(pemKey(t, "PRIVATE KEY"), "\n")[:2], "\n") // block cut by a chunk boundary
	cases := []struct {
		rule, secret, context string
	}{
		{"private_key", ecKey, "key := `%s`"},
		{"private_key", pkcs8, "%s"},
		{"private_key", strings.TrimSpace(cut), "config:\n%s"},
		{"private_key", "-----BEGIN OPENSSH PRIVATE KEY-----\n" + f.s(b64, 70) + "\n" + f.s(b64, 70) + "\n-----END OPENSSH PRIVATE KEY-----", "%s\n"},
		{"private_key", `-----BEGIN PRIVATE KEY-----\n` + f.s(b64, 64) + `\n-----END PRIVATE KEY-----\n`, `{"private_key": "%s"}`},
		{"aws_access_key_id", "AKIA" + f.s(upperDigits, 16), "aws_access_key_id = %s"},
		{"aws_secret_access_key", f.s(b64, 40), "aws_secret_access_key=%s\n"},
		{"gcp_api_key", "AIza" + f.s(b64url, 35), `const key = "%s"`},
		{"azure_storage_key", f.s(b64, 86) + "==", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=%s;EndpointSuffix=core.windows.net"},
		{"azure_sas_signature", f.s(alnum, 43) + "%3D", "https://acct.blob.core.windows.net/c?sv=2022-11-02&se=2030-01-01&sig=%s"},
		{"github_token", "ghp_" + f.s(alnum, 36), "GITHUB_TOKEN: %s"},
		{"github_token", "github_pat_" + f.s(alnum, 22) + "_" + f.s(alnum, 59), "token %s"},
		{"gitlab_token", "glpat-" + f.s(b64url, 20), "git clone https://oauth2:%s@gitlab.com/x/y.git"},
		{"slack_token", "xoxb-" + f.s("0123456789", 12) + "-" + f.s("0123456789", 13) + "-" + f.s(alnum, 24), "SLACK=%s"},
		{"slack_webhook", "https://hooks.slack.com/services/T" + f.s(upperDigits, 8) + "/B" + f.s(upperDigits, 8) + "/" + f.s(alnum, 24), "url: %s"},
		{"stripe_key", "sk_live_" + f.s(alnum, 24), "stripe.Key = \"%s\""},
		{"jwt", jwt(), "Authorization: Bearer %s"},
		{"url_credentials", "Xk9" + f.s(alnum, 13), "DATABASE_URL=postgres://app:%s@db.internal:5432/app"},
		{"secret_assignment", "k3J9" + f.s(alnum, 12), `db_password = "%s"`},
		{"secret_assignment", "a8F3" + f.s(alnum, 20), "api_key: '%s'"},
		{"secret_assignment", "Zx8" + f.s(alnum, 29), "SECRET_KEY=%s\n"},
		{"secret_assignment", "p4ss" + f.s(b64, 16), `clientSecret := "%s"`},
	}
	for _, c := range cases {
		in := strings.Replace(c.context, "%s", c.secret, 1)
		out, rules := Redact(in)
		core := strings.TrimSpace(c.secret)
		if len(core) > 40 {
			core = core[len(core)/2-10 : len(core)/2+10] // a piece from the middle of a block
		}
		if strings.Contains(out, core) {
			t.Errorf("%s: secret survives in %q", c.rule, out)
		}
		if !slices.Contains(rules, c.rule) || !strings.Contains(out, "[REDACTED:"+c.rule+"]") {
			t.Errorf("%s: rules %v, output %q", c.rule, rules, out)
		}
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
		`password: "hunter2"`,
		`password = os.Getenv("DB_PASSWORD")`,
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
	} {
		out, rules := Redact(s)
		if out != s || len(rules) != 0 {
			t.Errorf("Redact(%q) = %q %v; want it unchanged", s, out, rules)
		}
	}
}
