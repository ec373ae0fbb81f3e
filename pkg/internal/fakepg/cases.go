package fakepg

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/pgtrust"
)

// secret is the user's password, in every place libpq and pgx read one.
const secret = "users-own-s3cret"

// Case is one index.dsn a repository sets, with what the user's
// environment holds, and what a server may see.
type Case struct {
	Name string
	// dsn is index.dsn in the repository's .guild/config.toml; "" leaves
	// it out (the user's DATABASE_URL then decides). @LOOP@, @OTHER@ and
	// @SOCK@ are the fake servers' hosts, @PORT@ their port.
	dsn string
	// env is the user's environment beside PGPASSWORD=secret.
	env map[string]string
	// trust is the user's trust file.
	trust string
	// userConfig puts the configuration in a --config file outside the
	// tree instead.
	userConfig bool
	// server is the fake the DSN reaches: "loop", "other" (a non-loopback
	// address of this machine) or "sock".
	server string
	// refused: exit 2 naming index.dsn and the file, no connection.
	refused bool
	// password is what the server may receive ("" none of the user's).
	password string
}

// Cases are the index.dsn cases guild-recall's test runs through the
// command line and rtch-mcp's through its guild_recall tool.
func Cases() []Case {
	allowOther := map[string]string{pgtrust.EnvAllow: "@OTHER@"}
	credOther := map[string]string{pgtrust.EnvCredentials: "@OTHER@"}
	return []Case{
		{Name: "loopback, PGPASSWORD", dsn: "host=@LOOP@ port=@PORT@ user=agent dbname=wiki sslmode=disable", server: "loop"},
		{Name: "loopback, PGPASSFILE", dsn: "host=@LOOP@ port=@PORT@ user=agent dbname=wiki sslmode=disable", server: "loop",
			env: map[string]string{"PGPASSWORD": "", "PGPASSFILE": "@HOME@/pgpass"}},
		{Name: "loopback, ~/.pgpass", dsn: "host=@LOOP@ port=@PORT@ user=agent dbname=wiki sslmode=disable", server: "loop",
			env: map[string]string{"PGPASSWORD": ""}},
		{Name: "loopback, PGSERVICE", dsn: "host=@LOOP@ port=@PORT@ user=agent dbname=wiki sslmode=disable", server: "loop",
			env: map[string]string{"PGPASSWORD": "", "PGSERVICE": "wiki", "PGSERVICEFILE": "@HOME@/pg_service.conf"}},
		{Name: "the DSN names the user's passfile", dsn: "host=@LOOP@ port=@PORT@ user=agent dbname=wiki sslmode=disable passfile=@HOME@/pgpass",
			server: "loop", refused: true},
		{Name: "the DSN names a service", dsn: "service=wiki", server: "loop", refused: true,
			env: map[string]string{"PGSERVICEFILE": "@HOME@/pg_service.conf"}},
		{Name: "the DSN's own password", dsn: "host=@LOOP@ port=@PORT@ user=agent dbname=wiki sslmode=disable password=the-repos-own",
			server: "loop", password: "the-repos-own"},
		{Name: "a URL", dsn: "postgres://agent@@LOOP@:@PORT@/wiki?sslmode=disable", server: "loop"},
		{Name: "a Unix socket", dsn: "host=@SOCK@ port=@PORT@ user=agent dbname=wiki sslmode=disable", server: "sock"},
		{Name: "another host, not allowed", dsn: "host=@OTHER@ port=@PORT@ user=agent dbname=wiki sslmode=disable", server: "other", refused: true},
		{Name: "another host in a URL, not allowed", dsn: "postgres://agent@@OTHER@:@PORT@/wiki?sslmode=disable", server: "other", refused: true},
		{Name: "loopback then another host", dsn: "host=@LOOP@,@OTHER@ port=@PORT@ user=agent dbname=wiki sslmode=disable", server: "other", refused: true},
		{Name: "PGHOST names another host", dsn: "port=@PORT@ user=agent dbname=wiki sslmode=disable", server: "other", refused: true,
			env: map[string]string{"PGHOST": "@OTHER@"}},
		{Name: "another host allowed in the environment", dsn: "host=@OTHER@ port=@PORT@ user=agent dbname=wiki sslmode=disable",
			server: "other", env: allowOther},
		{Name: "another host allowed in the trust file", dsn: "host=@OTHER@ port=@PORT@ user=agent dbname=wiki sslmode=disable",
			server: "other", trust: "[postgres]\nallow_hosts = [\"@OTHER@\"]\n"},
		{Name: "another host allowed with another port", dsn: "host=@OTHER@ port=@PORT@ user=agent dbname=wiki sslmode=disable",
			server: "other", refused: true, env: map[string]string{pgtrust.EnvAllow: "@OTHER@:1"}},
		{Name: "credentials allowed in the environment", dsn: "host=@OTHER@ port=@PORT@ user=agent dbname=wiki sslmode=disable",
			server: "other", env: credOther, password: secret},
		{Name: "credentials allowed in the trust file", dsn: "host=@LOOP@ port=@PORT@ user=agent dbname=wiki sslmode=disable",
			server: "loop", trust: "[postgres]\ncredential_hosts = [\"@LOOP@\"]\n", password: secret},
		{Name: "the user's DATABASE_URL", server: "loop", password: secret,
			env: map[string]string{"DATABASE_URL": "postgres://agent@@LOOP@:@PORT@/wiki?sslmode=disable"}},
		{Name: "the user's --config outside the tree", dsn: "host=@OTHER@ port=@PORT@ user=agent dbname=wiki sslmode=disable",
			server: "other", userConfig: true, password: secret},
	}
}

