package pgfts

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// migrations[i] takes the schema from version i to version i+1; the schema
// this package writes and reads is len(migrations). A change to the tables,
// the term format or the meaning of a column is a new entry, never an edit
// of an old one.
var migrations = []string{
	// 1: pages, sections with their tsvector and a GIN index, per wiki.
	`
CREATE TABLE guild_wikis(
	wiki text PRIMARY KEY,
	digest text NOT NULL,
	pages integer NOT NULL,
	generation bigint NOT NULL,
	updated_at timestamptz NOT NULL
);
CREATE TABLE guild_pages(
	id bigserial PRIMARY KEY,
	wiki text NOT NULL REFERENCES guild_wikis(wiki) ON DELETE CASCADE,
	path text NOT NULL,
	hash text NOT NULL,
	category text NOT NULL,
	cat_key text NOT NULL,
	importance integer NOT NULL,
	page text NOT NULL,
	diags text,
	supersedes text[] NOT NULL,
	UNIQUE (wiki, path)
);
CREATE TABLE guild_sections(
	id bigserial PRIMARY KEY,
	page_id bigint NOT NULL REFERENCES guild_pages(id) ON DELETE CASCADE,
	wiki text NOT NULL,
	ord integer NOT NULL,
	heading text NOT NULL,
	start_line integer NOT NULL,
	end_line integer NOT NULL,
	text text NOT NULL,
	terms tsvector NOT NULL
);
CREATE INDEX guild_sections_terms ON guild_sections USING gin (terms);
CREATE INDEX guild_sections_page ON guild_sections (page_id);
`,
	// 2: what BM25 needs (each section's length, each wiki's section count
	// and total length, each term's document frequency), and terms with
	// phrasal compounds joined and identifier wholes without separators:
	// every wiki is indexed again by its next refresh.
	`
DELETE FROM guild_wikis;
ALTER TABLE guild_sections ADD COLUMN len integer NOT NULL;
ALTER TABLE guild_wikis ADD COLUMN sections bigint NOT NULL DEFAULT 0, ADD COLUMN length bigint NOT NULL DEFAULT 0;
CREATE TABLE guild_terms(
	wiki text NOT NULL REFERENCES guild_wikis(wiki) ON DELETE CASCADE,
	term text NOT NULL,
	df integer NOT NULL,
	PRIMARY KEY (wiki, term)
);
`,
	// 3: a page whose path holds a secret is stored under its redacted path
	// (fts.StoredNames), its title and supersedes targets masked: every
	// wiki is indexed again by its next refresh, so no row written before
	// keeps such a name.
	`DELETE FROM guild_wikis;`,
	// 4: a section's heading path terms count twice (fts.EachSectionTerm):
	// every wiki is indexed again by its next refresh.
	`DELETE FROM guild_wikis;`,
	// 5: frontmatter values and keys are redacted where they are read
	// (wiki.ParseFrontmatter): a page row written before may hold a secret
	// in its stored metadata, its diagnostics or its alias terms, so every
	// wiki is indexed again by its next refresh.
	`DELETE FROM guild_wikis;`,
	// 6: a page whose sensitivity is secret keeps no sections, title or
	// aliases (fts.StoredSections): the rows written before may hold them.
	`DELETE FROM guild_wikis;`,
	// 7: a wiki's name is bound to the tree that writes it (Options.Tree):
	// a refresh from a tree of another identity fails instead of
	// overwriting the wiki. A wiki written before (tree NULL) is bound by
	// its next refresh.
	`ALTER TABLE guild_wikis ADD COLUMN tree text;`,
}

// SchemaVersion is the index schema this package reads and writes.
var SchemaVersion = len(migrations)

// schemaLock is the advisory lock key (one bigint) of schema changes:
// "guildsch" in ASCII.
const schemaLock = 0x6775696c64736368

// migrate creates the schema or brings it to SchemaVersion, in one
// transaction under schemaLock so that concurrent first runs create it once.
func migrate(ctx context.Context, conn *pgx.Conn, host string) error {
	v, err := version(ctx, conn)
	if err == nil && v == SchemaVersion {
		return nil // the common case: no lock, no write
	}
	if err == nil && v > SchemaVersion {
		return &SchemaError{Host: host, Found: v, Wanted: SchemaVersion}
	}
	err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(schemaLock)); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS guild_schema(version integer NOT NULL)`); err != nil {
			return err
		}
		v, err := version(ctx, tx)
		if errors.Is(err, pgx.ErrNoRows) {
			v = 0
			if _, err := tx.Exec(ctx, `INSERT INTO guild_schema(version) VALUES (0)`); err != nil {
				return err
			}
		} else if err != nil {
			return err
		}
		if v > SchemaVersion {
			return &SchemaError{Host: host, Found: v, Wanted: SchemaVersion}
		}
		for ; v < SchemaVersion; v++ {
			if _, err := tx.Exec(ctx, migrations[v]); err != nil {
				return fmt.Errorf("migrate to schema version %d: %w", v+1, err)
			}
		}
		_, err = tx.Exec(ctx, `UPDATE guild_schema SET version = $1`, SchemaVersion)
		return err
	})
	var se *SchemaError
	if err != nil && !errors.As(err, &se) {
		return fmt.Errorf("postgres %s: schema: %w", host, err)
	}
	return err
}

type queryRower interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// version reads the stored schema version; a database without the table
// reports an error (the caller then creates it under the lock).
func version(ctx context.Context, q queryRower) (int, error) {
	var v int
	err := q.QueryRow(ctx, `SELECT version FROM guild_schema`).Scan(&v)
	return v, err
}
