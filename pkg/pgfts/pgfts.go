// Package pgfts is the shared wiki index on PostgreSQL: the same sections,
// terms and page metadata as the SQLite index of pkg/fts, held in a server
// many checkouts of one wiki read and refresh at once.
//
// Consistency rules:
//
//   - Every wiki in the database has a name (index.wiki); its pages are the
//     rows of guild_pages with that name, its sections the rows of
//     guild_sections below them, and guild_wikis holds its listing digest: a
//     SHA-256 over every indexed page's path and content hash.
//   - A refresh hashes the local pages (trusting a local stat cache for
//     pages whose size, times and inode are unchanged and that were not
//     modified within racyWindow of being hashed), and compares the digest
//     of that listing with the stored one: equal means nothing to do. Any
//     other listing is applied in one transaction holding the wiki's
//     advisory lock: it re-reads the stored hashes under the lock, deletes
//     the pages that left or changed, inserts the new and changed ones, and
//     writes the new digest. Two writers therefore serialise, the second
//     seeing what the first committed; no page is lost or doubled.
//   - A wiki's name is bound to the identity of the tree that first wrote
//     it (Options.Tree, guild_wikis.tree). The refresh transaction checks
//     the binding under the wiki's lock before it deletes anything, and a
//     tree of another identity gets a *TreeError unless it claims the name.
//   - Everything a recall reads after its refresh (searches, supersedes,
//     diagnostics) runs in one REPEATABLE READ READ ONLY transaction: a
//     reader sees the index before a concurrent refresh or after it, never
//     a part.
//   - The schema is versioned (guild_schema); Open creates or migrates it
//     under a database-wide advisory lock, and refuses a schema newer than
//     it knows with a hint.
//
// Terms: each section's terms come from the same identifier-aware tokenizer
// as the other mechanisms (fts.EachSectionTerm, so CamelCase and snake_case
// identifiers are indexed whole and split). They are written as a tsvector
// literal, lexeme by lexeme with their positions, and queries as a tsquery
// literal: PostgreSQL's own parser and dictionaries never see the text,
// which would split "retry_budget" at the underscore, read "pkg.Parse" as a
// host name and stem English words differently from bm25.Plural. The index
// picks candidates; fts.Rerank orders them by the BM25 every backend scores
// with, from the statistics kept beside the sections (guild_terms,
// guild_wikis.sections and .length, guild_sections.len).
package pgfts

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/rtch/rtch/pkg/fts"
	"github.com/rtch/rtch/pkg/pgtrust"
	"github.com/rtch/rtch/pkg/wiki"
)

// StatePath is the local stat cache under a project root: what each page's
// content hash was when its size, times and inode were last seen.
const StatePath = ".guild/indexes/wiki.pg-state"

// Options configure Open.
type Options struct {
	// DSN is a libpq connection string or URL; empty means DATABASE_URL,
	// else the PG* environment (PGHOST, PGPORT, PGUSER, PGDATABASE, …).
	DSN string
	// Wiki names this wiki inside the database.
	Wiki string
	// Tree identifies the checkout Open refreshes the wiki from (the
	// caller's choice, recall.TreeIdentity: clones of one repository
	// share it). The wiki's name is bound to the tree that first writes
	// it; a refresh from a tree of another identity fails with a
	// *TreeError and writes nothing. Required by Open.
	Tree string
	// Claim binds the name to Tree whatever tree it was bound to: the
	// operator's way to take over a wiki (a moved or re-created
	// repository). The other tree's next refresh then fails.
	Claim bool
	// MaxPageBytes skips larger pages (wiki.DefaultMaxFileBytes when zero).
	MaxPageBytes int64
	// Files and ListDiags are the caller's wiki.List of the root (walked
	// here when Files is nil).
	Files     []wiki.File
	ListDiags []wiki.Diagnostic
	// Now stamps the local stat cache (time.Now when nil).
	Now func() time.Time
	// Progress, when set, is called as pages are written with the number
	// done and the number to do, and once more with done == total.
	Progress func(done, total int)
	// Getenv reads DATABASE_URL and pgtrust's variables (os.Getenv when
	// nil).
	Getenv func(string) string
	// DSNFile, when set, is the repository's configuration file DSN came
	// from (its index.dsn): the connection is then held to the user's
	// policy (pkg/pgtrust), refused or stripped of the user's credentials.
	DSNFile string
}

