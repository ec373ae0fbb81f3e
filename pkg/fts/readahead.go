package fts

import (
	"encoding/json"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/rtch/rtch/pkg/wiki"
)

// readPage is a page read, parsed and prepared for insertion.
type readPage struct {
	page  *wiki.Page
	diags []wiki.Diagnostic
	err   error
	// terms are the FTS5 terms of each section, space-separated, and stats
	// its length and distinct terms; meta and diagsJSON the page's stored
	// columns. They are empty when the page's hash is the stored one
	// (nothing will be inserted).
	terms           []string
	stats           []sectionStats
	meta, diagsJSON string
	done            chan struct{}
}

// prepareRead reads f and, unless its content is the stored one, prepares its
// rows, for the page stored under name.
func prepareRead(root string, f wiki.File, name string, s stored, known bool) *readPage {
	r := &readPage{}
	r.page, r.diags, r.err = wiki.Read(root, f)
	if r.err != nil || known && r.page.Hash == s.hash {
		return r
	}
	p := r.page
	meta, err := json.Marshal(StoredMeta(p))
	if err != nil {
		r.err = err
		return r
	}
	dj, err := json.Marshal(StoredDiags(r.diags, f.Path, name))
	if err != nil {
		r.err = err
		return r
	}
	r.meta, r.diagsJSON = string(meta), string(dj)
	secs := StoredSections(p)
	r.terms = make([]string, len(secs))
	r.stats = make([]sectionStats, len(secs))
	for i, sec := range secs {
		r.terms[i], r.stats[i] = indexSection(NameOf(p), sec.HeadingPath(), sec.Text)
	}
	return r
}

// readAheadWindow bounds how many prepared pages wait to be applied.
const readAheadWindow = 64

// readAhead prepares the files (with their stored names and rows, nil when
// new) on GOMAXPROCS goroutines, at most readAheadWindow ahead of the
// consumer. next returns them in order (call
// it exactly once per file); stop releases the workers when the consumer
// quits early.
func readAhead(root string, files []wiki.File, names Names, prior []*stored) (next func() *readPage, stop func()) {
	slots := make([]*readPage, len(files))
	ready := make([]chan struct{}, len(files))
	for i := range ready {
		ready[i] = make(chan struct{})
	}
	window := make(chan struct{}, readAheadWindow)
	quit := make(chan struct{})
	var taken atomic.Int64
	for w := min(runtime.GOMAXPROCS(0), len(files)); w > 0; w-- {
		go func() {
			for {
				select {
				case window <- struct{}{}:
				case <-quit:
					return
				}
				i := int(taken.Add(1) - 1)
				if i >= len(files) {
					return
				}
				var s stored
				if prior[i] != nil {
					s = *prior[i]
				}
				slots[i] = prepareRead(root, files[i], names.Of(files[i].Path), s, prior[i] != nil)
				close(ready[i])
			}
		}()
	}
	k := 0
	next = func() *readPage {
		<-ready[k]
		r := slots[k]
		slots[k] = nil
		k++
		<-window
		return r
	}
	var once sync.Once
	return next, func() { once.Do(func() { close(quit) }) }
}
