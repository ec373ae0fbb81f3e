package intake

import (
	"reflect"
	"testing"

	"github.com/rtch/rtch/pkg/schema"
)

func groups(ts []schema.GoalTerm) map[string]string {
	m := map[string]string{}
	for _, t := range ts {
		if t.Group != "" {
			m[t.Term] = t.Group
		}
	}
	return m
}

func TestIdeasGroupSpellings(t *testing.T) {
	cases := []struct {
		name, goal string
		want       map[string]string
		counts     map[string]int
	}{
		{
			name: "inflections of a word, from prose and a camel part",
			goal: "Container restarts: restartCount is wrong after the daemon restarted containers",
			want: map[string]string{"restarts": "restart", "restart": "restart", "restarted": "restart",
				"container": "contain", "containers": "contain"},
		},
		{
			name: "a hyphen compound and its joined spelling, and the phrasal verb",
			goal: "retry should back off: the back-off grows but backoff is reset",
			want: map[string]string{"back-off": "backoff", "backoff": "backoff"},
			// back-off's own mention and "back off"; "back-off" itself is
			// no pair (a hyphen, not a space).
			counts: map[string]int{"back-off": 2, "backoff": 1},
		},
		{
			name: "an idea the goal spells once groups nothing",
			goal: "leaking goroutine in the watcher",
			want: map[string]string{},
		},
		{
			name:   "a phrasal verb alone is English, not a name",
			goal:   "the client times out and backs off",
			want:   map[string]string{},
			counts: map[string]int{"times": 1, "backs": 1},
		},
		{
			name:   "an inflected compound takes the pair of its verb",
			goal:   "requests timed out; raise the timeouts and the timeout",
			want:   map[string]string{"timeouts": "timeout", "timeout": "timeout"},
			counts: map[string]int{"timeouts": 2, "timeout": 1},
		},
		{
			name: "names written as code keep no group",
			goal: "`Restart` and `restarts` in RestartPolicy",
			want: map[string]string{},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Ideas(c.goal, ExtractTerms(c.goal))
			if g := groups(got); !reflect.DeepEqual(g, c.want) {
				t.Fatalf("groups %v, want %v (terms %+v)", g, c.want, got)
			}
			m := termMap(got)
			for term, n := range c.counts {
				if m[term].Count != n {
					t.Errorf("%s count %d, want %d", term, m[term].Count, n)
				}
			}
		})
	}
}

// Ideas changes nothing but the groups and the pairs' counts: every term
// stays, in order, with its own kind and offset.
func TestIdeasKeepEveryTerm(t *testing.T) {
	goal := "Fix restart: restarts of a restarted task\n\nThe scheduler restarts it."
	plain := ExtractTerms(goal)
	got := Ideas(goal, plain)
	if len(got) != len(plain) {
		t.Fatalf("%d terms, want %d", len(got), len(plain))
	}
	for i := range got {
		g := got[i]
		g.Group = ""
		if !reflect.DeepEqual(g, plain[i]) {
			t.Fatalf("term %d: %+v, want %+v", i, got[i], plain[i])
		}
	}
	if plain[0].Group != "" {
		t.Fatal("Ideas changed its input")
	}
}
