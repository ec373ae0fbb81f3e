// Package pgtrust decides what a PostgreSQL connection string taken from a
// repository's configuration (index.dsn in a .guild/config.toml inside the
// tree) may do on the user's machine. Such a string is written by whoever
// wrote the repository, so:
//
//   - it may name only servers the user allowed: loopback and Unix sockets,
//     and the hosts listed in GUILD_PG_ALLOW_HOSTS or in allow_hosts of the
//     user's trust file (<user config dir>/guild/trust.toml);
//   - it may hold only the keys that say where the server is and how to
//     speak to it: none that names a file of this machine (passfile,
//     servicefile, sslkey, sslcert, sslrootcert), a service of the user's
//     service file, or another credential (sslpassword, krbsrvname);
//   - the server receives no credential of the user's (PGPASSWORD, a
//     password from PGPASSFILE or ~/.pgpass, from a PGSERVICE entry, a
//     client certificate from ~/.postgresql or PGSSLCERT), only the
//     password written in the string itself, unless every server it names
//     is listed in GUILD_PG_CREDENTIAL_HOSTS or credential_hosts of the
//     trust file.
//
// A connection string from the user's own configuration (DATABASE_URL, the
// PG* variables, a --config file outside the tree) is not restricted.
package pgtrust

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/rtch/rtch/pkg/config"
)

// The variables that list the hosts a repository's index.dsn may name and
// the hosts that may receive the user's credentials.
const (
	EnvAllow       = "GUILD_PG_ALLOW_HOSTS"
	EnvCredentials = "GUILD_PG_CREDENTIAL_HOSTS"
)

// FileRel is the user's trust file under the user configuration directory
// (os.UserConfigDir: $XDG_CONFIG_HOME or ~/.config on Linux).
const FileRel = "guild/trust.toml"

// repositoryKeys are the keys a repository's connection string may hold.
var repositoryKeys = []string{"host", "port", "dbname", "user", "password", "sslmode", "sslnegotiation", "sslsni",
	"connect_timeout", "application_name", "target_session_attrs", "require_auth", "channel_binding",
	"min_protocol_version", "max_protocol_version"}

// File is the trust file's content.
type File struct {
	Postgres struct {
		// AllowHosts are the servers a repository's index.dsn may name.
		AllowHosts []string `toml:"allow_hosts"`
		// CredentialHosts are the servers that may also receive the user's
		// password and client certificate; they are allowed too.
		CredentialHosts []string `toml:"credential_hosts"`
	} `toml:"postgres"`
}

// Policy is what the user allows.
type Policy struct {
	allow, creds []server
	// file is the trust file's path (read or not), for messages.
	file string
}

// server is a host and, when not 0, the only port allowed with it.
type server struct {
	host string
	port uint16
}

// Load reads the user's policy: the two variables through getenv, and the
// trust file when it exists (a broken one is an error naming it).
func Load(getenv func(string) string) (*Policy, error) {
	p := &Policy{file: filepath.Join("~/.config", FileRel)}
	if dir, err := os.UserConfigDir(); err == nil {
		p.file = filepath.Join(dir, filepath.FromSlash(FileRel))
	}
	var f File
	if _, err := os.Stat(p.file); err == nil {
		if err := config.DecodeStrict(p.file, &f); err != nil {
			return nil, err
		}
	}
	var err error
	add := func(dst *[]server, from string, entries []string) {
		for _, e := range entries {
			s, perr := parseServer(e)
			if perr != nil && err == nil {
				err = fmt.Errorf("%s: %q: %v", from, e, perr)
			}
			*dst = append(*dst, s)
		}
	}
	add(&p.allow, EnvAllow, fields(getenv(EnvAllow)))
	add(&p.creds, EnvCredentials, fields(getenv(EnvCredentials)))
	add(&p.allow, p.file+": postgres.allow_hosts", f.Postgres.AllowHosts)
	add(&p.creds, p.file+": postgres.credential_hosts", f.Postgres.CredentialHosts)
	return p, err
}

func fields(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' })
}

// parseServer reads "host", "host:port" or "[v6]:port".
func parseServer(e string) (server, error) {
	if h, p, err := net.SplitHostPort(e); err == nil {
		n, err := strconv.ParseUint(p, 10, 16)
		if err != nil || n == 0 {
			return server{}, errors.New("not a port")
		}
		return server{strings.ToLower(h), uint16(n)}, nil
	}
	if e == "" || strings.ContainsAny(e, "[]") {
		return server{}, errors.New("not a host")
	}
	return server{host: strings.ToLower(e)}, nil
}

// Refusal is a repository's connection string the policy refuses; nothing
// was sent anywhere.
type Refusal struct {
	// File is the configuration file and Key the key (index.dsn).
	File, Key string
	Msg       string
	hint      string
}

func (r *Refusal) Error() string { return r.File + ": " + r.Key + ": " + r.Msg }

// Hint says how the user can allow what was refused.
func (r *Refusal) Hint() string { return r.hint }

