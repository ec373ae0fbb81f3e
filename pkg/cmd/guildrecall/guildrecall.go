// Package guildrecall is the guild-recall command: the single, protected
// recall path over a project's wiki and knowledge graph (SPEC §10). It reads
// no record stream and emits one guild.recall record.
package guildrecall

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/rtch/rtch/pkg/cli"
	"github.com/rtch/rtch/pkg/guildconfig"
	"github.com/rtch/rtch/pkg/recall"
	"github.com/rtch/rtch/pkg/record"
	"github.com/rtch/rtch/pkg/schema"
)

type options struct {
	query, cwd, runID, category string
	limit                       int
	pretty, indexStats, claim   bool
	fs                          *flag.FlagSet
}

// Tool returns the guild-recall tool.
func Tool() *cli.Tool {
	o := &options{}
	return &cli.Tool{
		ConfigFile: ".guild/config.toml under the project root",
		Name:       "guild-recall",
		Summary:    "recall protected wiki and knowledge-graph chunks before reading files",
		Usage:      "guild-recall --query TEXT [--cwd ROOT] [--run-id R] [--category C] [--limit 10] [--json] [flags]",
		Description: `Answers a task or a question from the project's knowledge, in this order:
structural intents ("callers of X", "what imports Y", "impact of changing Z")
from .guild/indexes/knowledge-graph.json; the wiki (wiki/**/*.md and
.guild/principles.md) through the SQLite FTS5 index .guild/indexes/wiki.sqlite
from index.wiki_file_threshold pages (default 500) — or a PostgreSQL server
shared by the team's checkouts with index.backend = "postgres" (index.dsn,
DATABASE_URL or the PG* variables) — else in-memory BM25
(k1 1.5, b 0.75), else a streaming term-frequency scan; then a token-scored
graph traversal capped at caps.graph_tokens (1,200). With .guild/workspace.json
every sub-guild is recalled too and its chunks are tagged.

Every chunk is probed for prompt injection, quarantined when flagged (its text
withheld, a guild.security_event.v1 line appended to
.guild/runs/<run-id>/logs/security-events.jsonl, or .guild/logs/ without
--run-id), classified operator, trusted or untrusted from its path and
provenance only, and wrapped in a <guild:recall trust_tier="…"> block unless
it is operator text. There is no raw output.

Output: one guild.recall record {source, directive, topScore,
recallBeforeRead, chunks[{source_path, trust_tier, quarantined, rendered,
score, sub_guild, lines}]}. topScore is in [0,1]; see docs/guild-recall.md.
Configuration: .guild/config.toml under ROOT (or --config FILE).`,
		Example: `guild-recall --query "how do we retry failed payments" --run-id run-42 --json
guild-recall --query "callers of ledger.Post" --jq '.source == "structural"'`,
		Stdin: cli.NoStdin,
		Flags: func(fs *flag.FlagSet) {
			o.fs = fs
			fs.StringVar(&o.query, "query", "", "the task or question `TEXT` (required)")
			fs.StringVar(&o.cwd, "cwd", ".", "the project `ROOT` holding wiki/ and .guild/")
			fs.StringVar(&o.runID, "run-id", "", "the guild run `R` that security events belong to")
			fs.StringVar(&o.category, "category", "", "recall only wiki pages of type `C` (decision, standard, entity, concept, context, source); skips the graph")
			fs.IntVar(&o.limit, "limit", 10, "at most `N` wiki chunks and N graph chunks")
			fs.BoolVar(&o.pretty, "json", false, "print the record as one indented JSON object instead of an NDJSON line")
			fs.BoolVar(&o.indexStats, "index-stats", false, "report on stderr what the index refresh (FTS5 or postgres) did")
			fs.BoolVar(&o.claim, "claim-wiki", false, "postgres: bind the wiki's name to this tree although another tree wrote it (that tree's next refresh then fails)")
		},
		Run: func(ctx context.Context, env *cli.Env) error { return run(ctx, env, o) },
	}
}

// Main runs guild-recall with the process's arguments. Unless GOGC is set,
// the collector runs at GOGC=400: a recall is a short process whose heap is
// mostly garbage by exit, and collecting at the default 100 cost about a
// sixth of a warm 10,000-page recall's CPU (docs/bench/guild-recall.md).
func Main() int {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	return cli.Main(Tool())
}

