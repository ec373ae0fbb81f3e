package snapshot

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/rtch/rtch/pkg/internal/testtree"
	"github.com/rtch/rtch/pkg/walk"
	"github.com/rtch/rtch/pkg/watch"
)

// TestNoWatcherWalksEveryCall stands in a kernel where no watcher starts
// (no inotify, or its instances used up): no listing may be kept, every
// call walks and sees the edits made since the last one.
func TestNoWatcherWalksEveryCall(t *testing.T) {
	root := t.TempDir()
	testtree.Write(t, root, "d/a.txt", "a\n")
	tr, err := New(root, watch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	tr.newWatcher = func(string, watch.Options) (*watch.Watcher, error) {
		return nil, errors.New("inotify_init1: function not implemented")
	}
	o := walk.Options{Root: root}
	for i := range 3 {
		testtree.Write(t, root, "d/a.txt", fmt.Sprintf("edit %d, a longer line\n", i))
		testtree.Write(t, root, fmt.Sprintf("d/new%d.txt", i), "n\n")
		if got, want := list(t, o, tr.Files), list(t, o, nil); !reflect.DeepEqual(got, want) {
			t.Fatalf("call %d: listing %+v, walk %+v", i, got, want)
		}
	}
	if st := tr.Stats(); st.Walks != 3 || st.Reused != 0 || st.Patched != 0 {
		t.Fatalf("stats %+v: want 3 walks and nothing reused", st)
	}
}
