package fts

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rtch/rtch/pkg/bm25"
	"github.com/rtch/rtch/pkg/fts/internal/synth"
)

// clock is a test clock far enough ahead of file mtimes that no page is racy.
func later() time.Time { return time.Now().Add(time.Minute) }

func writeFile(t *testing.T, root, rel, s string) {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func project(t *testing.T) string {
	root := t.TempDir()
	writeFile(t, root, "wiki/standards/retries.md", "---\ntype: standard\nowner: reviewed\nimportance: 4\n---\n# Retries\n\n## Backoff\nUse RetryPolicy with exponential backoff and jitter.\n\n## Budgets\nEvery client has a retry budget.\n")
	writeFile(t, root, "wiki/decisions/ledger.md", "---\ntype: decision\nimportance: 5\nsupersedes: [wiki/decisions/old-ledger.md]\n---\n# Ledger\nThe ledger is append only; settlement runs nightly.\n")
	writeFile(t, root, "wiki/concepts/minor.md", "---\nimportance: 1\n---\n# Minor\nretry notes of little importance\n")
	writeFile(t, root, "wiki/concepts/bad.md", "---\nowner: a\nowner: b\n---\n# Bad\nretry budget page with a broken frontmatter\n")
	return root
}

func open(t *testing.T, root string) (*Index, Stats) {
	t.Helper()
	ix, st, _, err := Open(context.Background(), root, Options{Now: later})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix, st
}

func TestBuildAndSearch(t *testing.T) {
	root := project(t)
	ix, st, diags, err := Open(context.Background(), root, Options{Now: later})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if st.Pages != 4 || st.Added != 4 || st.Rebuilt != "" {
		t.Fatalf("stats %+v", st)
	}
	if len(diags) != 1 || diags[0].Path != "wiki/concepts/bad.md" || diags[0].Line != 3 {
		t.Fatalf("diags %v", diags)
	}
	hits, err := ix.Search(context.Background(), "retry policy backoff", Filter{MinImportance: 3, DefaultImportance: 3}, 10)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range hits {
		got = append(got, h.Path+"#"+h.Heading)
	}
	want := []string{"wiki/standards/retries.md#Retries > Backoff", "wiki/standards/retries.md#Retries > Budgets", "wiki/concepts/bad.md#Bad"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("hits %q", got)
	}
	if hits[0].Page.Front.Owner != "reviewed" || hits[0].StartLine != 8 || hits[0].Rank <= hits[1].Rank {
		t.Fatalf("hit %+v", hits[0])
	}
	// Identifier parts match: "policy" alone finds RetryPolicy.
	if hs, _ := ix.Search(context.Background(), "policy", Filter{}, 10); len(hs) != 1 {
		t.Fatalf("identifier split: %v", hs)
	}
	hs, _ := ix.Search(context.Background(), "retry", Filter{Categories: []string{"decision", "standard"}}, 10)
	for _, h := range hs {
		if h.Page.Category != "standard" {
			t.Fatalf("category filter: %+v", h)
		}
	}
	sup, err := ix.Supersessions(context.Background())
	if err != nil || len(sup) != 1 || sup[0].Target != "wiki/decisions/old-ledger.md" ||
		sup[0].By != "wiki/decisions/ledger.md" || sup[0].Page.Front.Importance != 5 {
		t.Fatalf("supersessions %+v %v", sup, err)
	}
}

func TestIncremental(t *testing.T) {
	root := project(t)
	ix, _ := open(t, root)
	ix.Close()

	_, st := open(t, root)
	if st.Reindexed() != 0 || st.Deleted != 0 || st.Unchanged != 4 {
		t.Fatalf("no-op refresh: %+v", st)
	}
	writeFile(t, root, "wiki/concepts/new.md", "# New\nnovel quokka text\n")
	_, st = open(t, root)
	if st.Added != 1 || st.Changed != 0 || st.Deleted != 0 || st.Pages != 5 {
		t.Fatalf("add: %+v", st)
	}
	writeFile(t, root, "wiki/concepts/new.md", "# New\nchanged wombat text\n")
	ix, st = open(t, root)
	if st.Added != 0 || st.Changed != 1 || st.Deleted != 0 {
		t.Fatalf("change: %+v", st)
	}
	if hs, _ := ix.Search(context.Background(), "quokka", Filter{}, 5); len(hs) != 0 {
		t.Fatal("stale text still indexed")
	}
	if hs, _ := ix.Search(context.Background(), "wombat", Filter{}, 5); len(hs) != 1 {
		t.Fatal("new text not indexed")
	}
	os.Remove(filepath.Join(root, "wiki/concepts/new.md"))
	ix, st = open(t, root)
	if st.Added != 0 || st.Changed != 0 || st.Deleted != 1 || st.Pages != 4 {
		t.Fatalf("delete: %+v", st)
	}
	if hs, _ := ix.Search(context.Background(), "wombat", Filter{}, 5); len(hs) != 0 {
		t.Fatal("deleted page still indexed")
	}
	// Touching a file without changing its bytes re-hashes but re-indexes nothing.
	future := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(root, "wiki/concepts/minor.md"), future, future)
	_, st = open(t, root)
	if st.Reindexed() != 0 || st.Rehashed != 1 {
		t.Fatalf("touch: %+v", st)
	}
}

