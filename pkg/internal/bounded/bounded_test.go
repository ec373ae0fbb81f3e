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
