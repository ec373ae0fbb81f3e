package secret

import (
	"hash/crc64"
	"strconv"
	"sync"
)

// screenRevision counts the changes to this package's own screening (the
// checks, gates, key blocks, encoded runs) that make Find report what it
// did not report before. Raise it with such a change: stores keyed by
// Version then screen their text again (and with one that reports less, to
// store what it no longer keeps out).
const screenRevision = 2

// Version names what Find reports: the gitleaks table, the extra rules and
// the screening revision. A store that keeps text only once Find found
// nothing in it (the tree index) is keyed by it, so a binary whose rules
// find more screens the text again instead of trusting the old verdicts.
var Version = sync.OnceValue(func() string { return versionOf(gitleaksTable, extraRules, screenRevision) })

func versionOf(table gitleaksFile, extras []extraRule, revision int) string {
	b := make([]byte, 0, 64<<10)
	field := func(parts ...string) { // each part length-prefixed, a line each field
		for _, p := range parts {
			b = append(append(strconv.AppendInt(b, int64(len(p)), 10), ':'), p...)
		}
		b = append(b, '\n')
	}
	allows := func(as []gitleaksAllow) {
		for _, a := range as {
			field(a.Condition, a.RegexTarget)
			field(a.Regexes...)
			field(a.StopWords...)
			field(a.Paths...)
			field(a.Commits...)
		}
	}
	field(strconv.FormatBool(enabled), strconv.Itoa(revision))
	allows([]gitleaksAllow{table.Allowlist})
	for _, r := range table.Rules {
		field(r.ID, r.Regex, strconv.Itoa(r.SecretGroup), strconv.FormatFloat(r.Entropy, 'g', -1, 64), r.Path, strconv.FormatBool(r.SkipReport))
		field(r.Keywords...)
		allows(r.Allowlists)
	}
	for _, r := range extras {
		field(r.id, r.src, strconv.Itoa(r.group), strconv.FormatBool(r.assign))
		field(r.need...)
	}
	return strconv.FormatUint(crc64.Checksum(b, crc64.MakeTable(crc64.ECMA)), 16)
}