func TestRacyPageRehashed(t *testing.T) {
	root := project(t)
	// Indexed "now": every page was modified within the racy window.
	ix, _, _, err := Open(context.Background(), root, Options{Now: time.Now})
	if err != nil {
		t.Fatal(err)
	}
	ix.Close()
	// Same size, same mtime, different bytes: only the racy check catches it.
	p := filepath.Join(root, "wiki/concepts/minor.md")
	info, _ := os.Stat(p)
	data, _ := os.ReadFile(p)
	data = []byte(strings.Replace(string(data), "little", "zebras", 1))
	os.WriteFile(p, data, 0o644)
	os.Chtimes(p, info.ModTime(), info.ModTime())
	ix, st := open(t, root)
	if st.Changed != 1 {
		t.Fatalf("racy change missed: %+v", st)
	}
	if hs, _ := ix.Search(context.Background(), "zebras", Filter{}, 5); len(hs) != 1 {
		t.Fatal("racy change not indexed")
	}
}

func TestCorruptIndexRebuilt(t *testing.T) {
	for name, damage := range map[string]func(p string){
		"garbage": func(p string) {
			os.WriteFile(p, []byte("this is not a database at all, not even close........"), 0o644)
		},
		"empty": func(p string) { os.WriteFile(p, nil, 0o644) },
		"truncated": func(p string) {
			info, _ := os.Stat(p)
			os.Truncate(p, info.Size()/2)
		},
		"foreign": func(p string) {
			// A valid SQLite file that is not our index.
			os.Remove(p)
			db, err := sql.Open("sqlite", p)
			if err == nil {
				db.Exec(`CREATE TABLE other(x)`)
				db.Close()
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			root := project(t)
			ix, _ := open(t, root)
			ix.Close()
			damage(filepath.Join(root, RelPath))
			ix, st, _, err := Open(context.Background(), root, Options{Now: later})
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			hs, err := ix.Search(context.Background(), "ledger settlement", Filter{}, 5)
			if IsCorrupt(err) {
				if st.Rebuilt != "" {
					t.Fatalf("rebuilt index still corrupt: %v", err)
				}
				if err := ix.Rebuild(context.Background(), Options{Now: later}); err != nil {
					t.Fatal(err)
				}
				st.Rebuilt = err.Error()
				hs, err = ix.Search(context.Background(), "ledger settlement", Filter{}, 5)
			}
			if err != nil || len(hs) != 1 {
				t.Fatalf("after damage: %v %v", hs, err)
			}
			t.Logf("rebuilt: %s", st.Rebuilt)
			if st.Rebuilt == "" {
				t.Fatalf("no rebuild reported: %+v", st)
			}
		})
	}
}

func TestConcurrentReaders(t *testing.T) {
	root := t.TempDir()
	if err := synth.Generate(root, 60, 1); err != nil {
		t.Fatal(err)
	}
	ix, _ := open(t, root)
	ix.Close()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < 5; i++ {
				writeFile(t, root, filepath.Join("wiki/concepts", "c"+string(rune('a'+w))+".md"), strings.Repeat("gossip raft lease ", i+1))
				ix, _, _, err := Open(context.Background(), root, Options{Now: later})
				if err != nil {
					errs <- err
					return
				}
				ix.Close()
			}
		}(w)
	}
	for r := 0; r < 2; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				ix, _, _, err := Open(context.Background(), root, Options{Now: later})
				if err != nil {
					errs <- err
					return
				}
				hs, err := ix.Search(context.Background(), "idempotency ledger", Filter{}, 10)
				ix.Close()
				if err != nil || len(hs) == 0 {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	_, st := open(t, root)
	if st.Pages != 63 {
		t.Fatalf("pages %d", st.Pages)
	}
}

