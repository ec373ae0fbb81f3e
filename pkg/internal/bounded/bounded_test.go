package bounded

import "testing"

func TestOldestForgotten(t *testing.T) {
	m := Map[string, int]{Limit: 2}
	m.Put("a", 1)
	m.Put("b", 2)
	m.Put("a", 3) // a second put is no new entry
	m.Put("c", 4)
	if _, ok := m.Get("a"); ok {
		t.Fatal("the oldest entry was kept past the limit")
	}
	if v, ok := m.Get("b"); !ok || v != 2 {
		t.Fatalf("b: %d %v", v, ok)
	}
	if v, ok := m.Get("c"); !ok || v != 4 {
		t.Fatalf("c: %d %v", v, ok)
	}
	m.Clear()
	if _, ok := m.Get("c"); ok {
		t.Fatal("Clear kept an entry")
	}
}

func TestSizeBound(t *testing.T) {
	m := Map[string, string]{Size: func(v string) int { return len(v) }, MaxSize: 6}
	m.Put("a", "xxx")
	m.Put("b", "yyy")
	m.Put("a", "x") // replaced: 1 + 3
	m.Put("c", "zzz")
	if _, ok := m.Get("a"); ok {
		t.Fatal("over the size, the oldest entry was kept")
	}
	m.Put("d", "a value over the bound by itself")
	if _, ok := m.Get("d"); !ok || len(m.order) != 1 {
		t.Fatalf("the newest entry, alone over the bound: kept %v, entries %d", ok, len(m.order))
	}
}
