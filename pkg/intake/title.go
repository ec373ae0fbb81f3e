package intake

import (
	"github.com/rtch/rtch/pkg/internal/lazyre"
)

// reTitle is the opening of a goal's first line: blanks and list markers
// (group 1), then optionally a commit-style prefix, "api: ", "cmd, api: "
// (scope in group 2) or the conventional "fix(release)!: " (type in group
// 3, scope in group 4).
var reTitle = lazyre.New(`^([\s>*-]*)(?:(?:([A-Za-z][\w.-]*(?:/[\w.-]+)*(?:,[ \t]*[A-Za-z][\w.-]*(?:/[\w.-]+)*)*)|([a-z]+)\(([A-Za-z][\w.-]*(?:/[\w.-]+)*)\))!?:[ \t]+)?`)

// TitlePrefix is how a goal's first line opens.
type TitlePrefix struct {
	// Words is the byte offset where the title's own words begin: after
	// leading blanks, list markers and the commit-style prefix, if any.
	Words int
	// ScopeStart and ScopeEnd bound the prefix's scope words (the words
	// before the colon, or inside the parentheses); both are -1 when the
	// title has no prefix.
	ScopeStart, ScopeEnd int
	// Type is the word before the parentheses of "fix(release): " ("" for
	// a bare prefix); it ends one byte before ScopeStart.
	Type string
}

// ParseTitle reads the opening of goal's first line. A prefix counts only
// when words follow it on the same line: "api:" alone is the title itself.
func ParseTitle(goal string) TitlePrefix {
	m := reTitle().FindStringSubmatchIndex(goal)
	if end := m[1]; end == m[3] || end == len(goal) || goal[end] == '\r' || goal[end] == '\n' {
		return TitlePrefix{Words: m[3], ScopeStart: -1, ScopeEnd: -1}
	}
	if m[4] >= 0 {
		return TitlePrefix{Words: m[1], ScopeStart: m[4], ScopeEnd: m[5]}
	}
	return TitlePrefix{Words: m[1], ScopeStart: m[8], ScopeEnd: m[9], Type: goal[m[6]:m[7]]}
}