func BenchmarkBuild1000(b *testing.B) {
	src := b.TempDir()
	if err := synth.Generate(src, 1000, 1); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		os.Remove(filepath.Join(src, RelPath))
		ix, _, _, err := Open(context.Background(), src, Options{})
		if err != nil {
			b.Fatal(err)
		}
		ix.Close()
	}
}

func TestProgress(t *testing.T) {
	root := t.TempDir()
	if err := synth.Generate(root, 600, 2); err != nil {
		t.Fatal(err)
	}
	var calls [][2]int
	ix, _, _, err := Open(context.Background(), root, Options{Now: later, Progress: func(d, n int) { calls = append(calls, [2]int{d, n}) }})
	if err != nil {
		t.Fatal(err)
	}
	ix.Close()
	if len(calls) < 3 || calls[len(calls)-1] != [2]int{601, 601} || calls[0][0] != 256 {
		t.Fatalf("progress calls %v", calls)
	}
	// Cancelled work stops and leaves no temporary file behind.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	os.Remove(filepath.Join(root, RelPath))
	if _, _, _, err := Open(ctx, root, Options{Now: later}); err == nil {
		t.Fatal("cancelled build succeeded")
	}
	left, _ := filepath.Glob(filepath.Join(root, ".guild/indexes/.wiki.sqlite.tmp-*"))
	if len(left) != 0 || fileExists(filepath.Join(root, RelPath)) {
		t.Fatalf("left behind: %v", left)
	}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// Odd file names survive the manifest: a refresh after the build re-indexes
// nothing.
func TestOddNamesInManifest(t *testing.T) {
	root := project(t)
	for _, name := range []string{"tab\there.md", "new\nline.md", `quote"back\slash.md`, "café.md"} {
		writeFile(t, root, filepath.Join("wiki/concepts", name), "# Odd\nodd name page\n")
	}
	ix, st := open(t, root)
	ix.Close()
	if st.Pages != 8 {
		t.Fatalf("pages %d", st.Pages)
	}
	for _, drop := range []bool{false, true} {
		if drop {
			dropListing(t, root) // compare against the manifest itself
		}
		_, st = open(t, root)
		if st.Reindexed() != 0 || st.Deleted != 0 || st.Unchanged != 8 || st.Rehashed != 0 {
			t.Fatalf("refresh (listing dropped %v): %+v", drop, st)
		}
	}
}

func TestMetaTokensAndFilters(t *testing.T) {
	if got := MetaTokens("decision", 2); got != "cat_decision imp_ge1 imp_ge2" {
		t.Fatal(got)
	}
	if got := MetaTokens("Odd Type!", 0); got != "cat_odd_type_ imp_unset" {
		t.Fatal(got)
	}
	root := project(t)
	ix, _ := open(t, root)
	count := func(f Filter) int {
		hs, err := ix.Search(context.Background(), "retry", f, 10)
		if err != nil {
			t.Fatal(err)
		}
		return len(hs)
	}
	// retries.md has 2 matching sections (importance 4), minor.md 1
	// (importance 1), bad.md 1 (no importance: counts as the default).
	if n := count(Filter{}); n != 4 {
		t.Fatalf("no filter: %d", n)
	}
	if n := count(Filter{MinImportance: 3, DefaultImportance: 3}); n != 3 {
		t.Fatalf("gate 3: %d", n)
	}
	if n := count(Filter{MinImportance: 3, DefaultImportance: 2}); n != 2 {
		t.Fatalf("gate 3, unset below it: %d", n)
	}
	if n := count(Filter{Categories: []string{"standard"}}); n != 2 {
		t.Fatalf("category: %d", n)
	}
	// Words of the meta column never match query terms.
	if hs, _ := ix.Search(context.Background(), "cat_standard imp_ge1", Filter{}, 10); len(hs) != 0 {
		t.Fatalf("meta tokens matched as terms: %v", hs)
	}
	// Beside an ordinary term too (the ledger decision must not come back
	// for its category token).
	hs, err := ix.Search(context.Background(), "backoff cat_decision", Filter{}, 10)
	if err != nil || len(hs) != 1 || hs[0].Path != "wiki/standards/retries.md" {
		t.Fatalf("meta token beside a term: %v %v", hs, err)
	}
	// Without a meta-like term the search runs without the column filter:
	// the same hits with the same ranks as with it.
	for _, m := range []string{`("retry" OR "budget" OR "backoff")`, `("retry" AND "budget")`, `("retry")`} {
		for _, f := range []Filter{{}, {Categories: []string{"standard"}}} {
			filter := ""
			if len(f.Categories) > 0 {
				filter = ` AND meta : ("cat_standard")`
			}
			with, err1 := ix.search(context.Background(), "terms : "+m+filter, f, 10)
			without, err2 := ix.search(context.Background(), m+filter, f, 10)
			if err1 != nil || err2 != nil || len(with) == 0 || !reflect.DeepEqual(with, without) {
				t.Fatalf("%s%s: with the column filter %v (%v), without %v (%v)", m, filter, with, err1, without, err2)
			}
		}
	}
}

// Processes (here goroutines with their own connections) building the same
// missing index at once all succeed; the writers' lock makes one build and
// the others open its result.
func TestConcurrentFirstBuild(t *testing.T) {
	root := t.TempDir()
	if err := synth.Generate(root, 80, 3); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ix, _, _, err := Open(context.Background(), root, Options{Now: later})
			if err != nil {
				errs <- err
				return
			}
			defer ix.Close()
			if _, err := ix.Search(context.Background(), "ledger idempotency", Filter{}, 5); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(root, RelPath+"-journal")); err == nil {
		t.Error("journal left behind")
	}
}

