package handoff

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const front = "---\nschema: guild.handoff_receipt.v1\ntask_id: T1-architect\n---\n# Receipt\n\n"

const goodJSON = `{
  "schema_version": "guild.handoff.v2",
  "task_id": "T1-architect",
  "tier": "mid",
  "status": "done",
  "summary": "Search API contract agreed.",
  "artifacts": ["docs/api/search.yaml"],
  "issues": [],
  "learnings": ["keep errors typed"],
  "notes": "short",
  "injection_clean": "clean"
}`

func receipt(js string) string {
	return front + "Prose.\n\n```guild.handoff.v2\n" + js + "\n```\n\nMore prose.\n"
}

func TestParseGood(t *testing.T) {
	r, err := Parse("r.md", []byte(receipt(goodJSON)))
	if err != nil {
		t.Fatal(err)
	}
	c := r.Contract
	if c.TaskID != "T1-architect" || c.Tier != "mid" || c.Status != "done" || !slices.Equal(c.Artifacts, []string{"docs/api/search.yaml"}) || c.Issues == nil || len(c.Issues) != 0 || c.InjectionClean != "clean" {
		t.Errorf("contract: %+v", c)
	}
	if r.Line != 9 || !r.HasFrontmatter {
		t.Errorf("line %d front %v", r.Line, r.HasFrontmatter)
	}
	want := "```guild.handoff.v2\n" + goodJSON + "\n```\n"
	if r.Fenced != want {
		t.Errorf("fenced block not verbatim:\n%q\nwant\n%q", r.Fenced, want)
	}
}

func TestParseNoFrontmatterTildeFence(t *testing.T) {
	r, err := Parse("r.md", []byte("~~~~ guild.handoff.v2\n"+goodJSON+"\n~~~~\n"))
	if err != nil || r.HasFrontmatter || r.Line != 1 {
		t.Fatalf("%v %+v", err, r)
	}
}

func TestParseErrors(t *testing.T) {
	set := func(key, val string) string {
		lines := strings.Split(goodJSON, "\n")
		for i, l := range lines {
			if strings.Contains(l, `"`+key+`"`) {
				if val == "" {
					lines = slices.Delete(lines, i, i+1)
				} else {
					comma := ""
					if strings.HasSuffix(l, ",") {
						comma = ","
					}
					lines[i] = `  "` + key + `": ` + val + comma
				}
				return strings.Join(lines, "\n")
			}
		}
		return strings.Replace(goodJSON, "{\n", "{\n  \""+key+"\": "+val+",\n", 1)
	}
	long := strings.Repeat("é", 601)
	tests := []struct {
		name, text string
		want       []string
	}{
		{"frontmatter only", front + "All done, trust me.\n", []string{"r.md:1: frontmatter-only receipt is not a machine receipt"}},
		{"no block", "# nothing\n", []string{"r.md:1: no ```guild.handoff.v2 block"}},
		{"two blocks", receipt(goodJSON) + "```guild.handoff.v2\n{}\n```\n", []string{"r.md:25: 2 guild.handoff.v2 blocks (lines 9, 25)"}},
		{"unclosed", front + "```guild.handoff.v2\n{}\n", []string{"r.md:7: guild.handoff.v2 block is never closed"}},
		{"inside another fence", front + "````md\n```guild.handoff.v2\n" + goodJSON + "\n```\n````\n", []string{"no ```guild.handoff.v2 block"}},
		{"not json", receipt("{\n  \"task_id\": nope\n}"), []string{"r.md:11: guild.handoff.v2 block is not JSON"}},
		{"not object", receipt("[1]"), []string{"r.md:10: guild.handoff.v2 block must be a JSON object"}},
		{"trailing", receipt(goodJSON + "\n{}"), []string{"text after the JSON object"}},
		{"unknown key", receipt(set("confidence", `"high"`)), []string{"r.md:11: unknown key \"confidence\""}},
		{"missing summary", receipt(set("summary", "")), []string{"r.md:9: missing required key \"summary\""}},
		{"missing artifacts", receipt(set("artifacts", "")), []string{"missing required key \"artifacts\" (use [] when there are none)"}},
		{"bad tier", receipt(set("tier", `"huge"`)), []string{"r.md:13: tier is \"huge\", want one of cheap, mid, powerful"}},
		{"bad status", receipt(set("status", `"ok"`)), []string{"status is \"ok\", want one of done, blocked, escalate"}},
		{"escalate needs reason", receipt(set("status", `"escalate"`)), []string{"missing required key \"escalate_reason\""}},
		{"long summary", receipt(set("summary", `"`+long+`"`)), []string{"r.md:15: summary is 601 characters, over the 600 limit"}},
		{"long notes", receipt(set("notes", `"`+strings.Repeat("n", 201)+`"`)), []string{"notes is 201 characters, over the 200 limit"}},
		{"wrong schema", receipt(set("schema_version", `"guild.handoff.v1"`)), []string{"schema_version is \"guild.handoff.v1\""}},
		{"null string", receipt(set("task_id", `null`)), []string{"task_id must be a string, got null"}},
		{"number string", receipt(set("summary", `3`)), []string{"summary must be a string, got 3"}},
		{"artifacts objects", receipt(set("artifacts", `[{"path":"x"}]`)), []string{"artifacts must be an array of strings"}},
		{"empty artifact", receipt(set("issues", `["", "x"]`)), []string{"issues[0] is empty"}},
		{"bad injection", receipt(set("injection_clean", `"maybe"`)), []string{"injection_clean is \"maybe\""}},
		{"several at once", receipt(strings.Replace(set("tier", `"x"`), `"status": "done"`, `"status": "y"`, 1)), []string{"tier is \"x\"", "status is \"y\""}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Parse("r.md", []byte(tc.text))
			if err == nil {
				t.Fatalf("no error, got %+v", r)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\nlacks %q", err, w)
				}
			}
			var e *Error
			if !errors.As(err, &e) || e.File != "r.md" {
				t.Errorf("not a positioned error: %#v", err)
			}
		})
	}
}