// World is one case set up: the fake servers, the project, the user's
// environment (the process's: pgx reads it there).
type World struct {
	c Case
	// Root is the project; Config its configuration file, or the user's
	// own outside it (Args names it then).
	Root, Config         string
	loop, other, sock    *Server
	loopH, otherH, sockH string
}

// Args are guild-recall's arguments beside the query.
func (w *World) Args() []string {
	if w.c.userConfig {
		return []string{"--cwd", w.Root, "--config", w.Config}
	}
	return []string{"--cwd", w.Root}
}

// Setup starts the servers and writes the project and the user's files;
// it skips t when the case needs a non-loopback address this machine does
// not have.
func Setup(t *testing.T, c Case) *World {
	t.Helper()
	w := &World{c: c}
	home := t.TempDir()
	// A short socket directory: a Unix socket path is limited to ~100 bytes.
	sockDir, err := os.MkdirTemp("", "fpg")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(sockDir) })
	w.loop = listen(t, "tcp", "127.0.0.1:0")
	w.loopH = "127.0.0.1"
	port := w.loop.Addr().(*net.TCPAddr).Port
	w.sock = listen(t, "unix", filepath.Join(sockDir, fmt.Sprintf(".s.PGSQL.%d", port)))
	w.sockH = sockDir
	if ip := otherAddress(); ip != "" {
		if w.other, err = Listen("tcp", net.JoinHostPort(ip, fmt.Sprint(port))); err == nil {
			t.Cleanup(func() { w.other.Close() })
			w.otherH = ip
		}
	}
	if c.server == "other" && w.other == nil {
		t.Skip("no non-loopback address to listen on at the loopback server's port")
	}
	sub := strings.NewReplacer("@LOOP@", w.loopH, "@OTHER@", w.otherH, "@SOCK@", w.sockH, "@PORT@", fmt.Sprint(port), "@HOME@", home)
	isolate(t, home)
	t.Setenv("PGPASSWORD", secret)
	for k, v := range c.env {
		t.Setenv(k, sub.Replace(v))
	}
	os.WriteFile(filepath.Join(home, ".pgpass"), []byte("*:*:*:*:"+secret+"\n"), 0o600)
	os.WriteFile(filepath.Join(home, "pgpass"), []byte("*:*:*:*:"+secret+"\n"), 0o600)
	os.WriteFile(filepath.Join(home, "pg_service.conf"), []byte(sub.Replace("[wiki]\nhost=@LOOP@\nport=@PORT@\nuser=agent\ndbname=wiki\nsslmode=disable\npassword="+secret+"\n")), 0o600)
	if c.trust != "" {
		p := filepath.Join(home, ".config", pgtrust.FileRel)
		os.MkdirAll(filepath.Dir(p), 0o700)
		os.WriteFile(p, []byte(sub.Replace(c.trust)), 0o600)
	}
	w.Root = filepath.Join(t.TempDir(), "project")
	cfg := "[index]\nbackend = \"postgres\"\nwiki_file_threshold = 1\n"
	if c.dsn != "" {
		cfg += fmt.Sprintf("dsn = %q\n", sub.Replace(c.dsn))
	}
	w.Config = filepath.Join(w.Root, ".guild", "config.toml")
	if c.userConfig {
		w.Config = filepath.Join(home, "guild.toml")
	}
	write(t, w.Config, cfg)
	write(t, filepath.Join(w.Root, "wiki", "concepts", "retry.md"), "# Retry budget\n\nEvery client has a retry budget.\n")
	return w
}

