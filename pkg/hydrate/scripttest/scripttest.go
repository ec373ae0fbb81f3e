// Package scripttest holds the testscript commands the rtch-hydrate and
// rtch-packet scripts share: placing the work directory into fixture streams,
// generating long files, and verifying that every chunk of a stream re-enters
// to the same bytes (its rtch-hydrate --reenter command and its sed command
// both run, and both must hash to the chunk's sha256) within a budget.
package scripttest

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/rtch/rtch/pkg/schema"
	"github.com/rtch/rtch/pkg/tokens"
)

// Cmds returns the custom commands.
func Cmds() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	return map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"rootify":       rootify,
		"mklines":       mklines,
		"verify-chunks": verifyChunks,
		"brief-size":    briefSize,
	}
}

// statedSize is the md brief header's statement of its own size.
var statedSize = regexp.MustCompile(`(?m)^- \*\*size:\*\* (\d+) of (\d+) tokens, this whole brief by ceil\(chars/4\)$`)

// brief-size FILE BUDGET: the md brief in FILE is at most BUDGET tokens by
// ceil(chars/4), header to last line, and its header states exactly its
// measured size and that budget.
func briefSize(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: brief-size FILE BUDGET")
	}
	b, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	budget, err := strconv.Atoi(args[1])
	ts.Check(err)
	m := statedSize.FindStringSubmatch(string(b))
	if m == nil {
		ts.Fatalf("%s: no size line in the header", args[0])
	}
	n := tokens.Estimate(string(b))
	if m[1] != strconv.Itoa(n) || m[2] != args[1] || n > budget {
		ts.Fatalf("%s: %d tokens, the header states %s of %s, the budget is %d", args[0], n, m[1], m[2], budget)
	}
}

// rootify FILE...: replace @ROOT@ by $WORK in each file.
func rootify(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: rootify FILE...")
	}
	for _, a := range args {
		p := ts.MkAbs(a)
		b, err := os.ReadFile(p)
		ts.Check(err)
		root, _ := json.Marshal(ts.Getenv("WORK"))
		out := strings.ReplaceAll(string(b), `"@ROOT@"`, string(root))
		ts.Check(os.WriteFile(p, []byte(out), 0o644))
	}
}

// mklines FILE N [LINE TEXT]...: write N numbered lines, with TEXT at LINE.
func mklines(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 || len(args)%2 != 0 {
		ts.Fatalf("usage: mklines FILE N [LINE TEXT]...")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	special := map[int]string{}
	for i := 2; i < len(args); i += 2 {
		l, err := strconv.Atoi(args[i])
		ts.Check(err)
		special[l] = args[i+1]
	}
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if s, ok := special[i]; ok {
			b.WriteString(s)
		} else {
			fmt.Fprintf(&b, "// line %d: filler_%d := compute(%d)", i, i, i*7)
		}
		b.WriteByte('\n')
	}
	ts.Check(os.MkdirAll(filepath.Dir(ts.MkAbs(args[0])), 0o755))
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(b.String()), 0o644))
}

// verify-chunks FILE [BUDGET]: every rtch.chunk in FILE re-enters to the same
// sha256 and chunk_id through its next_re_entry_command, its sed_command
// prints bytes that hash to its sha256, est_tokens is the estimate of its
// text, and the chunks' tokens sum to at most BUDGET. Effective views are
// checked through their base_re_entry_command instead (it must run).
func verifyChunks(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: verify-chunks FILE [BUDGET]")
	}
	budget := -1
	if len(args) == 2 {
		b, err := strconv.Atoi(args[1])
		ts.Check(err)
		budget = b
	}
	f, err := os.Open(ts.MkAbs(args[0]))
	ts.Check(err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	total, n := 0, 0
	for sc.Scan() {
		var env struct {
			Kind string `json:"kind"`
		}
		if json.Unmarshal(sc.Bytes(), &env) != nil || env.Kind != schema.KindChunk {
			continue
		}
		var c schema.Chunk
		ts.Check(json.Unmarshal(sc.Bytes(), &c))
		n++
		total += c.EstTokens
		if c.EstTokens != tokens.Estimate(c.Text) {
			ts.Fatalf("%s %s: est_tokens %d, text estimates %d", c.Path, c.LineRange, c.EstTokens, tokens.Estimate(c.Text))
		}
		if c.ConfidenceClass == "effective_record_view" {
			sum := sha256.Sum256([]byte(c.Text))
			if len(c.Flags) == 0 && hex.EncodeToString(sum[:]) != c.SHA256 {
				ts.Fatalf("%s %s: effective view sha256 is not over its text", c.Path, c.LineRange)
			}
			ts.Check(ts.Exec("sh", "-c", c.BaseReEntryCommand))
			continue
		}
		ts.Check(ts.Exec("sh", "-c", c.NextReEntryCommand))
		var re schema.Chunk
		out := ts.ReadFile("stdout")
		if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &re); err != nil {
			ts.Fatalf("%s: output is not one chunk: %v", c.NextReEntryCommand, err)
		}
		if re.SHA256 != c.SHA256 || re.ChunkID != c.ChunkID || re.Text != c.Text {
			ts.Fatalf("%s: re-entry gives sha256 %s id %s, the chunk has %s id %s", c.NextReEntryCommand, re.SHA256, re.ChunkID, c.SHA256, c.ChunkID)
		}
		ts.Check(ts.Exec("sh", "-c", c.SedCommand))
		sum := sha256.Sum256([]byte(ts.ReadFile("stdout")))
		if hex.EncodeToString(sum[:]) != c.SHA256 {
			ts.Fatalf("%s: sed output does not hash to the chunk's sha256", c.SedCommand)
		}
	}
	ts.Check(sc.Err())
	if n == 0 {
		ts.Fatalf("%s holds no rtch.chunk", args[0])
	}
	if budget >= 0 && total > budget {
		ts.Fatalf("chunks spend %d tokens, over the budget of %d", total, budget)
	}
	ts.Logf("verified %d chunks, %d tokens", n, total)
}

// Condition adds [root] (the tests run as root, so permissions do not bind).
func Condition(cond string) (bool, error) {
	if cond == "root" {
		return os.Geteuid() == 0, nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}