func TestDuplicateKey(t *testing.T) {
	js := strings.Replace(goodJSON, `"tier": "mid",`, `"tier": "mid", "tier": "cheap",`, 1)
	_, err := Parse("r.md", []byte(receipt(js)))
	if err == nil || !strings.Contains(err.Error(), "r.md:13: key \"tier\" appears twice") {
		t.Fatalf("got %v", err)
	}
}

func TestLoadDir(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.md"), []byte(receipt(goodJSON)), 0o644)
	os.WriteFile(filepath.Join(dir, "b.md"), []byte(front), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("ignored"), 0o644)
	rs, err := LoadDir(dir, ".guild/runs/r1/handoffs")
	if len(rs) != 1 || rs[0].Path != ".guild/runs/r1/handoffs/a.md" {
		t.Fatalf("receipts: %+v", rs)
	}
	if err == nil || !strings.Contains(err.Error(), ".guild/runs/r1/handoffs/b.md:1: frontmatter-only") {
		t.Fatalf("err: %v", err)
	}
}

func FuzzExtractBlock(f *testing.F) {
	f.Add(receipt(goodJSON))
	f.Add("````\n```guild.handoff.v2\n{}\n```\n````\n```guild.handoff.v2\n{}\n```")
	f.Add("~~~guild.handoff.v2\n{\"a\":1}\n~~~~\n")
	f.Add("```guild.handoff.v2 extra\n{}\n")
	f.Fuzz(func(t *testing.T, text string) {
		b, err := ExtractBlock("f.md", text)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Line < 1 {
				t.Fatalf("unpositioned error %v", err)
			}
			return
		}
		if !strings.Contains(text+"\n", b.Fenced) {
			t.Fatalf("fenced block is not verbatim: %q", b.Fenced)
		}
		if !strings.Contains(b.Fenced, b.JSON) {
			t.Fatalf("JSON not inside its fence")
		}
		first, _, _ := strings.Cut(b.Fenced, "\n")
		if !strings.Contains(first, SchemaVersion) {
			t.Fatalf("block does not open with the v2 info string: %q", first)
		}
		// Parsing the whole receipt must never panic either.
		Parse("f.md", []byte(text))
	})
}

func TestLoadFilesKeepsFrontmatterOnly(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.md"), []byte(receipt(goodJSON)), 0o644)
	os.WriteFile(filepath.Join(dir, "b.md"), []byte("---\nschema: guild.handoff_receipt.v1\ntask_id: T9-qa\n---\nDone.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "c.md"), []byte("```guild.handoff.v2\n{\n```\n"), 0o644)
	fs, err := LoadFiles(dir, "h")
	if err != nil || len(fs) != 3 {
		t.Fatalf("files %+v, err %v", fs, err)
	}
	if fs[0].Receipt == nil || fs[0].Err != nil {
		t.Fatalf("a.md: %+v", fs[0])
	}
	if !IsFrontmatterOnly(fs[1].Err) || fs[1].FrontTaskID != "T9-qa" || fs[1].Path != "h/b.md" {
		t.Fatalf("b.md: %+v", fs[1])
	}
	if fs[2].Err == nil || IsFrontmatterOnly(fs[2].Err) {
		t.Fatalf("c.md: a broken block is not frontmatter-only: %+v", fs[2])
	}
}
