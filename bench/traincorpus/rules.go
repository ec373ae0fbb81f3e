package main

import (
	"path"
	"regexp"
	"strings"

	"github.com/rtch/rtch/pkg/evalscore"
	"github.com/rtch/rtch/pkg/rank"
	"github.com/rtch/rtch/pkg/symbols"
)

// The rules that make a commit a training task. They follow the evaluation
// sets (go-commits: bug-fix commits, the message as the intent, the parent's
// tree as the corpus, the modified non-test source files as gold) and are
// written down in docs/decisions/ranker.md.
const (
	maxGold      = 5   // gold files at most (go-commits has 1-4)
	maxGoldLines = 300 // lines added plus deleted over the gold files
	maxFiles     = 30  // files the commit touches in all (tests and docs included)
	minWords     = 3   // words in the message's first line, references removed
)

// fixWords: a first line that says it fixes something.
var fixWords = regexp.MustCompile(`(?i)(^|[^a-z])(fix|fixe[sd]|fixing|bug|bugs|bugfix|hotfix|crash|crashes|crashed|crashing|panic|panics|regression|broken|incorrect|incorrectly|wrong|wrongly|segfault|leak|leaks|mistake|erroneous)([^a-z]|$)`)

// notFixes: first lines that match fixWords but change no behaviour worth
// finding (spelling, formatting, lint, CI, dependencies, releases), or
// undo a change.
var notFixes = regexp.MustCompile(`(?i)^(revert|merge|bump|release|chore\(deps\)|build\(deps\))|(^|[^a-z])(typo|typos|spelling|misspell\w*|lint|clippy|gofmt|rustfmt|changelog|readme|dependabot|renovate|flaky|ci)([^a-z]|$)`)

// bot authors are left out: their messages are templates.
var bot = regexp.MustCompile(`(?i)\[bot\]|dependabot|renovate|greenkeeper|github-actions|snyk-bot|allcontributors`)

// reference strips issue and pull-request references and a conventional
// commit's type before the words of the first line are counted.
var reference = regexp.MustCompile(`\(?#\d+\)?|\bgh-\d+\b|^[a-z]+(\([^)]*\))?!?:`)

// trailer is a line of the trailer block git and review tools append.
var trailer = regexp.MustCompile(`^(Signed-off-by|Co-authored-by|Co-Authored-By|Reviewed-by|Acked-by|Tested-by|Reported-by|Suggested-by|Helped-by|Change-Id|Cc|CC|PR-URL|Reviewed-on|Reviewed-By|Backport-of|Cherry-picked-from)(:| #)`)

// langs are the languages a training task's gold files may be in.
var langs = map[string]bool{"go": true, "python": true, "javascript": true, "typescript": true, "rust": true, "java": true}

// generatedOrVendored: paths whose files are copies or generated output,
// never where a fix is written.
func generatedOrVendored(p string) bool {
	lp := strings.ToLower(p)
	for _, d := range strings.Split(path.Dir(lp), "/") {
		switch d {
		case "vendor", "third_party", "node_modules", "dist", "generated", "__generated__":
			return true
		}
	}
	base := path.Base(lp)
	for _, s := range []string{".pb.go", ".pb.gw.go", "_generated.go", ".gen.go", ".min.js", ".bundle.js", "_pb2.py", ".d.ts"} {
		if strings.HasSuffix(base, s) {
			return true
		}
	}
	return strings.HasPrefix(base, "zz_generated")
}

// isTest: a test file by the evaluation's rule or the ranking's broader one
// (__tests__/, *.spec.ts, FooTest.java).
func isTest(p string) bool { return evalscore.IsTestPath(p) || rank.IsTest(p) }

// sourceLang is the language of a file that can be gold, "" otherwise.
func sourceLang(p string) string {
	l := symbols.Lang(p)
	if !langs[l] || isTest(p) || generatedOrVendored(p) {
		return ""
	}
	return l
}

// judged is a commit that passed the rules: its intent and gold files.
type judged struct {
	Intent string
	Gold   []string
}

// judge applies the rules that need no blob to a commit; reason says why
// one is left out. The line limit is checkLines's, after lineCounts.
func judge(c commitInfo) (j judged, reason string) {
	if len(c.Parents) != 1 {
		return j, "not one parent"
	}
	if bot.MatchString(c.Author) || bot.MatchString(c.Email) {
		return j, "bot author"
	}
	intent := intentOf(c.Message)
	first, _, _ := strings.Cut(intent, "\n")
	switch {
	case !fixWords.MatchString(first):
		return j, "not a fix"
	case notFixes.MatchString(first):
		return j, "excluded topic"
	case len(strings.Fields(reference.ReplaceAllString(first, " "))) < minWords:
		return j, "short message"
	}
	if len(c.Files) > maxFiles {
		return j, "too many files"
	}
	for _, f := range c.Files {
		if sourceLang(f.Path) == "" {
			continue
		}
		if f.Status != 'M' {
			return j, "adds, deletes or retypes a source file"
		}
		j.Gold = append(j.Gold, f.Path)
	}
	switch {
	case len(j.Gold) == 0:
		return j, "no gold source file"
	case len(j.Gold) > maxGold:
		return j, "too many gold files"
	}
	j.Intent = intent
	return j, ""
}

// checkLines is the size rule on the gold files' line counts (filled by
// lineCounts).
func checkLines(c commitInfo, gold []string) string {
	isGold := map[string]bool{}
	for _, g := range gold {
		isGold[g] = true
	}
	lines := 0
	for _, f := range c.Files {
		if !isGold[f.Path] {
			continue
		}
		if f.Added < 0 {
			return "binary source"
		}
		lines += f.Added + f.Deleted
	}
	switch {
	case lines > maxGoldLines:
		return "too many gold lines"
	case lines == 0:
		return "no gold lines"
	}
	return ""
}

// accept is every rule: judge, then the gold files' blobs and line counts
// (bc is a --batch-check reader of the same repository).
func accept(gitDir string, bc *blobReader, c commitInfo) (judged, string, error) {
	j, why := judge(c)
	if why != "" {
		return j, why, nil
	}
	missing, err := lineCounts(gitDir, bc, &c, j.Gold)
	if err != nil {
		return j, "", err
	}
	if missing {
		return j, "the mirror lacks a gold blob", nil
	}
	return j, checkLines(c, j.Gold), nil
}

// intentOf is the commit message without its trailer block (Signed-off-by,
// Co-authored-by, …) and surrounding blank lines.
func intentOf(msg string) string {
	lines := strings.Split(strings.TrimRight(msg, "\n \t"), "\n")
	end := len(lines)
	for end > 1 {
		l := strings.TrimSpace(lines[end-1])
		if l == "" || trailer.MatchString(l) {
			end--
			continue
		}
		break
	}
	return strings.TrimSpace(strings.Join(lines[:end], "\n"))
}
