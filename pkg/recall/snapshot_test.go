package recall

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rtch/rtch/pkg/guildconfig"
)

// The index snapshot searched while the wiki is listed answers only for the
// listing it was written for: after an in-place edit that keeps the size and
// restores the mtime, the listing no longer matches, the index is refreshed
// and the edit is recalled.
func TestSnapshotAnswersOnlyForItsListing(t *testing.T) {
	indexClock = func() time.Time { return time.Now().Add(time.Minute) }
	defer func() { indexClock = time.Now }()
	root := t.TempDir()
	for i := 0; i < 6; i++ {
		write(t, root, fmt.Sprintf("wiki/concepts/p%d.md", i), []byte(fmt.Sprintf("# Page %d\nalpha beta page%d notes\n", i, i)))
	}
	set := guildconfig.Defaults()
	set.WikiFileThreshold = 1
	recallQ := func(q string) *Result {
		t.Helper()
		res, err := Recall(context.Background(), Options{Root: root, Query: q, Settings: set})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := recallQ("alpha"); res.Source != SourceSQLite || res.Index["."].Added != 6 {
		t.Fatalf("first recall: %s %+v", res.Source, res.Index)
	}
	opt := Options{Root: root, Query: "alpha", Limit: 10, Settings: set, Now: time.Now()}
	files, _, spec, err := listWiki(context.Background(), opt, root, set)
	if err != nil {
		t.Fatal(err)
	}
	if spec == nil || !spec.snap.Matches(files) || len(spec.chunks) != 6 {
		t.Fatalf("unchanged wiki: speculation %+v", spec)
	}
	if res := recallQ("alpha"); res.Source != SourceSQLite || len(res.Chunks) != 6 || res.Index["."].Unchanged != 6 || res.Index["."].Pages != 6 {
		t.Fatalf("second recall: %d chunks %+v", len(res.Chunks), res.Index)
	}

	p := filepath.Join(root, "wiki/concepts/p3.md")
	info, _ := os.Stat(p)
	data, _ := os.ReadFile(p)
	edited := strings.Replace(string(data), "alpha", "wombt", 1)
	if err := os.WriteFile(p, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(p, info.ModTime(), info.ModTime())
	files, _, spec, err = listWiki(context.Background(), opt, root, set)
	if err != nil {
		t.Fatal(err)
	}
	if spec != nil && spec.snap.Matches(files) {
		t.Fatal("snapshot matches a listing with an edited page")
	}
	res := recallQ("wombt")
	if len(res.Chunks) != 1 || !strings.Contains(res.Chunks[0].Rendered, "wombt") || res.Index["."].Changed != 1 {
		t.Fatalf("edit not recalled: %d chunks %+v", len(res.Chunks), res.Index)
	}
	if res := recallQ("alpha"); len(res.Chunks) != 5 {
		t.Fatalf("stale text recalled: %d chunks", len(res.Chunks))
	}
}
