package pipeline_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/cmd/guildrecall"
	"github.com/rtch/rtch/pkg/cmd/rtchhydrate"
	"github.com/rtch/rtch/pkg/pipeline"
)

// nameTree is a project whose code and wiki hold files whose names differ
// only in a byte that is not UTF-8 (x_\xff.md and x_\xfe.md), each with its
// own text.
func nameTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"docs/x_\xff.md": "# Retry budget\n\nThe webhook retry budget is kept in ledger ff.\n",
		"docs/x_\xfe.md": "# Retry budget\n\nThe webhook retry budget is kept in ledger fe.\n",
		"wiki/x_\xff.md": "# Retry budget\n\nWebhook retry budget notes, page ff.\n",
		"wiki/x_\xfe.md": "# Retry budget\n\nWebhook retry budget notes, page fe.\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Skipf("this file system refuses the name %q: %v", name, err)
		}
	}
	return dir
}

func noZone(k string) string {
	if k == "RTCH_ZONE_ROOT" {
		return ""
	}
	return os.Getenv(k)
}

// records parses an NDJSON stream into generic records.
func records(t *testing.T, b []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var r map[string]any
		if err := json.Unmarshal(l, &r); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		out = append(out, r)
	}
	return out
}

// The lane, re-entry and guild-recall carry x_\xff.md and x_\xfe.md as two
// paths (x_¤xFF.md, x_¤xFE.md), each chunk with its own file's text, and
// the re-entry command of each chunk reaches its file.
func TestNonUTF8NamesThroughTheLane(t *testing.T) {
	dir := nameTree(t)
	opt := pipeline.Options{Dir: dir, Getenv: noZone}
	var out bytes.Buffer
	args := []string{"--goal=where is the webhook retry budget kept", "--profile=mixed", "--fanout=wide", "--risk=read_only",
		"--output-kind=hydration_packet", "--enough=the retry budget is hydrated"}
	if _, err := pipeline.Run(context.Background(), opt, pipeline.Lane(args), nil, &out); err != nil {
		t.Fatal(err)
	}
	chunks := map[string]map[string]any{}
	for _, r := range records(t, out.Bytes()) {
		if r["kind"] == "rtch.chunk" {
			chunks[r["path"].(string)] = r
		}
	}
	for path, want := range map[string]string{"docs/x_¤xFF.md": "ledger ff", "docs/x_¤xFE.md": "ledger fe"} {
		c, ok := chunks[path]
		if !ok {
			t.Fatalf("no chunk for %s; chunks %v\n%s", path, keys(chunks), out.Bytes())
		}
		if !strings.Contains(c["text"].(string), want) {
			t.Errorf("%s: text %q, want %q", path, c["text"], want)
		}
		if reenter, _ := c["next_re_entry_command"].(string); !strings.HasPrefix(reenter, "rtch-hydrate --reenter '"+path+":L") {
			t.Errorf("%s: re-entry %q does not name the path", path, reenter)
		}
		sed, _ := c["sed_command"].(string)
		if printed, err := exec.Command("bash", "-c", "cd \"$1\" && "+sed, "sh", dir).Output(); err != nil || !strings.Contains(string(printed), want) {
			t.Errorf("%s: sed command %q printed %q (%v)", path, sed, printed, err)
		}
		var again bytes.Buffer
		spec := path + ":L1-L3"
		if _, err := pipeline.Run(context.Background(), opt, []pipeline.Stage{{Tool: rtchhydrate.Tool(), Args: []string{"--reenter", spec}}}, nil, &again); err != nil {
			t.Fatalf("--reenter %s: %v", spec, err)
		}
		if rs := records(t, again.Bytes()); len(rs) != 1 || rs[0]["path"] != path || !strings.Contains(rs[0]["text"].(string), want) {
			t.Errorf("--reenter %s: %s", spec, again.Bytes())
		}
	}

	// the md brief's re-entry lines spell the names as the records do
	var md bytes.Buffer
	if _, err := pipeline.Run(context.Background(), opt, append(pipeline.Lane(args), pipeline.Packet("--format=md", "--now=0")), nil, &md); err != nil {
		t.Fatal(err)
	}
	for path := range map[string]bool{"docs/x_¤xFF.md": true, "docs/x_¤xFE.md": true} {
		if !strings.Contains(md.String(), "rtch-hydrate --reenter '"+path+":L1-L3'") {
			t.Errorf("md brief: no re-entry of %s in\n%s", path, md.String())
		}
	}
	if strings.Contains(md.String(), "¤¤x") { // a sentence naming the file escaped its escape
		t.Errorf("md brief spells a name twice escaped:\n%s", md.String())
	}

	var rec bytes.Buffer
	if _, err := pipeline.Run(context.Background(), opt, []pipeline.Stage{{Tool: guildrecall.Tool(), Args: []string{"--cwd", dir, "--query", "webhook retry budget notes", "--json"}}}, nil, &rec); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Chunks []struct {
			SourcePath string `json:"source_path"`
			Rendered   string `json:"rendered"`
		} `json:"chunks"`
	}
	if err := json.Unmarshal(rec.Bytes(), &got); err != nil {
		t.Fatalf("%v: %s", err, rec.Bytes())
	}
	seen := map[string]string{}
	for _, c := range got.Chunks {
		seen[c.SourcePath] = c.Rendered
	}
	for path, want := range map[string]string{"wiki/x_¤xFF.md": "page ff", "wiki/x_¤xFE.md": "page fe"} {
		if !strings.Contains(seen[path], want) {
			t.Errorf("guild-recall: %s renders %q, want %q (paths %v)\n%s", path, seen[path], want, keys(seen), rec.Bytes())
		}
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
