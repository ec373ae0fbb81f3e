package cli

import "strings"

// Strings is a repeatable string flag: each use appends one value.
type Strings []string

func (s *Strings) String() string { return strings.Join(*s, ",") }

// Set appends v.
func (s *Strings) Set(v string) error {
	*s = append(*s, v)
	return nil
}
