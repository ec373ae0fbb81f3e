// Package bounded is a map that forgets its oldest entries past a bound,
// for the caches a long-lived process keeps (rtch-mcp's memo, hydration's
// files and verdicts).
package bounded

// Map is a map of at most Limit entries: putting one more forgets the
// oldest put. Its zero value is empty with no bound; it is not safe for
// concurrent use.
type Map[K comparable, V any] struct {
	// Limit is the most entries kept; 0 keeps every one.
	Limit int
	m     map[K]V
	order []K // oldest first
}

// Get is the value kept for k.
func (b *Map[K, V]) Get(k K) (V, bool) {
	v, ok := b.m[k]
	return v, ok
}

// Put keeps v for k, forgetting the oldest entries past the limit.
func (b *Map[K, V]) Put(k K, v V) {
	if b.m == nil {
		b.m = map[K]V{}
	}
	if _, ok := b.m[k]; !ok {
		b.order = append(b.order, k)
	}
	b.m[k] = v
	for b.Limit > 0 && len(b.order) > b.Limit {
		delete(b.m, b.order[0])
		b.order = b.order[1:]
	}
}

// Clear forgets every entry.
func (b *Map[K, V]) Clear() { b.m, b.order = nil, nil }
