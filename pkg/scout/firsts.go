package scout

import "slices"

// firsts keeps the first items in path order of those the files give,
// whatever order the files come in: a file's items are kept whole while
// fewer than limit items come before them, the rule by which the run keeps
// a scan's findings, its handles and a term's confirmations (each then
// cut to its own count). A file that gives none is not kept, so at most
// limit files are.
type firsts[T any] struct {
	limit int
	files []posItems[T] // by position
}

type posItems[T any] struct {
	pos   int
	items []T
}

// add keeps the items of the file at position pos while they may be
// among the first.
func (f *firsts[T]) add(pos int, items []T) {
	if len(items) == 0 {
		return
	}
	at, _ := slices.BinarySearchFunc(f.files, pos, func(e posItems[T], p int) int { return e.pos - p })
	if at >= f.limit {
		return // limit files of at least one item each come before it
	}
	f.files = slices.Insert(f.files, at, posItems[T]{pos, items})
	n := 0
	for k, e := range f.files {
		if n >= f.limit {
			clear(f.files[k:])
			f.files = f.files[:k]
			break
		}
		n += len(e.items)
	}
}

// all is the kept files' items in path order (none for a nil f).
func (f *firsts[T]) all() []T {
	if f == nil {
		return nil
	}
	var out []T
	for _, e := range f.files {
		out = append(out, e.items...)
	}
	return out
}

// first is the first n of them.
func (f *firsts[T]) first(n int) []T {
	out := f.all()
	return out[:min(n, len(out))]
}