// dropListing deletes the stored listing digest, so the next refresh
// compares page by page against the manifest.
func dropListing(t *testing.T, root string) {
	t.Helper()
	db, err := sql.Open("sqlite", dsn(filepath.Join(root, RelPath)))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`DELETE FROM meta WHERE key='listing'`); err != nil {
		t.Fatal(err)
	}
}

func hasListing(t *testing.T, root string) bool {
	t.Helper()
	db, err := sql.Open("sqlite", dsn(filepath.Join(root, RelPath)))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM meta WHERE key='listing'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n == 1
}

// The listing digest is stored only when no page is racy; a no-op refresh
// answers from it, and without it from the manifest, with the same stats.
func TestListingDigest(t *testing.T) {
	root := project(t)
	ix, _, _, err := Open(context.Background(), root, Options{Now: time.Now})
	if err != nil {
		t.Fatal(err)
	}
	ix.Close()
	if hasListing(t, root) {
		t.Fatal("listing digest stored while every page is racy")
	}
	_, st := open(t, root) // re-hashes the racy pages, indexed "later"
	if st.Rehashed != 4 || !hasListing(t, root) {
		t.Fatalf("after the racy pages settled: %+v, listing %v", st, hasListing(t, root))
	}
	for _, drop := range []bool{false, true} {
		if drop {
			dropListing(t, root)
		}
		_, st = open(t, root)
		if st.Reindexed() != 0 || st.Deleted != 0 || st.Unchanged != 4 || st.Pages != 4 || st.Rehashed != 0 {
			t.Fatalf("no-op refresh (listing dropped %v): %+v", drop, st)
		}
	}
}

