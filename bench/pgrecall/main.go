// Command pgrecall measures guild-recall's postgres backend beside the
// SQLite one on a generated wiki (the measurements of issue 19):
//
//   - index build time of each backend (the first recall of a fresh
//     checkout builds it);
//
//   - recall latency from a fresh process, p50 and p95, the two backends
//     interleaved run by run so both see the same machine load;
//
//   - a soak: readers searching read snapshots and writers editing,
//     adding and deleting pages and refreshing, for a fixed time, every
//     snapshot checked for lost or doubled pages and the final index
//     compared page by page with the checkout.
//
//     go run ./bench/pgrecall --dsn "$(.ci/pgcluster dsn /tmp/pg)" --work /tmp/pgbench
//
// The DSN is an admin connection: the tool creates a database of its own
// on that server and drops it at the end. It prints a Markdown report.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/rtch/rtch/pkg/pgfts/pgtest"
)

type config struct {
	dsn, work, bin   string
	pages, runs      int
	readers, writers int
	soak             time.Duration
	keep             bool
}

func main() {
	var c config
	flag.StringVar(&c.dsn, "dsn", os.Getenv("RTCH_TEST_PG_DSN"), "admin `DSN` of the server (default $RTCH_TEST_PG_DSN)")
	flag.StringVar(&c.work, "work", "", "empty work `DIR` for the wikis and the binary (required)")
	flag.StringVar(&c.bin, "bin", "", "guild-recall `BINARY` to measure (default: built from this tree)")
	flag.IntVar(&c.pages, "pages", 10000, "pages of the generated wiki")
	flag.IntVar(&c.runs, "runs", 30, "fresh-process recalls per backend")
	flag.IntVar(&c.readers, "readers", 8, "concurrent readers in the soak")
	flag.IntVar(&c.writers, "writers", 2, "concurrent writers in the soak")
	flag.DurationVar(&c.soak, "soak", time.Minute, "soak duration")
	flag.Parse()
	if c.dsn == "" || c.work == "" {
		fmt.Fprintln(os.Stderr, "pgrecall: error: --dsn and --work are required")
		os.Exit(2)
	}
	if err := run(context.Background(), c); err != nil {
		fmt.Fprintln(os.Stderr, "pgrecall: error:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, c config) error {
	if err := os.MkdirAll(c.work, 0o755); err != nil {
		return err
	}
	if c.bin == "" {
		c.bin = filepath.Join(c.work, "guild-recall")
		if err := sh("go", "build", "-o", c.bin, "./cmd/guild-recall"); err != nil {
			return err
		}
	}
	db, drop, err := pgtest.NewDatabase(ctx, c.dsn)
	if err != nil {
		return err
	}
	defer drop()
	sq, pg := filepath.Join(c.work, "sqlite"), filepath.Join(c.work, "postgres")
	for _, root := range []string{sq, pg} {
		if err := sh("go", "run", "./pkg/fts/internal/genwiki", "-n", fmt.Sprint(c.pages), "-o", root, "-threshold", "500"); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(pg, ".guild/config.toml"),
		[]byte("[index]\nwiki_file_threshold = 500\nbackend = \"postgres\"\ndsn = \""+db+"\"\n"), 0o644); err != nil {
		return err
	}
	fmt.Printf("# guild-recall: postgres beside sqlite\n\n%d generated pages (+ principles), %s\n\n", c.pages, time.Now().UTC().Format(time.RFC3339))
	b := backends{bin: c.bin, roots: map[string]string{"sqlite": sq, "postgres": pg}}
	if err := b.build(); err != nil {
		return err
	}
	if err := b.latency(c.runs); err != nil {
		return err
	}
	return soak(ctx, c, db, pg)
}

func sh(name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %v: %w", name, args, err)
	}
	return nil
}
