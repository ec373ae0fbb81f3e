package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/rtch/rtch/pkg/fts"
	"github.com/rtch/rtch/pkg/pgfts"
	"github.com/rtch/rtch/pkg/recall"
	"github.com/rtch/rtch/pkg/wiki"
)

// soak runs readers and writers on the postgres checkout for c.soak.
// Writers edit pages of their own (so no two writers edit one file), add
// one page and delete an older one of theirs each round, then refresh.
// Readers open a snapshot, check it (Verify) and search it. Afterwards one
// last refresh and a page-by-page comparison with the checkout.
func soak(ctx context.Context, c config, dsn, root string) error {
	// the name guild-recall gave the wiki, and the tree it bound it to
	name := filepath.Base(root)
	tree, err := recall.TreeIdentity(ctx, root)
	if err != nil {
		return err
	}
	opt := pgfts.Options{DSN: dsn, Wiki: name, Tree: tree}
	files, _, err := wiki.List(root, 0)
	if err != nil {
		return err
	}
	var mu sync.Mutex
	lat := map[string][]time.Duration{}
	var errs []error
	note := func(kind string, d time.Duration, err error) {
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", kind, err))
			return
		}
		lat[kind] = append(lat[kind], d)
	}
	deadline := time.Now().Add(c.soak)
	var wg sync.WaitGroup
	for w := 0; w < c.writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			r := rand.New(rand.NewSource(int64(w)))
			for round := 0; time.Now().Before(deadline); round++ {
				if err := edit(root, files, w, c.writers, round, r); err != nil {
					note("write", 0, err)
					return
				}
				start := time.Now()
				ix, _, _, err := pgfts.Open(ctx, root, opt)
				if err == nil {
					ix.Close()
				}
				note("write", time.Since(start), err)
			}
		}(w)
	}
	for i := 0; i < c.readers; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for k := i; time.Now().Before(deadline); k++ {
				start := time.Now()
				err := read(ctx, opt, queries[k%len(queries)])
				note("read", time.Since(start), err)
			}
		}(i)
	}
	wg.Wait()
	final, err := compare(ctx, root, opt)
	if err != nil {
		errs = append(errs, err)
	}
	fmt.Printf("## Soak: %d readers, %d writers, %s, server %s\n\n| operation | count | p50 | p95 | p99 | max |\n|---|---|---|---|---|---|\n",
		c.readers, c.writers, c.soak, host(dsn))
	for _, k := range []string{"read", "write"} {
		ts := lat[k]
		if len(ts) == 0 {
			continue
		}
		fmt.Printf("| %s | %d | %s | %s | %s | %s |\n", k, len(ts), ms(pct(ts, 50)), ms(pct(ts, 95)), ms(pct(ts, 99)), ms(pct(ts, 100)))
	}
	fmt.Printf("\nreads: snapshot opened, Verify (no page doubled or missing against the recorded count), one search of 10; writes: %d page edits, one add and one delete per round, then a refresh.\n",
		editsPerRound)
	fmt.Printf("\nerrors: %d; final index: %s\n", len(errs), final)
	for _, e := range errs {
		fmt.Println("- error:", e)
	}
	if len(errs) > 0 {
		return fmt.Errorf("%d errors in the soak", len(errs))
	}
	return nil
}

const editsPerRound = 5

// edit changes editsPerRound of writer w's pages (every writers-th listed
// page from w), adds page round and deletes page round-3 of its own.
func edit(root string, files []wiki.File, w, writers, round int, r *rand.Rand) error {
	var mine []wiki.File
	for i := w; i < len(files); i += writers {
		mine = append(mine, files[i])
	}
	for k := 0; k < editsPerRound; k++ {
		f := mine[r.Intn(len(mine))]
		p := filepath.Join(root, filepath.FromSlash(f.Path))
		fh, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(fh, "\nedit %d of writer %d: retry budget note\n", round, w)
		if cerr := fh.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	added := func(n int) string { return filepath.Join(root, "wiki/concepts", fmt.Sprintf("soak-w%d-%d.md", w, n)) }
	if err := os.WriteFile(added(round), []byte(fmt.Sprintf("# Soak page %d of writer %d\n\nheartbeat lease text\n", round, w)), 0o644); err != nil {
		return err
	}
	if round >= 3 {
		return os.Remove(added(round - 3))
	}
	return nil
}

func read(ctx context.Context, opt pgfts.Options, q string) error {
	ix, err := pgfts.OpenSnapshot(ctx, opt)
	if err != nil {
		return err
	}
	defer ix.Close()
	if _, err := ix.Verify(ctx); err != nil {
		return err
	}
	_, err = ix.Search(ctx, q, fts.Filter{MinImportance: 3, DefaultImportance: 3}, 10)
	return err
}

// compare refreshes once more and checks the index holds exactly the
// checkout's pages with their current content hashes.
func compare(ctx context.Context, root string, opt pgfts.Options) (string, error) {
	ix, _, _, err := pgfts.Open(ctx, root, opt)
	if err != nil {
		return "", err
	}
	defer ix.Close()
	stored, err := ix.Hashes(ctx)
	if err != nil {
		return "", err
	}
	files, _, err := wiki.List(root, 0)
	if err != nil {
		return "", err
	}
	bad := 0
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f.Path)))
		if err != nil {
			return "", err
		}
		sum := sha256.Sum256(data)
		if stored[f.Path] != hex.EncodeToString(sum[:]) {
			bad++
		}
		delete(stored, f.Path)
	}
	if bad > 0 || len(stored) > 0 {
		return "", fmt.Errorf("final index differs from the checkout: %d pages missing or stale, %d extra", bad, len(stored))
	}
	return fmt.Sprintf("%d pages, every one present once with the checkout's content hash", len(files)), nil
}

// host is the server of a DSN, as host:port.
func host(dsn string) string {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return "?"
	}
	return fmt.Sprintf("%s:%d", cfg.Host, cfg.Port)
}