// Parsed is a repository's connection string under the policy.
type Parsed struct {
	Config *pgx.ConnConfig
	// Withheld is true when a credential of the user's was removed: a
	// failed login then says so.
	Withheld bool
}

// Parse parses dsn, the value of key in file (a repository's
// configuration), and applies the policy: a refusal when it holds a key
// other than repositoryKeys or names a server the user did not allow;
// otherwise the configuration with the user's credentials removed unless
// every server it names may receive them.
func (p *Policy) Parse(dsn, file, key string) (*Parsed, error) {
	cfg, err := pgx.ParseConfigWithOptions(dsn, pgx.ParseConfigOptions{ParseConfigOptions: pgconn.ParseConfigOptions{ConnStringAllowedKeys: repositoryKeys}})
	if err != nil {
		var pe *pgconn.ParseConfigError
		if errors.As(err, &pe) && strings.Contains(err.Error(), "ConnStringAllowedKeys") {
			return nil, &Refusal{File: file, Key: key, Msg: "a repository's configuration may say where the server is and how to speak to it, " +
				"not name a file, a service or a credential of this machine (" + unquoteKey(err.Error()) + ")",
				hint: "set the connection in your own environment instead (DATABASE_URL or the PG* variables) and remove " + key + " from " + file}
		}
		return nil, err
	}
	all := servers(cfg)
	for _, s := range all {
		if !p.allowed(s) {
			return nil, &Refusal{File: file, Key: key,
				Msg: fmt.Sprintf("names the server %s, which you have not allowed: a repository's configuration may name only loopback, "+
					"a Unix socket or a host listed in %s or in postgres.allow_hosts of %s", s, EnvAllow, p.file),
				hint: fmt.Sprintf("if you trust %s: export %s=%s", s.host, EnvAllow, s.host)}
		}
	}
	out := &Parsed{Config: cfg}
	for _, s := range all {
		if !match(p.creds, s) {
			out.Withheld = withhold(cfg, dsn)
			break
		}
	}
	return out, nil
}

// servers are every server cfg would try.
func servers(cfg *pgx.ConnConfig) []server {
	out := []server{{strings.ToLower(cfg.Host), cfg.Port}}
	for _, f := range cfg.Fallbacks {
		out = append(out, server{strings.ToLower(f.Host), f.Port})
	}
	return out
}

func (s server) String() string {
	if strings.HasPrefix(s.host, "/") {
		return fmt.Sprintf("%s (socket, port %d)", s.host, s.port)
	}
	return net.JoinHostPort(s.host, strconv.Itoa(int(s.port)))
}

// allowed: loopback, a Unix socket, or listed.
func (p *Policy) allowed(s server) bool {
	if strings.HasPrefix(s.host, "/") || s.host == "localhost" {
		return true
	}
	if ip := net.ParseIP(s.host); ip != nil && ip.IsLoopback() {
		return true
	}
	return match(p.allow, s) || match(p.creds, s)
}

func match(list []server, s server) bool {
	for _, l := range list {
		if l.host == s.host && (l.port == 0 || l.port == s.port) {
			return true
		}
	}
	return false
}

// withhold removes from cfg every credential that did not come from dsn
// itself: a password unless dsn holds one (the string's own wins over
// every other source when it is there), and any client certificate. It
// reports whether there was something to remove.
func withhold(cfg *pgx.ConnConfig, dsn string) bool {
	removed := false
	if cfg.Password != "" && !ownPassword(dsn) {
		cfg.Password, removed = "", true
	}
	tlsConfigs := []*tls.Config{cfg.TLSConfig}
	for _, f := range cfg.Fallbacks {
		tlsConfigs = append(tlsConfigs, f.TLSConfig)
	}
	for _, t := range tlsConfigs {
		if t != nil && (len(t.Certificates) > 0 || t.GetClientCertificate != nil) {
			t.Certificates, t.GetClientCertificate, removed = nil, nil, true
		}
	}
	cfg.SSLCertMode = "disable"
	return removed
}

// ownPassword reports whether dsn holds a password key: parsed with every
// repository key but the password, it then fails.
func ownPassword(dsn string) bool {
	keys := make([]string, 0, len(repositoryKeys))
	for _, k := range repositoryKeys {
		if k != "password" {
			keys = append(keys, k)
		}
	}
	_, err := pgconn.ParseConfigWithOptions(dsn, pgconn.ParseConfigOptions{ConnStringAllowedKeys: keys})
	return err != nil
}

// unquoteKey turns pgconn's `connection string key "passfile" is not in
// ConnStringAllowedKeys` into `key "passfile"`.
func unquoteKey(msg string) string {
	i := strings.Index(msg, "key \"")
	if i < 0 {
		return "a key it may not hold"
	}
	rest := msg[i+len("key \""):]
	if j := strings.IndexByte(rest, '"'); j >= 0 {
		return "key \"" + rest[:j] + "\""
	}
	return "a key it may not hold"
}
