package docs

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/cli"
	"github.com/rtch/rtch/pkg/cmd/guildbundle"
	"github.com/rtch/rtch/pkg/cmd/guildlint"
)

// A walk-through is a page section whose ``` blocks hold `$ ` command
// lines, each followed by what the command prints (stdout, then stderr), a
// `…` standing for any text; a ```` block is a file the reader writes, at
// the last backquoted path named before it.
var writtenAtRe = regexp.MustCompile("`([^`\\s]+\\.md)`")

// block is a fenced block of a page: its fence, its body and the prose
// between the previous block and it.
type block struct{ fence, body, before string }

// fencedBlocks cuts text into its fenced blocks; a block closes at a line
// that is its fence alone.
func fencedBlocks(text string) []block {
	var blocks []block
	var prose, body []string
	fence := ""
	for line := range strings.SplitSeq(text, "\n") {
		switch {
		case fence == "" && strings.HasPrefix(line, "```"):
			fence = line[:len(line)-len(strings.TrimLeft(line, "`"))]
		case fence == "":
			prose = append(prose, line)
		case line == fence:
			blocks = append(blocks, block{fence, strings.Join(body, "\n"), strings.Join(prose, "\n")})
			fence, prose, body = "", nil, nil
		default:
			body = append(body, line)
		}
	}
	return blocks
}

// TestGuildBundleWalkthrough runs docs/guild-bundle.md's walk-through on
// a copy of its fixture and fails when a command's output differs from the
// page, or when the receipt the page shows does not let T3 build.
func TestGuildBundleWalkthrough(t *testing.T) {
	page, err := os.ReadFile("guild-bundle.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(page), "## Walk-through: the Ledgerly fixture\n")
	if !ok {
		t.Fatal("guild-bundle.md has no walk-through")
	}
	tools := map[string]*cli.Tool{"guild-bundle": guildbundle.Tool(), "guild-lint": guildlint.Tool()}
	var dir string
	commands := 0
	for _, b := range fencedBlocks(section) {
		body := b.body
		if b.fence == "````" {
			paths := writtenAtRe.FindAllStringSubmatch(b.before, -1)
			if dir == "" || len(paths) == 0 {
				t.Fatalf("a file block with no path before it, or before the fixture is copied")
			}
			write(t, dir, paths[len(paths)-1][1], body+"\n")
			continue
		}
		if !strings.HasPrefix(body, "$ ") {
			continue
		}
		for _, step := range strings.Split(body[2:], "\n$ ") {
			command, want, _ := strings.Cut(step, "\n")
			args := strings.Fields(command)
			if args[0] == "cp" {
				dir = copyFixture(t, "wiki-project")
				t.Chdir(dir) // the commands name paths relative to it
				continue
			}
			tool := tools[args[0]]
			if tool == nil || dir == "" {
				t.Fatalf("walk-through command %q: not a guild tool, or before the fixture is copied", command)
			}
			stdout, stderr := run(t, tool, dir, nil, args[1:]...)
			got := strings.TrimSuffix(string(stdout)+stderr, "\n")
			if !elidedMatch(want, got) {
				t.Errorf("$ %s\nthe page shows:\n%s\nthe tool prints:\n%s", command, want, got)
			}
			commands++
		}
	}
	if commands < 3 {
		t.Fatalf("ran %d commands of the walk-through, want at least 3", commands)
	}
}

// elidedMatch reports whether got has want's lines, each line's `…`
// standing for any text.
func elidedMatch(want, got string) bool {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	if len(wl) != len(gl) {
		return false
	}
	for i, w := range wl {
		parts := strings.Split(w, "…")
		rest := gl[i]
		if !strings.HasPrefix(rest, parts[0]) || !strings.HasSuffix(rest, parts[len(parts)-1]) {
			return false
		}
		for _, p := range parts {
			at := strings.Index(rest, p)
			if at < 0 {
				return false
			}
			rest = rest[at+len(p):]
		}
	}
	return true
}
