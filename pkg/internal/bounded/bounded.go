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
	// Size, when set, is an entry's weight (its bytes), and MaxSize the
	// most the entries kept may weigh together; the newest entry is kept
	// whatever it weighs.
	Size    func(V) int
	MaxSize int
	m       map[K]V
	order   []K // oldest first
	size    int
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
	if old, ok := b.m[k]; ok {
		b.size -= b.weigh(old)
	} else {
		b.order = append(b.order, k)
	}
	b.m[k] = v
	b.size += b.weigh(v)
	for len(b.order) > 1 && (b.Limit > 0 && len(b.order) > b.Limit || b.Size != nil && b.size > b.MaxSize) {
		b.size -= b.weigh(b.m[b.order[0]])
		delete(b.m, b.order[0])
		b.order = b.order[1:]
	}
}

func (b *Map[K, V]) weigh(v V) int {
	if b.Size == nil {
		return 0
	}
	return b.Size(v)
}

// Clear forgets every entry.
func (b *Map[K, V]) Clear() { b.m, b.order, b.size = nil, nil, 0 }
