package pgfts

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/rtch/rtch/pkg/fts"
	"github.com/rtch/rtch/pkg/pgfts/pgtest"
)

// generation writes checkout root as generation g of a wiki of n pages:
// page k holds the token gen<g> in each of its two sections, and pages of
// odd generations have one page more (an add and a delete every round).
func generation(t testing.TB, root string, n, g int) int {
	t.Helper()
	pages := n + g%2
	for k := 0; k < pages; k++ {
		writeFile(t, root, fmt.Sprintf("wiki/concepts/p%03d.md", k),
			fmt.Sprintf("---\nimportance: 4\n---\n# Page %d\nshared text gen%d\n\n## More\nmore text gen%d\n", k, g, g))
	}
	return pages
}

// Several writers refresh one wiki from checkouts at different generations
// while readers search it: every snapshot a reader opens holds exactly one
// generation, every page of it once with both its sections.
func TestConcurrentWritersAndReaders(t *testing.T) {
	dsn := pgtest.DSN(t)
	const n = 40
	ctx := context.Background()
	var roots []string
	for g := 0; g < 4; g++ {
		r := t.TempDir()
		generation(t, r, n, g)
		roots = append(roots, r)
	}
	if _, _, _, err := Open(ctx, roots[0], Options{DSN: dsn, Wiki: "w", Tree: team, Now: later}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(4 * time.Second)
	var wg sync.WaitGroup
	var mu sync.Mutex
	reads, writes := 0, 0
	errs := make(chan error, 100)
	for w := 0; w < 3; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; time.Now().Before(deadline); i++ {
				ix, st, _, err := Open(ctx, roots[(w+i)%len(roots)], Options{DSN: dsn, Wiki: "w", Tree: team, Now: later})
				if err != nil {
					errs <- fmt.Errorf("writer %d: %w", w, err)
					return
				}
				ix.Close()
				if st.Reindexed() > 0 {
					mu.Lock()
					writes++
					mu.Unlock()
				}
			}
		}(w)
	}
	for r := 0; r < 4; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				if err := checkSnapshot(ctx, dsn, n); err != nil {
					errs <- err
					return
				}
				mu.Lock()
				reads++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if reads == 0 || writes == 0 {
		t.Fatalf("%d snapshots read, %d refreshes wrote: the test raced nothing", reads, writes)
	}
	t.Logf("%d snapshots checked during %d writing refreshes", reads, writes)
}

// checkSnapshot opens a snapshot and checks it holds one whole generation.
func checkSnapshot(ctx context.Context, dsn string, n int) error {
	ix, err := OpenSnapshot(ctx, Options{DSN: dsn, Wiki: "w", Tree: team})
	if err != nil {
		return err
	}
	defer ix.Close()
	pages, err := ix.Verify(ctx)
	if err != nil {
		return err
	}
	g := -1
	for cand := 0; cand < 4; cand++ {
		hits, err := ix.Search(ctx, fmt.Sprintf("gen%d", cand), fts.Filter{}, 1000)
		if err != nil {
			return err
		}
		if len(hits) == 0 {
			continue
		}
		if g >= 0 {
			return fmt.Errorf("snapshot mixes generations %d and %d", g, cand)
		}
		g = cand
		want := n + g%2
		if pages != want || len(hits) != 2*want {
			return fmt.Errorf("generation %d: %d pages, %d sections; want %d and %d", g, pages, len(hits), want, 2*want)
		}
		seen := map[string]int{}
		for _, h := range hits {
			seen[h.Path]++
		}
		for p, c := range seen {
			if c != 2 {
				return fmt.Errorf("generation %d: page %s has %d sections, want 2", g, p, c)
			}
		}
	}
	if g < 0 {
		return fmt.Errorf("snapshot of %d pages holds no generation", pages)
	}
	return nil
}
