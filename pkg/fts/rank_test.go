package fts

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"testing"

	"github.com/rtch/rtch/pkg/bm25"
	"github.com/rtch/rtch/pkg/fts/internal/synth"
)

// storedCorpus reads the statistics the index keeps, and the ones its
// sections give when counted again.
func storedCorpus(t *testing.T, ix *Index) (kept, counted map[string]int, keptN, countedN [2]int64) {
	t.Helper()
	ctx := context.Background()
	c, err := readCorpusCounts(ctx, ix.db)
	if err != nil {
		t.Fatal(err)
	}
	keptN = [2]int64{int64(c.Sections), c.Length}
	kept = map[string]int{}
	rows, err := ix.db.QueryContext(ctx, `SELECT term, df FROM terms`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var term string
		var df int
		rows.Scan(&term, &df)
		kept[term] = df
	}
	rows.Close()
	counted = map[string]int{}
	rows, err = ix.db.QueryContext(ctx, `SELECT p.page, s.heading, s.text, s.len FROM sections s JOIN pages p ON p.id = s.page_id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var meta, heading, text string
		var n int
		rows.Scan(&meta, &heading, &text, &n)
		var pm PageMeta
		json.Unmarshal([]byte(meta), &pm)
		st := countSection(pm.Name(), heading, text)
		if st.len != n {
			t.Fatalf("stored length %d, counted %d", n, st.len)
		}
		countedN[0]++
		countedN[1] += int64(n)
		for _, term := range st.terms {
			counted[term]++
		}
	}
	return kept, counted, keptN, countedN
}

// The statistics BM25 needs follow every refresh: pages added, changed,
// deleted and made unreadable, and a rebuild.
func TestCorpusFollowsRefreshes(t *testing.T) {
	root := project(t)
	check := func(step string) {
		t.Helper()
		ix, _ := open(t, root)
		kept, counted, kn, cn := storedCorpus(t, ix)
		if kn != cn || !reflect.DeepEqual(kept, counted) {
			t.Fatalf("%s: kept %v %v, counted %v %v", step, kn, len(kept), cn, len(counted))
		}
		ix.Close()
	}
	check("build")
	writeFile(t, root, "wiki/concepts/new.md", "# New\n\n## Set up\nset up the retry budget, then back off\n")
	check("added")
	writeFile(t, root, "wiki/standards/retries.md", "# Retries\n\nOnly one section now, about budgets and budgets.\n")
	check("changed")
	os.Remove(filepath.Join(root, "wiki/decisions/ledger.md"))
	check("deleted")
	os.Chmod(filepath.Join(root, "wiki/concepts/new.md"), 0)
	check("unreadable")
	os.Chmod(filepath.Join(root, "wiki/concepts/new.md"), 0o644)
	check("readable again")
	os.WriteFile(filepath.Join(root, RelPath), []byte("not a database"), 0o644)
	check("rebuilt")
}

// The index ranks as in-memory BM25 does over the sections it takes as
// candidates (those holding every query term when at least ten do, else
// all): the same sections in the same order, with the same scores.
func TestSearchRanksLikeBM25(t *testing.T) {
	root := t.TempDir()
	if err := synth.Generate(root, 300, 7); err != nil {
		t.Fatal(err)
	}
	ix, _ := open(t, root)
	ctx := context.Background()
	type doc struct {
		path  string
		line  int
		imp   int
		terms []string
	}
	var docs []doc
	mem := bm25.New(bm25.Recall)
	rows, err := ix.db.QueryContext(ctx, `SELECT p.path, p.page, s.heading, s.text, s.start_line FROM sections s JOIN pages p ON p.id = s.page_id ORDER BY p.path, s.ord`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var d doc
		var meta, heading, text string
		rows.Scan(&d.path, &meta, &heading, &text, &d.line)
		var pm PageMeta
		json.Unmarshal([]byte(meta), &pm)
		d.imp = pm.Front.Importance
		EachSectionTerm(pm.Name(), heading, text, func(t string) { d.terms = append(d.terms, t) })
		mem.Add(d.terms)
		docs = append(docs, d)
	}
	rows.Close()
	terms := make([][]string, len(docs))
	for i, d := range docs {
		terms[i] = d.terms
	}
	// Recall asks for three times the chunks it keeps; BM25's best five are
	// asserted first (further down, a section FTS5's own ranking left out of
	// the candidates can be missing where in-memory BM25 would place it). With
	// and without an importance gate most sections fail (the index reads only
	// the sections it keeps).
	const best = 5
	for _, f := range []Filter{{}, {MinImportance: 5, DefaultImportance: 3}} {
		for _, q := range []string{"retry budget", "idempotency backoff retry budget", "ledger reconciliation gossip",
			"how do we roll back a failed deploy", "queue", "cache invalidation on write"} {
			hits, err := ix.Search(ctx, q, f, 3*10)
			if err != nil {
				t.Fatal(err)
			}
			var passing []bm25.Result
			score := map[string]float64{}
			for _, r := range mem.Search(bm25.Terms(q), 0) {
				score[fmt.Sprintf("%s:%d", docs[r.Doc].path, docs[r.Doc].line)] = r.Score
				if docs[r.Doc].imp >= f.MinImportance {
					passing = append(passing, r)
				}
			}
			res := conjunctiveFirst(passing, terms, bm25.Unique(bm25.Terms(q)), 3*10)
			sort.SliceStable(res, func(i, j int) bool {
				if res[i].Score != res[j].Score {
					return res[i].Score > res[j].Score
				}
				return docs[res[i].Doc].path < docs[res[j].Doc].path
			})
			// every hit has its in-memory score, in order
			for i, h := range hits {
				k := fmt.Sprintf("%s:%d", h.Path, h.StartLine)
				if s, ok := score[k]; !ok || s != h.Rank || i > 0 && h.Rank > hits[i-1].Rank {
					t.Errorf("%q %+v: hit %d %s scored %.9f, in memory %.9f (%v)", q, f, i, k, h.Rank, s, ok)
				}
			}
			// and BM25's best are first
			var got, want []string
			for _, h := range hits[:min(best, len(hits))] {
				got = append(got, fmt.Sprintf("%s:%d %.9f", h.Path, h.StartLine, h.Rank))
			}
			for _, r := range res[:min(best, len(res))] {
				want = append(want, fmt.Sprintf("%s:%d %.9f", docs[r.Doc].path, docs[r.Doc].line, r.Score))
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%q %+v:\n got %q\nwant %q", q, f, got, want)
			}
		}
	}
}

// conjunctiveFirst keeps the results whose document holds every query term
// when at least limit do: the candidates Search ranks.
func conjunctiveFirst(res []bm25.Result, terms [][]string, q []string, limit int) []bm25.Result {
	var all []bm25.Result
	for _, r := range res {
		if holdsAll(terms[r.Doc], q) {
			all = append(all, r)
		}
	}
	if len(all) >= limit {
		return all
	}
	return res
}

func holdsAll(doc, q []string) bool {
	for _, t := range q {
		if !slices.Contains(doc, t) {
			return false
		}
	}
	return true
}