// Index is an open, refreshed wiki index inside a read snapshot.
type Index struct {
	conn  *pgx.Conn
	tx    pgx.Tx // the read snapshot every query of this Index runs in
	wiki  string
	host  string
	tree  string // the refreshing checkout's identity (Options.Tree)
	claim bool
}

// ConnectError is a server that cannot be reached or refuses the
// credentials. Its text names the server, never the password.
type ConnectError struct {
	// Host is the server as host:port (or socket directory and port).
	Host string
	// Msg is the reason, password removed.
	Msg string
}

func (e *ConnectError) Error() string { return "postgres " + e.Host + ": " + e.Msg }

// TreeError is a refresh from a tree other than the one the wiki's name is
// bound to. Nothing was written.
type TreeError struct {
	Host, Wiki string
	// Bound is the identity the name is bound to, Tree the refreshing
	// checkout's.
	Bound, Tree string
}

func (e *TreeError) Error() string {
	return fmt.Sprintf("postgres %s: wiki %q belongs to the tree %s, not to this one (%s): refusing to overwrite its pages",
		e.Host, e.Wiki, e.Bound, e.Tree)
}

// Hint names the two ways out.
func (e *TreeError) Hint() string {
	return fmt.Sprintf("give this wiki a name of its own with index.wiki in .guild/config.toml; "+
		"or, if %q is this tree's wiki (the repository was moved or re-created), run guild-recall once with --claim-wiki", e.Wiki)
}

// SchemaError is a database whose index schema this version cannot use.
type SchemaError struct {
	Host          string
	Found, Wanted int
}

func (e *SchemaError) Error() string {
	if e.Found < e.Wanted {
		return fmt.Sprintf("postgres %s: index schema version %d is older than this guild-recall's (%d); "+
			"run guild-recall once with the wiki checked out to migrate it", e.Host, e.Found, e.Wanted)
	}
	return fmt.Sprintf("postgres %s: index schema version %d is newer than this guild-recall knows (%d); "+
		"upgrade guild-recall, or point index.dsn at another database", e.Host, e.Found, e.Wanted)
}

// Open connects, creates or migrates the schema, refreshes the named wiki
// from the pages under root and opens the read snapshot. It returns what the
// refresh did and the diagnostics of the listing and of every indexed page.
// The caller must Close the Index.
func Open(ctx context.Context, root string, opt Options) (*Index, fts.Stats, []wiki.Diagnostic, error) {
	var st fts.Stats
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Wiki == "" {
		return nil, st, nil, errors.New("postgres index: no wiki name")
	}
	if opt.Tree == "" {
		return nil, st, nil, errors.New("postgres index: no tree identity")
	}
	if opt.Files == nil {
		var err error
		if opt.Files, opt.ListDiags, err = wiki.List(root, opt.MaxPageBytes); err != nil {
			return nil, st, nil, err
		}
	}
	conn, host, err := connect(ctx, opt)
	if err != nil {
		return nil, st, nil, err
	}
	ix := &Index{conn: conn, wiki: opt.Wiki, host: host, tree: opt.Tree, claim: opt.Claim}
	fail := func(err error) (*Index, fts.Stats, []wiki.Diagnostic, error) {
		ix.Close()
		return nil, st, nil, err
	}
	if err := migrate(ctx, conn, host); err != nil {
		return fail(err)
	}
	st, diags, err := ix.refresh(ctx, root, opt)
	var te *TreeError
	if errors.As(err, &te) {
		return fail(te)
	}
	if err != nil {
		return fail(ix.wrap("refresh", err))
	}
	if ix.tx, err = conn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}); err != nil {
		return fail(ix.wrap("begin read", err))
	}
	pd, err := ix.pageDiags(ctx)
	if err != nil {
		return fail(err)
	}
	return ix, st, append(diags, pd...), nil
}