func run(ctx context.Context, env *cli.Env, o *options) error {
	if len(env.Args) > 0 {
		return cli.UsageHint(`put the question in --query "…"`, "unexpected argument %q", env.Args[0])
	}
	if strings.TrimSpace(o.query) == "" {
		return cli.UsageHint(`guild-recall --query "how are payments retried"`, "--query is required")
	}
	if o.limit < 1 {
		return cli.Usage("--limit %d: must be at least 1", o.limit)
	}
	if o.pretty && o.fs != nil && o.fs.Lookup("jq").Value.String() != "" {
		return cli.Usage("--json and --jq are exclusive: --jq filters the NDJSON record")
	}
	root, err := filepath.Abs(o.cwd)
	if err != nil {
		return cli.Usage("--cwd %s: %v", o.cwd, err)
	}
	if info, err := os.Stat(root); err != nil || !info.IsDir() {
		return cli.Usage("--cwd %s: not a directory", o.cwd)
	}
	if !guildProject(root) {
		return cli.UsageHint("run guild-recall in the project root, or pass --cwd ROOT (the directory holding wiki/ and .guild/)",
			"%s is not a guild project: it has no wiki/ and no .guild/", root)
	}
	cfg, _, err := guildconfig.Load(env.ConfigPath, root)
	if err != nil {
		return cli.Usage("%v", err)
	}
	now, err := pinnedNow(env.Getenv)
	if err != nil {
		return cli.Usage("%v", err)
	}
	res, err := recall.Recall(ctx, recall.Options{
		Root: root, Query: o.query, RunID: o.runID, Category: o.category, Limit: o.limit,
		Settings: cfg.Settings(), Now: now, Tool: "guild-recall", ClaimWiki: o.claim,
		Warn: func(s string) { env.Warnf("%s", s) },
		Progress: func(root string, done, total int) {
			if done >= total {
				env.ProgressDone()
				return
			}
			env.Progressf("indexing %s: %d/%d pages", root, done, total)
		},
	})
	if err != nil {
		var ie *recall.InputError
		var hinted interface{ Hint() string }
		if errors.As(err, &ie) && errors.As(err, &hinted) {
			return cli.UsageHint(hinted.Hint(), "%v", err)
		}
		if errors.As(err, &ie) {
			return cli.Usage("%v", err)
		}
		return cli.Failed(err)
	}
	if o.indexStats {
		keys := make([]string, 0, len(res.Index))
		for k := range res.Index {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			st := res.Index[k]
			rebuilt := ""
			if st.Rebuilt != "" {
				rebuilt = ", rebuilt"
			}
			fmt.Fprintf(env.Stderr, "guild-recall: index %s: %d pages, %d reindexed (%d added, %d changed), %d deleted, %d unchanged%s\n",
				k, st.Pages, st.Reindexed(), st.Added, st.Changed, st.Deleted, st.Unchanged, rebuilt)
		}
	}
	rec := schema.Recall{
		Envelope:         record.Env(schema.KindRecall, schema.V1, o.query, o.category, strconv.Itoa(o.limit)),
		Source:           res.Source,
		Directive:        res.Directive,
		TopScore:         res.TopScore,
		RecallBeforeRead: res.RecallBeforeRead,
		Chunks:           res.Chunks,
		Skipped:          res.Skipped,
	}
	if rec.Chunks == nil {
		rec.Chunks = []schema.RecallChunk{}
	}
	if o.pretty {
		enc := json.NewEncoder(env.Stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(rec)
	}
	return env.Out.Emit(rec)
}

// pinnedNow honours SOURCE_DATE_EPOCH so expiry decisions and event stamps
// can be made reproducible.
func pinnedNow(getenv func(string) string) (time.Time, error) {
	s := getenv("SOURCE_DATE_EPOCH")
	if s == "" {
		return time.Now(), nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("SOURCE_DATE_EPOCH %q is not a Unix time", s)
	}
	return time.Unix(n, 0).UTC(), nil
}

// guildProject reports a root holding wiki/ or .guild/. Anywhere else there
// is nothing to recall from, and an empty answer would read as "the project
// knows nothing about this".
func guildProject(root string) bool {
	for _, d := range []string{"wiki", ".guild"} {
		if st, err := os.Stat(filepath.Join(root, d)); err == nil && st.IsDir() {
			return true
		}
	}
	return false
}