// isolate empties the PG* environment and gives the user home and
// configuration directories of the test's own.
func isolate(t *testing.T, home string) {
	for _, k := range []string{"PGHOST", "PGPORT", "PGUSER", "PGDATABASE", "PGPASSWORD", "PGPASSFILE", "PGSERVICE", "PGSERVICEFILE",
		"PGSSLMODE", "PGSSLCERT", "PGSSLKEY", "DATABASE_URL", pgtrust.EnvAllow, pgtrust.EnvCredentials} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func listen(t *testing.T, network, addr string) *Server {
	t.Helper()
	s, err := Listen(network, addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// otherAddress is a non-loopback IPv4 address of this machine, "" when
// there is none.
func otherAddress() string {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return ""
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() {
			return n.IP.String()
		}
	}
	return ""
}

// Check compares what the servers saw and how the run ended (failed, and
// its diagnostics) with the case.
func (w *World) Check(t *testing.T, failed bool, stderr string) {
	t.Helper()
	var logins []Login
	for _, s := range []*Server{w.loop, w.other, w.sock} {
		if s != nil {
			s.Close() // waits for the logins in flight: the client may exit before its handler records one
			logins = append(logins, s.Logins()...)
		}
	}
	for _, l := range logins {
		if strings.Contains(l.Password, secret) && w.c.password != secret {
			t.Errorf("a server received the user's password %q", l.Password)
		}
	}
	if w.c.refused {
		if !failed || len(logins) != 0 || !strings.Contains(stderr, w.Config+": index.dsn: ") {
			t.Errorf("want a refusal naming %s and index.dsn and no connection; got failed %v, %d logins:\n%s", w.Config, failed, len(logins), stderr)
		}
		return
	}
	if len(logins) == 0 {
		t.Fatalf("no server was reached (failed %v):\n%s", failed, stderr)
	}
	l := logins[0]
	if l.Password != w.c.password || l.Params["user"] != "agent" {
		t.Errorf("the server received password %q (sent %v) as %q, want %q:\n%s", l.Password, l.Sent, l.Params["user"], w.c.password, stderr)
	}
	if w.c.password == "" && !strings.Contains(stderr, "none of your credentials was sent: index.dsn in "+w.Config) {
		t.Errorf("the failed login does not say the user's password was withheld:\n%s", stderr)
	}
}

// Refused reports whether the case is refused before any connection.
func (c Case) Refused() bool { return c.refused }

// UserConfig reports whether the case runs with the user's own --config
// file (a command-line case: rtch-mcp serves the project's configuration).
func (c Case) UserConfig() bool { return c.userConfig }
