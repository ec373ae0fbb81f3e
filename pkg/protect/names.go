package protect

import "strings"

// NameBreaks returns the byte offsets of s where Wrap writes "¤-": inside
// every spelling of the recall tag's name the folded view finds. File
// names use it (pkg/pathenc), so a name can no more spell the delimiter in
// a record's metadata than chunk text can inside a block.
func NameBreaks(s string) []int { return nameBreaks(s) }

// BreakNames inserts "¤-" inside every spelling of the tag's name in s and
// changes nothing else: for metadata that is not a file name in the record
// spelling (a graph node's id shown as a chunk's source). It is idempotent.
func BreakNames(s string) string {
	breaks := nameBreaks(s)
	if len(breaks) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 3*len(breaks))
	last := 0
	for _, at := range breaks {
		b.WriteString(s[last:at])
		b.WriteString("¤-")
		last = at
	}
	b.WriteString(s[last:])
	return b.String()
}
