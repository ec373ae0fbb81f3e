package noleak

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rtch/rtch/pkg/cmd/rtchhydrate"
	"github.com/rtch/rtch/pkg/cmd/rtchintake"
	"github.com/rtch/rtch/pkg/cmd/rtchprobe"
	"github.com/rtch/rtch/pkg/cmd/rtchscout"
	"github.com/rtch/rtch/pkg/cmd/rtchzone"
	"github.com/rtch/rtch/pkg/secret"
)

// TestSecretNamesStoredNowhere plants files whose names hold secrets (a
// GitHub token as a file name, an AWS key id as a directory, an npm token
// as a Go file) and runs the lane with the tree index on and the code
// graph with its facts cache. No piece of any name may reach an output,
// the index, the graph-facts file or the graph; and each file is still
// hydrated, by the lane and by a re-entry of the redacted path the chunk's
// record gives.
func TestSecretNamesStoredNowhere(t *testing.T) {
	dir := projectDir(t)
	names := gen{rand.New(rand.NewPCG(41, 4))}.names()
	files := map[string]string{
		"config/" + names["github-pat"] + ".txt":            "the quota ledger reconciles nightly\n",
		"deploy/" + names["aws-access-token"] + "/quota.md": "# Quota ledger\n\nThe quota ledger keeps each tenant's spend.\n",
		"pkg/quota/" + names["npm-access-token"] + ".go":    "package quota\n\n// Ledger is the quota ledger.\ntype Ledger struct{ Spend int }\n",
	}
	if err := writeFiles(dir, files); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	index := t.TempDir()
	var out bytes.Buffer
	intake := run(t, &out, rtchintake.Tool(), nil, "--goal", "where is the quota ledger kept", "--profile", "mixed", "--fanout", "wide",
		"--risk", "read_only", "--output-kind", "hydration_packet", "--enough", "the quota ledger is hydrated")
	for pass := range 2 { // a cold run builds the index, a warm one reads it
		stream := run(t, &out, rtchzone.Tool(), intake)
		stream = run(t, &out, rtchscout.Tool(), stream, "--index", index)
		stream = run(t, &out, rtchprobe.Tool(), stream, "--index", index)
		stream = run(t, &out, rtchhydrate.Tool(), stream)
		if pass == 1 {
			for rel := range files {
				hydrated(t, &out, stream, secret.String(rel))
			}
		}
	}
	run(t, &out, rtchscout.Tool(), nil, "--graph", "graph.json", "--root", ".", "--index", index)
	stored := out.Bytes()
	for _, sub := range []string{index, filepath.Join(dir, "graph.json")} {
		filepath.WalkDir(sub, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				data, _ := os.ReadFile(p)
				stored = append(append(stored, "== file "+p+"\n"...), data...)
			}
			return nil
		})
	}
	if !bytes.Contains(stored, []byte("graph-facts")) || !bytes.Contains(stored, []byte("== file "+filepath.Join(index, "index"))) {
		t.Fatalf("no index or graph-facts file was written under %s", index)
	}
	for rule, name := range names {
		if bytes.Contains(stored, []byte(name)) || bytes.Contains(stored, []byte(name[4:20])) {
			t.Errorf("the %s in a file name reaches an output or a stored file", rule)
		}
	}
	if t.Failed() {
		os.WriteFile(filepath.Join(os.TempDir(), "noleak-names.txt"), stored, 0o644)
	}
}

// hydrated fails unless stream holds a chunk of the file whose redacted
// path is rel, and a re-entry of rel's first line gives its text.
func hydrated(t *testing.T, out *bytes.Buffer, stream []byte, rel string) {
	t.Helper()
	if !strings.Contains(rel, "[REDACTED:") {
		t.Fatalf("%s: the file name holds no secret the redactor finds", rel)
	}
	found := false
	for _, line := range bytes.Split(stream, []byte("\n")) {
		var c struct{ Kind, Path, Text string }
		if json.Unmarshal(line, &c) == nil && c.Kind == "rtch.chunk" && c.Path == rel && c.Text != "" {
			found = true
		}
	}
	if !found {
		t.Errorf("%s: the lane hydrated no chunk of it", rel)
	}
	re := run(t, out, rtchhydrate.Tool(), nil, "--reenter", rel+":L1-L1")
	if !bytes.Contains(re, []byte(`"kind":"rtch.chunk"`)) || !bytes.Contains(re, []byte("quota")) {
		t.Errorf("%s: re-entry gave %s", rel, re)
	}
}

// names are a GitHub token, an AWS key id and an npm token, by the rule
// that finds each.
func (g gen) names() map[string]string {
	return map[string]string{
		"github-pat":       "ghp_" + g.s(alnum, 36),
		"aws-access-token": "AKIA" + g.s(b32, 16),
		"npm-access-token": "npm_" + g.s(hex+"ghijklmnopqrstuvwxyz", 36),
	}
}