// OpenSnapshot connects and opens a read snapshot of the named wiki as it
// is, without refreshing it from a checkout (a reader on a machine without
// the wiki, or one that must not write). The schema must exist and be this
// package's version.
func OpenSnapshot(ctx context.Context, opt Options) (*Index, error) {
	conn, host, err := connect(ctx, opt)
	if err != nil {
		return nil, err
	}
	ix := &Index{conn: conn, wiki: opt.Wiki, host: host}
	v, err := version(ctx, conn)
	switch {
	case err != nil:
		err = ix.wrap("no index schema", err)
	case v != SchemaVersion:
		err = &SchemaError{Host: host, Found: v, Wanted: SchemaVersion}
	default:
		ix.tx, err = conn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	}
	if err != nil {
		ix.Close()
		return nil, err
	}
	return ix, nil
}

// Close ends the read snapshot and the connection.
func (ix *Index) Close() error {
	if ix.conn == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if ix.tx != nil {
		ix.tx.Rollback(ctx) // it only read
		ix.tx = nil
	}
	err := ix.conn.Close(ctx)
	ix.conn = nil
	return err
}

// Host is the server this Index is connected to.
func (ix *Index) Host() string { return ix.host }

func (ix *Index) wrap(what string, err error) error {
	return fmt.Errorf("postgres %s: %s: %w", ix.host, what, err)
}

// connect parses the DSN (or the environment) and connects, turning every
// failure into a ConnectError naming the server.
func connect(ctx context.Context, opt Options) (*pgx.Conn, string, error) {
	dsn := opt.DSN
	getenv := opt.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	cfg, withheld, err := parse(dsn, opt, getenv)
	if err != nil {
		var r *pgtrust.Refusal
		if errors.As(err, &r) {
			return nil, "", err
		}
		return nil, "(unparsed dsn)", &ConnectError{Host: "(unparsed dsn)", Msg: "bad dsn: " + scrub(err.Error(), "")}
	}
	host := fmt.Sprintf("%s:%d", cfg.Host, cfg.Port)
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = 10 * time.Second
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		msg := fmt.Sprintf("cannot connect as user %q to database %q: %s", cfg.User, cfg.Database, scrub(reason(err), cfg.Password))
		if withheld {
			msg += fmt.Sprintf(" (none of your credentials was sent: index.dsn in %s named this server; "+
				"list it in %s to send them)", opt.DSNFile, pgtrust.EnvCredentials)
		}
		return nil, host, &ConnectError{Host: host, Msg: msg}
	}
	return conn, host, nil
}

// parse parses the DSN (or DATABASE_URL): a repository's under the user's
// policy, which may refuse it or withhold the user's credentials.
func parse(dsn string, opt Options, getenv func(string) string) (cfg *pgx.ConnConfig, withheld bool, err error) {
	if dsn == "" {
		cfg, err = pgx.ParseConfig(getenv("DATABASE_URL"))
		return cfg, false, err
	}
	if opt.DSNFile == "" {
		cfg, err = pgx.ParseConfig(dsn)
		return cfg, false, err
	}
	policy, err := pgtrust.Load(getenv)
	if err != nil {
		return nil, false, err
	}
	p, err := policy.Parse(dsn, opt.DSNFile, "index.dsn")
	if err != nil {
		return nil, false, err
	}
	return p.Config, p.Withheld, nil
}

// reason is the innermost useful message of a connect error: pgconn's
// outer text repeats the user and database.
func reason(err error) string {
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		if in := ce.Unwrap(); in != nil {
			err = in
		}
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return fmt.Sprintf("%s (SQLSTATE %s)", pe.Message, pe.Code)
	}
	// One line per address tried (pgconn joins them); the same reason
	// once.
	var lines []string
	for _, l := range strings.Split(err.Error(), "\n") {
		if l = strings.TrimSpace(l); l != "" && !slices.Contains(lines, l) {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "; ")
}

// scrub removes a password from a message (belt and braces: pgx does not
// put it there, but a message must never carry it).
func scrub(msg, password string) string {
	if password != "" {
		msg = strings.ReplaceAll(msg, password, "xxxxx")
	}
	return msg
}
