// Package lazyre compiles a package's regular expressions on first use
// instead of at program start: every rtch binary links most packages, and
// compiling all their expressions at init cost each process tens of
// milliseconds whether it used them or not.
package lazyre

import (
	"regexp"
	"sync"
)

// New returns expr's compiled form, compiled by the first call; expr must
// compile (the first call panics otherwise, as regexp.MustCompile does).
func New(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
