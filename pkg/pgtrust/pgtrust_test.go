package pgtrust

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// env isolates the test from the machine: no PG* variable, a home and a
// configuration directory of its own.
func env(t *testing.T) (home string) {
	t.Helper()
	for _, k := range []string{"PGHOST", "PGPORT", "PGUSER", "PGPASSWORD", "PGPASSFILE", "PGSERVICE", "PGSERVICEFILE",
		"PGSSLCERT", "PGSSLKEY", "PGSSLMODE", "DATABASE_URL", EnvAllow, EnvCredentials} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	home = t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	return home
}

func load(t *testing.T) *Policy {
	t.Helper()
	p, err := Load(os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestServersAllowed(t *testing.T) {
	home := env(t)
	t.Setenv(EnvAllow, "db.example.com, 10.1.2.3:6543")
	t.Setenv(EnvCredentials, "[2001:db8::5]:5432")
	trust := filepath.Join(home, ".config", FileRel)
	os.MkdirAll(filepath.Dir(trust), 0o755)
	os.WriteFile(trust, []byte("[postgres]\nallow_hosts = [\"wiki.internal\"]\n"), 0o644)
	p := load(t)
	for dsn, want := range map[string]bool{
		"host=localhost dbname=w":                       true,
		"host=127.0.0.1 port=1 dbname=w":                true,
		"host=127.9.9.9 dbname=w":                       true,
		"host=::1 dbname=w":                             true,
		"host=/run/postgresql dbname=w":                 true,
		"host=db.example.com port=9 dbname=w":           true,
		"postgres://u@DB.Example.com/w":                 true,
		"host=10.1.2.3 port=6543 dbname=w":              true,
		"host=10.1.2.3 port=5432 dbname=w":              false,
		"host=wiki.internal dbname=w":                   true,
		"host=2001:db8::5 dbname=w":                     true,
		"host=evil.example.net dbname=w":                false,
		"host=localhost,evil.example.net dbname=w":      false,
		"postgres://u:p@evil.example.net:5432/w":        false,
		"postgres://u@localhost,evil.example.net:1/w":   false,
		"host=192.0.2.1 dbname=w":                       false,
		"host=localhost.evil.example.net dbname=w":      false,
		"host=127.0.0.1.evil.example.net dbname=w":      false,
		"host=db.example.com.evil.example.net dbname=w": false,
	} {
		_, err := p.Parse(dsn, "/p/.guild/config.toml", "index.dsn")
		var r *Refusal
		if got := !errors.As(err, &r); got != want || err != nil && r == nil {
			t.Errorf("%q: allowed %v (%v), want %v", dsn, got, err, want)
		}
		if r != nil && (!strings.HasPrefix(r.Error(), "/p/.guild/config.toml: index.dsn: names the server ") || !strings.Contains(r.Hint(), EnvAllow+"=")) {
			t.Errorf("%q: refusal %q, hint %q", dsn, r.Error(), r.Hint())
		}
	}
}

// A key that names a file, a service or another credential of this
// machine is refused, naming the key.
func TestKeysThatReachTheMachineRefused(t *testing.T) {
	env(t)
	p := load(t)
	for _, kv := range []string{"passfile=/home/u/.pgpass", "service=prod", "servicefile=/etc/pg_service.conf", "sslkey=/home/u/.ssh/id_rsa",
		"sslcert=/home/u/c.crt", "sslrootcert=/etc/ssl/x", "sslpassword=x", "krbsrvname=postgres", "options=-c%20x=y"} {
		_, err := p.Parse("host=localhost dbname=w "+kv, "/p/.guild/config.toml", "index.dsn")
		key, _, _ := strings.Cut(kv, "=")
		var r *Refusal
		if !errors.As(err, &r) || !strings.Contains(r.Error(), `key "`+key+`"`) {
			t.Errorf("%s: %v, want a refusal naming the key", kv, err)
		}
	}
	if _, err := p.Parse("postgres://u@localhost/w?passfile=/x", "/p/c.toml", "index.dsn"); err == nil {
		t.Error("passfile in a URL accepted")
	}
}

// Only the string's own password survives, unless every server may
// receive the user's credentials.
func TestUsersPasswordWithheld(t *testing.T) {
	home := env(t)
	t.Setenv("PGPASSWORD", "from-env")
	for dsn, want := range map[string]string{
		"host=localhost dbname=w":                     "",
		"host=localhost dbname=w password=repo-own":   "repo-own",
		"host=localhost dbname=w password='a b\\'c'":  "a b'c",
		"postgres://u@localhost/w":                    "",
		"postgres://u:repo-own@localhost/w":           "repo-own",
		"postgres://u@localhost/w?password=query-own": "query-own",
	} {
		got, err := load(t).Parse(dsn, "/p/c.toml", "index.dsn")
		if err != nil || got.Config.Password != want || got.Withheld != (want == "") {
			t.Errorf("%q: password %q withheld %v (%v), want %q", dsn, got.Config.Password, got.Withheld, err, want)
		}
	}
	os.Unsetenv("PGPASSWORD")
	pgpass := filepath.Join(home, ".pgpass")
	os.WriteFile(pgpass, []byte("*:*:*:*:from-pgpass\n"), 0o600)
	if got, _ := load(t).Parse("host=localhost dbname=w user=u", "/p/c.toml", "index.dsn"); got.Config.Password != "" {
		t.Errorf("~/.pgpass: password %q sent", got.Config.Password)
	}
	t.Setenv(EnvCredentials, "localhost")
	if got, _ := load(t).Parse("host=localhost dbname=w user=u", "/p/c.toml", "index.dsn"); got.Config.Password != "from-pgpass" || got.Withheld {
		t.Errorf("a credential host: password %q, withheld %v", got.Config.Password, got.Withheld)
	}
}

// The user's client certificate (~/.postgresql/postgresql.crt) is not
// presented to a server a repository named.
func TestClientCertificateWithheld(t *testing.T) {
	home := env(t)
	writeCert(t, filepath.Join(home, ".postgresql"))
	got, err := load(t).Parse("host=localhost dbname=w sslmode=require", "/p/c.toml", "index.dsn")
	if err != nil {
		t.Fatal(err)
	}
	if tc := got.Config.TLSConfig; tc == nil || len(tc.Certificates) != 0 || tc.GetClientCertificate != nil || got.Config.SSLCertMode != "disable" || !got.Withheld {
		t.Fatalf("the client certificate is still offered: %+v %q", tc, got.Config.SSLCertMode)
	}
	t.Setenv(EnvCredentials, "localhost")
	got, _ = load(t).Parse("host=localhost dbname=w sslmode=require", "/p/c.toml", "index.dsn")
	if tc := got.Config.TLSConfig; tc == nil || len(tc.Certificates) != 1 {
		t.Fatal("a credential host does not get the certificate")
	}
}

func TestBrokenTrustFileNamed(t *testing.T) {
	home := env(t)
	trust := filepath.Join(home, ".config", FileRel)
	os.MkdirAll(filepath.Dir(trust), 0o755)
	os.WriteFile(trust, []byte("[postgres]\nallow = [\"x\"]\n"), 0o644)
	if _, err := Load(os.Getenv); err == nil || !strings.Contains(err.Error(), trust) || !strings.Contains(err.Error(), "unknown key postgres.allow") {
		t.Fatalf("broken trust file: %v", err)
	}
	os.WriteFile(trust, []byte("[postgres]\nallow_hosts = [\"[x\"]\n"), 0o644)
	if _, err := Load(os.Getenv); err == nil || !strings.Contains(err.Error(), "postgres.allow_hosts") {
		t.Fatalf("bad entry: %v", err)
	}
}

// writeCert writes a self-signed client certificate and key where libpq
// and pgx look for them.
func writeCert(t *testing.T, dir string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "u"}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, _ := x509.MarshalECPrivateKey(key)
	os.MkdirAll(dir, 0o700)
	os.WriteFile(filepath.Join(dir, "postgresql.crt"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(filepath.Join(dir, "postgresql.key"), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600)
}
