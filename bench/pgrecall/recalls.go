package main

import (
	"bytes"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// queries are drawn from the generator's vocabulary: common words, rare
// ones, CamelCase identifiers and mixes.
var queries = []string{
	"retry budget timeout",
	"idempotency outbox ledger",
	"webhook signature rotation",
	"circuit breaker bulkhead",
	"schema migration database",
	"canary feature flag release",
	"reconciliation settlement",
	"snapshot checkpoint rollback",
	"rate limiter token",
	"heartbeat lease consensus",
}

var order = []string{"sqlite", "postgres"}

type backends struct {
	bin   string
	roots map[string]string
}

// recall runs one fresh guild-recall process and returns its wall time.
func (b backends) recall(backend, query string, stats bool) (time.Duration, string, error) {
	args := []string{"--cwd", b.roots[backend], "--query", query, "-q"}
	if stats {
		args = append(args, "--index-stats")
	}
	cmd := exec.Command(b.bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil {
		return d, "", fmt.Errorf("%s recall %q: %v: %s", backend, query, err, errb.String())
	}
	if !bytes.Contains(out.Bytes(), []byte(`"source":"`+backend+`"`)) && !bytes.Contains(out.Bytes(), []byte(`"source":"combined"`)) {
		return d, "", fmt.Errorf("%s recall %q: unexpected source in %.200s", backend, query, out.String())
	}
	return d, strings.TrimSpace(errb.String()), nil
}

// build times the first recall of each checkout, which builds its index.
func (b backends) build() error {
	fmt.Printf("## Index build (first recall of a fresh checkout)\n\n| backend | wall | index stats |\n|---|---|---|\n")
	for _, be := range order {
		d, stats, err := b.recall(be, queries[0], true)
		if err != nil {
			return err
		}
		fmt.Printf("| %s | %.2f s | %s |\n", be, d.Seconds(), strings.TrimPrefix(stats, "guild-recall: "))
	}
	fmt.Println()
	return nil
}

// latency runs n recalls per backend, interleaved, and prints percentiles.
func (b backends) latency(n int) error {
	times := map[string][]time.Duration{}
	for i := 0; i < n; i++ {
		q := queries[i%len(queries)]
		for _, be := range order {
			d, _, err := b.recall(be, q, false)
			if err != nil {
				return err
			}
			times[be] = append(times[be], d)
		}
	}
	fmt.Printf("## Recall from a fresh process, index warm (%d runs each, interleaved)\n\n| backend | p50 | p95 | min | max |\n|---|---|---|---|---|\n", n)
	for _, be := range order {
		ts := times[be]
		fmt.Printf("| %s | %s | %s | %s | %s |\n", be, ms(pct(ts, 50)), ms(pct(ts, 95)), ms(slices.Min(ts)), ms(slices.Max(ts)))
	}
	fmt.Println()
	return nil
}

// pct is the p-th percentile (nearest rank).
func pct(ts []time.Duration, p int) time.Duration {
	s := slices.Clone(ts)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	i := (p*len(s) + 99) / 100
	return s[max(i-1, 0)]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
