package noleak

import (
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// Secret is one planted secret: the file it is in and the pieces of it that
// must never be printed (a key block's body lines, else the value itself).
type Secret struct {
	Name   string
	File   string
	Pieces []string
}

// gen draws fake key material from a fixed seed: realistic shapes, nobody's keys.
type gen struct{ r *rand.Rand }

const (
	upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	b32   = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567" // AWS key ids are base32
	alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	hex   = "0123456789abcdef"
	b64   = alnum + "+/"
)

func (g gen) s(alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[g.r.IntN(len(alphabet))]
	}
	return string(b)
}

// pemBlock is a PEM block of n random bytes (a key's shape, not a key).
func (g gen) pemBlock(typ string, n int) string {
	der := make([]byte, n)
	for i := range der {
		der[i] = byte(g.r.IntN(256))
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}))
}

// bodyLines are a block's base64 lines, the pieces that must not leak.
func bodyLines(block string) []string {
	var out []string
	for _, l := range strings.Split(block, "\n") {
		if l != "" && !strings.HasPrefix(l, "-----") {
			out = append(out, l)
		}
	}
	return out
}

// Fixture writes the 33 files holding the 50 secrets under dir (which may
// already hold a project, e.g. a wiki) and returns the secrets.
func Fixture(dir string) ([]Secret, error) {
	g := gen{rand.New(rand.NewPCG(16, 50))}
	files := map[string]string{}
	var secrets []Secret
	plant := func(file, name, value string) string {
		secrets = append(secrets, Secret{Name: name, File: file, Pieces: []string{value}})
		return value
	}
	plantBlock := func(file, name, block string) string {
		secrets = append(secrets, Secret{Name: name, File: file, Pieces: bodyLines(block)})
		return block
	}
	add := func(file, format string, a ...any) { files[file] += fmt.Sprintf(format, a...) }

	add("config/prod.env", "# production deploy config\nAWS_ACCESS_KEY_ID=%s\nAWS_SECRET_ACCESS_KEY=%s\nAWS_SESSION_TOKEN=%s\n",
		plant("config/prod.env", "aws access key id", "AKIA"+g.s(b32, 16)),
		plant("config/prod.env", "aws secret access key", g.s(b64, 40)),
		plant("config/prod.env", "aws session token", "IQoJb3JpZ2luX2VjE"+g.s(b64, 220)))
	add("config/github.env", "GITHUB_TOKEN=%s\n", plant("config/github.env", "github pat", "ghp_"+g.s(alnum, 36)))
	add("config/db.yaml", "database:\n  host: db.internal\n  user: app\n  password: %s\n", plant("config/db.yaml", "yaml password", "fakeHunter2"))
	add("config/app.json", "{\n  \"user\": \"svc\",\n  \"pass\": \"%s\",\n  \"api_key\": \"%s\"\n}\n",
		plant("config/app.json", "json pass", "Fake-pa55"),
		plant("config/app.json", "json api_key", g.s(alnum, 32)))
	add("config/netrc", "machine api.internal.test\n  login deploy\n  password %s\n", plant("config/netrc", "netrc password", "FakeNetrc9"))
	auth := base64.StdEncoding.EncodeToString([]byte("deploy:" + g.s(alnum, 20)))
	add("config/docker.json", "{\"auths\": {\"registry.internal.test\": {\"auth\": \"%s\"}}}\n", plant("config/docker.json", "docker auth", auth))
	saKey := g.pemBlock("PRIVATE KEY", 1200)
	saJSON, _ := json.Marshal(saKey)
	secrets = append(secrets, Secret{Name: "gcp service-account key", File: "keys/gcp-sa.json", Pieces: bodyLines(saKey)})
	add("keys/gcp-sa.json", "{\n  \"type\": \"service_account\",\n  \"project_id\": \"fake-project\",\n  \"private_key_id\": \"%s\",\n  \"private_key\": %s,\n  \"client_email\": \"svc@fake-project.iam.gserviceaccount.com\"\n}\n",
		plant("keys/gcp-sa.json", "gcp private_key_id", g.s(hex, 40)), saJSON)
	add("deploy/kubeconfig.yaml", "apiVersion: v1\nkind: Config\nusers:\n- name: admin\n  user:\n    client-key-data: %s\n    token: %s\n",
		plant("deploy/kubeconfig.yaml", "kubeconfig client-key-data", base64.StdEncoding.EncodeToString([]byte(g.s(alnum, 120)))),
		plant("deploy/kubeconfig.yaml", "kubeconfig token", g.s(alnum, 40)))
	add("keys/server.key", "# filler 1\n# filler 2\n# filler 3\n# filler 4\n# filler 5\n%s", plantBlock("keys/server.key", "rsa 4096 key", g.pemBlock("RSA PRIVATE KEY", 2348)))
	add("keys/ec.pem", "%s", plantBlock("keys/ec.pem", "ec key", g.pemBlock("EC PRIVATE KEY", 121)))
	add("keys/id_ed25519", "%s", plantBlock("keys/id_ed25519", "openssh key", g.pemBlock("OPENSSH PRIVATE KEY", 400)))
	add("src/payments/stripe.go", "package payments\n\n// client is the payment client.\nvar stripeKey = \"%s\"\n", plant("src/payments/stripe.go", "stripe key", "sk_live_"+g.s(alnum, 24)))
	add("src/notify/sendgrid.py", "SENDGRID_API_KEY = \"%s\"\n", plant("src/notify/sendgrid.py", "sendgrid key", "SG."+g.s(alnum, 22)+"."+g.s(alnum, 43)))
	add("src/chat/slack.js", "const token = '%s';\nconst hook = '%s';\n",
		plant("src/chat/slack.js", "slack bot token", "xoxb-"+g.s("0123456789", 12)+"-"+g.s("0123456789", 13)+"-"+g.s(alnum, 24)),
		plant("src/chat/slack.js", "slack webhook", "https://hooks.slack.com/services/T"+g.s(upper, 8)+"/B"+g.s(upper, 8)+"/"+g.s(alnum, 24)))
	enc := base64.RawURLEncoding.EncodeToString
	jwt := enc([]byte(`{"alg":"HS256","typ":"JWT"}`)) + "." + enc([]byte(`{"sub":"fake-user","iat":1700000000}`)) + "." + g.s(alnum, 43)
	add("src/auth/jwt_test.go", "package auth\n\nconst testJWT = \"%s\"\n", plant("src/auth/jwt_test.go", "jwt", jwt))
	add("config/database.url", "DATABASE_URL=postgres://app:%s@db.internal:5432/app\n", plant("config/database.url", "url password", "FakeDbPw4"+g.s(alnum, 8)))
	add("ci/gitlab.yml", "variables:\n  GITLAB_TOKEN: %s\n", plant("ci/gitlab.yml", "gitlab pat", "glpat-"+g.s(alnum, 20)))
	add("config/npmrc", "//registry.npmjs.org/:_authToken=%s\n", plant("config/npmrc", "npm token", "npm_"+g.s(alnum, 36)))
	add("config/b64.env", "GITHUB_TOKEN_B64=%s\n", plant("config/b64.env", "base64 github pat", base64.StdEncoding.EncodeToString([]byte("ghp_"+g.s(alnum, 36)))))
	add("src/maps/maps.ts", "export const mapsKey = \"%s\";\n", plant("src/maps/maps.ts", "gcp api key", "AIza"+g.s(alnum, 35)))
	add("config/azure.env", "AZURE_STORAGE=DefaultEndpointsProtocol=https;AccountName=fake;AccountKey=%s;EndpointSuffix=core.windows.net\nAZURE_CLIENT_SECRET=%s\n",
		plant("config/azure.env", "azure storage key", g.s(b64, 86)+"=="),
		plant("config/azure.env", "azure client secret", g.s(alnum, 3)+"8Q~"+g.s(alnum, 34)))
	add("src/billing/config.go", "package billing\n\nconst apiToken = \"%s\"\n", plant("src/billing/config.go", "go api token", "f4k3"+g.s(alnum, 28)))
	add("config/settings.toml", "[app]\nsecret_key = \"%s\"\n", plant("config/settings.toml", "toml secret_key", g.s(alnum, 40)))
	add("src/ai/client.py", "ANTHROPIC_API_KEY = \"%s\"\n", plant("src/ai/client.py", "anthropic key", "sk-ant-api03-"+g.s(alnum, 93)+"AA"))
	add("config/twilio.env", "TWILIO_API_KEY=%s\n", plant("config/twilio.env", "twilio key", "SK"+g.s(hex, 32)))
	add("config/mailgun.env", "MAILGUN_API_KEY=%s\n", plant("config/mailgun.env", "mailgun key", "key-"+g.s(hex, 32)))
	add("docs/ops.md", "# Operations\n\nThe deploy bot uses DigitalOcean token `%s`.\n", plant("docs/ops.md", "digitalocean token", "dop_v1_"+g.s(hex, 64)))
	add("deploy/main.tfvars", "db_password = \"%s\"\nvault_token = \"%s\"\n",
		plant("deploy/main.tfvars", "tfvars password", "Fake"+g.s(alnum, 10)),
		plant("deploy/main.tfvars", "vault token", "hvs."+g.s(alnum, 90)))
	add("config/shopify.env", "SHOPIFY_TOKEN=%s\n", plant("config/shopify.env", "shopify token", "shpat_"+g.s(hex, 32)))
	add("wiki/context/credentials.md", "---\ntype: context\ntitle: Deploy credentials\n---\n# Deploy credentials\n\nThe CI token is %s and the staging password: %s\n",
		plant("wiki/context/credentials.md", "wiki github pat", "ghp_"+g.s(alnum, 36)),
		plant("wiki/context/credentials.md", "wiki password", "FakeStaging7"))
	add("wiki/standards/signing-keys.md", "---\ntype: standard\ntitle: Signing keys\n---\n# Signing keys\n\nThe release key id is %s.\n\n```\n%s```\n",
		plant("wiki/standards/signing-keys.md", "wiki aws key id", "AKIA"+g.s(b32, 16)),
		plantBlock("wiki/standards/signing-keys.md", "wiki private key", g.pemBlock("RSA PRIVATE KEY", 600)))
	add("src/cmd/deploy.sh", "#!/bin/sh\nexport PYPI_TOKEN=%s\nexport API_KEY=%s\n",
		plant("src/cmd/deploy.sh", "pypi token", "pypi-AgEIcHlwaS5vcmc"+g.s(alnum, 60)),
		plant("src/cmd/deploy.sh", "shell api key", g.s(alnum, 32)))
	tlsKey := g.pemBlock("PRIVATE KEY", 300)
	add("config/secrets.yaml", "tls:\n  private_key: |\n%s  client_secret: \"%s\"\n  token: %s\nslack_app: %s\nhuggingface: %s\nnewrelic: %s\nmaps_fallback: %s\n",
		indent(plantBlock("config/secrets.yaml", "yaml block private key", tlsKey), "    "),
		plant("config/secrets.yaml", "yaml client_secret", g.s(alnum, 36)),
		plant("config/secrets.yaml", "yaml token", g.s(alnum, 40)),
		plant("config/secrets.yaml", "slack app token", "xapp-1-A"+g.s(upper, 10)+"-"+g.s("0123456789", 13)+"-"+g.s(hex, 64)),
		plant("config/secrets.yaml", "huggingface token", "hf_"+g.s("abcdefghijklmnopqrstuvwxyz", 34)),
		plant("config/secrets.yaml", "newrelic key", "NRAK-"+g.s(upper, 27)),
		plant("config/secrets.yaml", "gcp api key 2", "AIza"+g.s(alnum, 35)))
	return secrets, writeFiles(dir, files)
}

