// Package synth generates a deterministic synthetic wiki for benchmarks and
// scale tests: pages spread over the SPEC §10 folders, each with frontmatter
// and a few sections whose words follow a Zipf distribution (s = 1.07) over a
// vocabulary of an engineering core (the most frequent words) and 20,000
// pronounceable pseudo-words (the long tail), plus one CamelCase identifier
// per page — the shape of term frequencies in a real wiki.
package synth

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
)

var folders = []struct{ dir, typ string }{
	{"standards", "standard"}, {"entities/products", "entity"}, {"entities/services", "entity"},
	{"concepts", "concept"}, {"decisions", "decision"}, {"sources", "source"},
}

var common = strings.Fields(`service request response error retry timeout cache index queue worker
	token budget schema record stream client server handler config deploy release test review
	owner team policy standard latency throughput storage database migration api version`)

var rare = strings.Fields(`idempotency backoff jitter circuit breaker saga outbox ledger settlement
	reconciliation webhook signature nonce rotation quarantine spotlight delimiter fanout shard
	replica consensus raft lease heartbeat watermark compaction tombstone bloom filter trie
	gossip vector clock snapshot checkpoint rollback canary feature flag rate limiter bulkhead`)

var owners = []string{"operator", "reviewed", "synthesized", "platform-team", "payments-team"}

// vocab is the word list in decreasing frequency rank.
func vocab(r *rand.Rand) []string {
	v := append(append([]string{}, common...), rare...)
	syl := strings.Fields("ka lo mi ne ru ta vo shi pe ga zu fo ri da be mo tu ye ni sa")
	seen := map[string]bool{}
	for _, w := range v {
		seen[w] = true
	}
	for len(v) < 20000+len(common)+len(rare) {
		var b strings.Builder
		for k := 0; k < 2+r.Intn(3); k++ {
			b.WriteString(syl[r.Intn(len(syl))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			v = append(v, w)
		}
	}
	return v
}

// Generate writes n pages under root/wiki plus .guild/principles.md.
func Generate(root string, n int, seed int64) error {
	r := rand.New(rand.NewSource(seed))
	words := vocab(r)
	zipf := rand.NewZipf(r, 1.07, 2, uint64(len(words)-1))
	if err := write(root, ".guild/principles.md", "# Principles\n\nPrefer small reversible changes. Measure before optimising.\n"); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		f := folders[i%len(folders)]
		ident := fmt.Sprintf("%s%s%d", title(rare[r.Intn(len(rare))]), title(common[r.Intn(len(common))]), i)
		var b strings.Builder
		fmt.Fprintf(&b, "---\ntype: %s\nowner: %s\nconfidence: %s\nimportance: %d\nsource_refs: [docs/src-%d.md]\nupdated_at: 2026-%02d-%02d\n---\n",
			f.typ, owners[r.Intn(len(owners))], []string{"low", "medium", "high"}[r.Intn(3)], 1+r.Intn(5), i, 1+r.Intn(12), 1+r.Intn(28))
		fmt.Fprintf(&b, "# %s\n\n", ident)
		for s := 0; s < 3+r.Intn(3); s++ {
			fmt.Fprintf(&b, "## %s %s\n\n", title(common[r.Intn(len(common))]), rare[r.Intn(len(rare))])
			for w := 0; w < 40+r.Intn(80); w++ {
				b.WriteString(words[zipf.Uint64()])
				if r.Intn(12) == 0 {
					b.WriteString(".\n")
				} else {
					b.WriteByte(' ')
				}
			}
			fmt.Fprintf(&b, "\nSee `%s`.\n\n", ident)
		}
		if err := write(root, fmt.Sprintf("wiki/%s/page-%05d.md", f.dir, i), b.String()); err != nil {
			return err
		}
	}
	return nil
}

func write(root, rel, s string) error {
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(s), 0o644)
}

func title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }
