package hydrate

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/rtch/rtch/pkg/schema"
)

// TestCacheGivesWhatAFreshRunGives: runs sharing a Cache give the chunks
// runs without one give, through an edit; the kept file and the kept
// verdicts are used when the bytes are the same, and not after the edit.
func TestCacheGivesWhatAFreshRunGives(t *testing.T) {
	root := writeTree(t, map[string]string{
		"cfg.py": "a = 1\npassword = 'hunter2hunter2'\nb = 2\n",
		"big.go": numbered("big", 300),
	})
	in := func() *Input {
		return input(schema.RankedSurface{Path: "cfg.py", Anchors: []int{2}}, schema.RankedSurface{Path: "big.go", Anchors: []int{40, 250}})
	}
	calls := 0
	protect := func(s string) (string, []string) {
		calls++
		return s, []string{"seen"}
	}
	cache := &Cache{}
	run := func(step string, cached bool) []schema.Chunk {
		t.Helper()
		o := opts(root, 8000)
		o.Protect = protect
		if cached {
			o.Cache, o.Protect = cache, cache.Protector(protect)
		}
		res, err := Hydrate(in(), o)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		return res.Chunks
	}
	same := func(step string) {
		t.Helper()
		fresh := run(step, false)
		n := calls
		if got := run(step, true); !reflect.DeepEqual(got, fresh) {
			t.Fatalf("%s: with the cache\n%+v\nwithout\n%+v", step, got, fresh)
		}
		if calls == n {
			t.Fatalf("%s: the cached run protected nothing afresh", step)
		}
	}
	same("first")
	fresh := run("again", false)
	n := calls
	if got := run("again", true); !reflect.DeepEqual(got, fresh) || calls != n {
		t.Fatalf("again: protected %d texts afresh; equal %v", calls-n, reflect.DeepEqual(got, fresh))
	}
	f1, _ := cache.ReadFile(root, "cfg.py", 0)
	f2, _ := cache.ReadFile(root, "cfg.py", 0)
	if f1 != f2 {
		t.Fatal("the same bytes were indexed again")
	}
	if err := os.WriteFile(filepath.Join(root, "cfg.py"), []byte("a = 2\npassword = 'hunter3hunter3'\nb = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	same("edited")
	if f3, _ := cache.ReadFile(root, "cfg.py", 0); f3 == f1 || f3.SHA256 == f1.SHA256 {
		t.Fatal("the edited file was served from the cache")
	}
}

// The cache's verdict flags are the caller's to change.
func TestCachedFlagsAreCopies(t *testing.T) {
	p := (&Cache{}).Protector(func(s string) (string, []string) { return s, []string{"a"} })
	_, f := p("text")
	f[0] = "changed"
	if _, g := p("text"); g[0] != "a" {
		t.Fatalf("flags %v", g)
	}
}