func indent(s, pre string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = pre + l
		}
	}
	return strings.Join(lines, "")
}

// Files lists the fixture's files (relative, sorted by first appearance).
func Files(secrets []Secret) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range secrets {
		if !seen[s.File] {
			seen[s.File] = true
			out = append(out, s.File)
		}
	}
	return out
}

// DiagnosticFixture writes files whose diagnostics quote a secret: a wiki
// page whose frontmatter gives a token as its importance, another as its
// confidence (guild-recall warns, quoting the values), and a
// configuration whose key is a token (every rtch tool refuses it, naming
// the key). It returns the secrets.
func DiagnosticFixture(dir string) ([]Secret, error) {
	g := gen{rand.New(rand.NewPCG(16, 3))}
	var secrets []Secret
	plant := func(file, name, value string) string {
		secrets = append(secrets, Secret{Name: name, File: file, Pieces: []string{value}})
		return value
	}
	page, page2 := "wiki/context/deploy-notes.md", "wiki/context/rotation.md"
	files := map[string]string{
		page: fmt.Sprintf("---\ntype: context\ntitle: Deploy notes\nimportance: %s\n---\n# Deploy notes\n\nThe deploy credentials rotate monthly.\n",
			plant(page, "frontmatter github pat", "ghp_"+g.s(alnum, 36))),
		page2: fmt.Sprintf("---\ntype: context\ntitle: Rotation\nconfidence: %s\n---\n# Rotation\n\nDeploy credentials rotate with a day of overlap.\n",
			plant(page2, "frontmatter gitlab pat", "glpat-"+g.s(alnum, 20))),
		"config/broken.toml": fmt.Sprintf("%s = 1\n", plant("config/broken.toml", "config key github pat", "ghp_"+g.s(alnum, 36))),
	}
	return secrets, writeFiles(dir, files)
}

// writeFiles writes each file (a slash path under dir) with its text.
func writeFiles(dir string, files map[string]string) error {
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}
