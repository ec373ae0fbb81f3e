package intake

import "testing"

func TestParseTitle(t *testing.T) {
	for goal, want := range map[string]TitlePrefix{
		"api: return an error":      {Words: 5, ScopeStart: 0, ScopeEnd: 3},
		"  * cmd, api: remove x":    {Words: 14, ScopeStart: 4, ScopeEnd: 12},
		"fix(release)!: use a tag":  {Words: 15, ScopeStart: 4, ScopeEnd: 11, Type: "fix"},
		"api:":                      {Words: 0, ScopeStart: -1, ScopeEnd: -1},
		"api: \nbody":               {Words: 0, ScopeStart: -1, ScopeEnd: -1},
		"\n\nRemove the race":       {Words: 2, ScopeStart: -1, ScopeEnd: -1},
		"setState(items): loses it": {Words: 0, ScopeStart: -1, ScopeEnd: -1},
		"":                          {Words: 0, ScopeStart: -1, ScopeEnd: -1},
	} {
		if got := ParseTitle(goal); got != want {
			t.Errorf("ParseTitle(%q) = %+v, want %+v", goal, got, want)
		}
	}
}
