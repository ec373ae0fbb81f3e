package bounded

import (
	"strings"
	"sync"
)

// Texts keeps what a function of a text alone gives, keyed by the text: safe
// for concurrent use, at most Limit texts weighing MaxSize bytes together
// (each its text's bytes plus what Put says its value holds). Put keeps a
// copy of the text, which may alias a caller's buffer.
type Texts[V any] struct {
	Limit, MaxSize int
	mu             sync.Mutex
	m              Map[string, sized[V]]
	hits           int
}

type sized[V any] struct {
	v    V
	size int
}

// Get is the value kept for text.
func (t *Texts[V]) Get(text string) (V, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s, ok := t.m.Get(text)
	if ok {
		t.hits++
	}
	return s.v, ok
}

// Put keeps v for text; holds is the bytes v holds beside the text.
func (t *Texts[V]) Put(text string, v V, holds int) {
	key := strings.Clone(text)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.m.Limit, t.m.MaxSize = t.Limit, t.MaxSize
	t.m.Size = func(s sized[V]) int { return s.size }
	t.m.Put(key, sized[V]{v, len(key) + holds})
}

// Hits is how many Gets found their text.
func (t *Texts[V]) Hits() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.hits
}

// Clear forgets every text.
func (t *Texts[V]) Clear() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.m.Clear()
}
