package secret

import (
	"regexp"
	"regexp/syntax"
	"sync"
	"sync/atomic"
)

// Most of gitleaks' rules open with [\w.-]{0,50}?, a lazy run that only
// widens the match to the identifier before the keyword. Go's regexp
// engine unrolls the bounded repeat, so every word byte of a window keeps
// dozens of threads alive, and that opening costs most of a rule's time
// on source code (lob-api-key: 0.26 s over GOROOT/src's windows; without
// the opening 0.02 s). Other rules open with a run of a class before their
// first literal (url-credentials' scheme before "://"). A match of the
// whole pattern contains a match of the rest of it, so a window the rest
// does not match holds no match at all: the rule first asks that of the
// window (a yes or no, no submatches) and runs the whole pattern,
// unchanged, only where the answer is yes. Findings are the same
// (TestPrefiltersKeepEveryFinding).

// A prefilter is compiled only once its pattern has scanned
// prefilterAfter bytes of windows: compiling one costs about a
// millisecond, as much as the whole pattern scanning a few kilobytes, and a
// small tree's texts (a hundred files of a lane's rtch-hydrate) never
// repay the hundred or so a text's keywords enable.
var prefilterAfter int64 = 8 << 10

// prefilterOff runs every rule's whole pattern on every window (tests).
var prefilterOff = false

// lazyPrefilter is one pattern's prefilter, compiled when its pattern has
// scanned prefilterAfter bytes. It is safe for concurrent use.
type lazyPrefilter struct {
	src     func() string // the pattern
	scanned atomic.Int64
	once    sync.Once
	pre     atomic.Pointer[regexp.Regexp]
	ready   atomic.Bool // compiled (pre may still be nil: none)
}

func newLazyPrefilter(src func() string) *lazyPrefilter { return &lazyPrefilter{src: src} }

// mayMatch reports whether window may hold a match of the pattern: false
// only when its prefilter is compiled and does not match it.
func (l *lazyPrefilter) mayMatch(window string) bool {
	if prefilterOff {
		return true
	}
	if !l.ready.Load() {
		if l.scanned.Add(int64(len(window))) < prefilterAfter {
			return true
		}
		l.once.Do(func() {
			if pre := prefilter(l.src()); pre != nil {
				l.pre.Store(pre)
			}
			l.ready.Store(true)
		})
	}
	pre := l.pre.Load()
	return pre == nil || pre.MatchString(window)
}

// prefilter is pattern without what opens it up to its first literal or
// group: repeats that may match nothing (x*, x?, x{0,n}), classes and runs
// of them, and assertions (\b, ^) among them; compiled. It is nil when
// pattern opens with none of these or is nothing else. An assertion just
// before the rest stays unless the rest starts with a case-sensitive
// literal: it fails fast inside words, where the rest would try every
// byte, but a literal prefix the engine finds with a string search.
func prefilter(pattern string) *regexp.Regexp {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil || re.Op != syntax.OpConcat {
		return nil
	}
	k := 0
	for k < len(re.Sub)-1 && opening(re.Sub[k]) {
		k++
	}
	for k > 0 && assertion(re.Sub[k-1]) && !literalPrefix(re.Sub[k]) {
		k--
	}
	if k == 0 {
		return nil
	}
	rest := &syntax.Regexp{Op: syntax.OpConcat, Flags: re.Flags, Sub: re.Sub[k:]}
	pre, err := regexp.Compile(rest.String())
	if err != nil {
		return nil
	}
	return pre
}

// opening reports what prefilter may leave out of a pattern's start.
func opening(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpStar, syntax.OpQuest:
		return true
	case syntax.OpRepeat:
		return re.Min == 0 || re.Sub[0].Op == syntax.OpCharClass
	case syntax.OpPlus:
		return re.Sub[0].Op == syntax.OpCharClass
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return true
	}
	return assertion(re)
}

// assertion reports an empty-width test of the bytes around a place.
func assertion(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpBeginLine, syntax.OpBeginText:
		return true
	}
	return false
}

// literalPrefix reports whether every match of re starts with a
// case-sensitive literal.
func literalPrefix(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		return re.Flags&syntax.FoldCase == 0
	case syntax.OpCapture:
		return literalPrefix(re.Sub[0])
	case syntax.OpConcat:
		return len(re.Sub) > 0 && literalPrefix(re.Sub[0])
	}
	return false
}
