package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// A small wiki: the floor classes follow what the question shares with its
// gold page, and the ranking recall runs puts the page whose heading names
// the question's rare word first.
func TestFloorClassesAndRanking(t *testing.T) {
	root := t.TempDir()
	pages := map[string]string{
		"wiki/faq.md":        "# FAQ\n\n## How do retries back off?\n\nSee the retry policy.\n",
		"wiki/retry.md":      "# Retry policy\n\n## Backoff\n\nEach attempt waits twice as long as the one before.\n",
		"wiki/widgets.md":    "# Widgets\n\nContainers hold widgets on a screen.\n",
		"wiki/payments.md":   "# Payments\n\nA payment retry may happen later, run by the service.\n",
		"wiki/service.md":    "# Service\n\nThe service runs on a screen of its own.\n",
		"wiki/deploy.md":     "# Deploy\n\nThe service is deployed on a schedule.\n",
		"wiki/ledger.md":     "# Ledger\n\nThe service writes every entry once.\n",
		"wiki/queues.md":     "# Queues\n\nThe service reads a queue.\n",
		"wiki/reports.md":    "# Reports\n\nThe service mails a report.\n",
		"wiki/monitoring.md": "# Monitoring\n\nThe service exports metrics.\n",
		"wiki/alerts.md":     "# Alerts\n\nThe service pages a person.\n",
	}
	for i := range 20 {
		pages[fmt.Sprintf("wiki/notes/note-%d.md", i)] = "# Note\n\nThe service keeps a note.\n"
	}
	for p, text := range pages {
		f := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tr, err := loadFloorTree(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		q, gold, class string
	}{
		{"How do retries back off?", "wiki/retry.md", "rare"},
		{"What are containers?", "wiki/retry.md", "none"},
		{"What does the service do?", "wiki/payments.md", "common"},
	} {
		p := pair{Question: c.q, From: "wiki/faq.md", Pages: []string{c.gold}}
		if got := tr.overlapClass(p); got != c.class {
			t.Errorf("%q: class %q, want %q", c.q, got, c.class)
		}
	}
	p := pair{Question: "How do retries back off?", From: "wiki/faq.md", Pages: []string{"wiki/retry.md"}}
	secs, st := tr.units([]string{"retry", "backoff"})
	recall := variant{k1: 1.5, b: 0.75, wTitle: 1, wHead: 2, idfPow: 1}
	if r := rankGold(recall, secs, st, p); r != 1 {
		t.Errorf("retry.md ranked %d, want 1", r)
	}
	recall.pages = true
	if r := rankGold(recall, pageUnits(secs), st, p); r != 1 {
		t.Errorf("pages: retry.md ranked %d, want 1", r)
	}
	if r := rankGold(recall, secs, st, pair{Question: "x", From: "wiki/faq.md", Pages: []string{"wiki/widgets.md"}}); r != 0 {
		t.Errorf("a page holding no question term ranked %d", r)
	}
}