// An edit in place that keeps the size and sets the mtime back is noticed
// through the ctime, whether the refresh starts from the listing digest or
// from the per-page manifest; so is a same-size page swapped in by rename
// with the old mtime.
func TestRestoredMtimeEditNoticed(t *testing.T) {
	for _, viaManifest := range []bool{false, true} {
		root := project(t)
		ix, _ := open(t, root)
		ix.Close()
		p := filepath.Join(root, "wiki/concepts/minor.md")
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(p)
		edited := strings.Replace(string(data), "little", "zebras", 1)
		if len(edited) != len(data) {
			t.Fatal("edit changed the size")
		}
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteAt([]byte(edited), 0); err != nil {
			t.Fatal(err)
		}
		f.Close()
		if err := os.Chtimes(p, info.ModTime(), info.ModTime()); err != nil {
			t.Fatal(err)
		}
		if after, _ := os.Stat(p); after.Size() != info.Size() || !after.ModTime().Equal(info.ModTime()) {
			t.Fatal("size or mtime not restored")
		}
		if viaManifest {
			dropListing(t, root)
		}
		ix, st := open(t, root)
		if st.Changed != 1 || st.Unchanged != 3 {
			t.Fatalf("restored-mtime edit (via manifest %v): %+v", viaManifest, st)
		}
		if hs, _ := ix.Search(context.Background(), "zebras", Filter{}, 5); len(hs) != 1 {
			t.Fatal("restored-mtime edit not indexed")
		}
		ix.Close()

		// A same-size replacement renamed into place with the old mtime.
		tmp := filepath.Join(root, "wiki/concepts/.swap")
		swapped := strings.Replace(edited, "zebras", "okapis", 1)
		if err := os.WriteFile(tmp, []byte(swapped), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(tmp, info.ModTime(), info.ModTime())
		if err := os.Rename(tmp, p); err != nil {
			t.Fatal(err)
		}
		if viaManifest {
			dropListing(t, root)
		}
		ix, st = open(t, root)
		if st.Changed != 1 {
			t.Fatalf("renamed replacement (via manifest %v): %+v", viaManifest, st)
		}
		if hs, _ := ix.Search(context.Background(), "okapis", Filter{}, 5); len(hs) != 1 {
			t.Fatal("renamed replacement not indexed")
		}
	}
}

// indexSection joins EachSectionTerm's terms: the title's, the heading
// path's (each twice) and the text's, each tokenized alone, for titles,
// heading paths and texts with identifiers, stopwords, plurals and
// non-ASCII letters.
func TestIndexSection(t *testing.T) {
	for _, title := range []string{"", "Retry Policies", "pkg.ParseFlags", "Über-Straße back"} {
		for _, text := range []string{"", "off The RetryPolicy retries payments.\nHTTPServer_config and the ledger", "x y z", "İstanbul ǅ naïve café-au-lait"} {
			heading := title + " > Budgets and Backoffs"
			var twice []string
			for _, h := range bm25.Terms(heading) {
				twice = append(twice, h, h)
			}
			want := append(append(bm25.Terms(title), twice...), bm25.Terms(text)...)
			got, st := indexSection(PageName{Title: title}, heading, text)
			if got != strings.Join(want, " ") || st.len != len(want) {
				t.Fatalf("%q/%q: %q (%d terms), want %q", title, text, got, st.len, strings.Join(want, " "))
			}
			distinct := map[string]bool{}
			for _, w := range want {
				distinct[w] = true
			}
			if len(st.terms) != len(distinct) {
				t.Fatalf("%q/%q: distinct terms %q", title, text, st.terms)
			}
		}
	}
}

// The manifest written from what apply did is the one the pages table
// gives, after additions, changes, touches, deletions and a page that
// became unreadable, and after a rebuild.
func TestManifestMatchesPagesTable(t *testing.T) {
	root := project(t)
	check := func(step string) {
		t.Helper()
		db, err := sql.Open("sqlite", dsn(filepath.Join(root, RelPath)))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		rows, err := db.Query(`SELECT id, size, mtime, ctime, ino, indexed_at, hash, path FROM pages ORDER BY path`)
		if err != nil {
			t.Fatal(err)
		}
		var want strings.Builder
		for rows.Next() {
			var id, size, mtime, ctime, ino, at int64
			var hash, path string
			if err := rows.Scan(&id, &size, &mtime, &ctime, &ino, &at, &hash, &path); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&want, "%d\t%d\t%d\t%d\t%d\t%d\t%s\t%s\n", id, size, mtime, ctime, ino, at, hash, strconv.Quote(path))
		}
		rows.Close()
		var got string
		if err := db.QueryRow(`SELECT value FROM meta WHERE key='manifest'`).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want.String() {
			t.Fatalf("%s: manifest\n%s\npages table\n%s", step, got, want.String())
		}
	}
	ix, _ := open(t, root)
	ix.Close()
	check("build")
	writeFile(t, root, "wiki/concepts/new.md", "# New\nquokka\n")
	writeFile(t, root, "wiki/decisions/ledger.md", "# Ledger\nchanged\n")
	os.Remove(filepath.Join(root, "wiki/concepts/minor.md"))
	past := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(root, "wiki/standards/retries.md"), past, past)
	_, st := open(t, root)
	if st.Added != 1 || st.Changed != 1 || st.Deleted != 1 || st.Rehashed != 1 {
		t.Fatalf("stats %+v", st)
	}
	check("refresh")
	writeFile(t, root, "wiki/concepts/new.md", "# New\x00binary now\n")
	_, st = open(t, root)
	if st.Deleted != 1 || st.Pages != 3 {
		t.Fatalf("unreadable: %+v", st)
	}
	check("unreadable")
	if err := os.Remove(filepath.Join(root, RelPath)); err != nil {
		t.Fatal(err)
	}
	_, st = open(t, root)
	check("rebuild")
}
