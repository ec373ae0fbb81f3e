package guildconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, s string) string {
	t.Helper()
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".guild"), 0o755)
	if err := os.WriteFile(filepath.Join(root, RelPath), []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

func TestDefaultsWhenAbsent(t *testing.T) {
	c, path, err := Load("", t.TempDir())
	if err != nil || path != "" {
		t.Fatal(err, path)
	}
	s := c.Settings()
	if s.RecallScoreThreshold != 0.4 || !s.RecallBeforeRead || s.ImportanceGate != 3 || s.WikiFileThreshold != 500 || s.GraphTokens != 1200 {
		t.Fatalf("%+v", s)
	}
}

func TestValuesAndFalse(t *testing.T) {
	root := write(t, "[models]\nrecallScoreThreshold = 0.7\nrecallBeforeRead = false\nimportanceGate = 0\n[index]\nwiki_file_threshold = 2\n[caps]\ngraph_tokens = 300\n")
	c, _, err := Load("", root)
	if err != nil {
		t.Fatal(err)
	}
	s := c.Settings()
	if s.RecallScoreThreshold != 0.7 || s.RecallBeforeRead || s.ImportanceGate != 0 || s.WikiFileThreshold != 2 || s.GraphTokens != 300 {
		t.Fatalf("%+v", s)
	}
}

func TestErrors(t *testing.T) {
	for src, want := range map[string]string{
		"[models]\nrecallScoreTreshold = 0.5\n":                     "config.toml: unknown key models.recallScoreTreshold",
		"[models]\nimportanceGate = 9\n":                            "importanceGate 9 is outside",
		"[models\n":                                                 "config.toml: line 2:",
		"[models]\nrecallBeforeRead = 1\n":                          "config.toml",
		"[index]\nmechanism = \"grep\"\n":                           `index.mechanism "grep"`,
		"[index]\nbackend = \"mysql\"\n":                            `index.backend "mysql" is not one of sqlite, postgres`,
		"[index]\nbackend = \"postgres\"\nmechanism = \"sqlite\"\n": `index.mechanism "sqlite" contradicts index.backend "postgres"`,
		"[index]\ndsn = \"host=db\"\n":                              `index.dsn is only read with index.backend = "postgres"`,
		"[index]\nbackend = \"postgres\"\nwiki = \" \"\n":           "index.wiki is empty",
	} {
		_, _, err := Load("", write(t, src))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err %v, want %q", src, err, want)
		}
	}
	if _, _, err := Load(filepath.Join(t.TempDir(), "nope.toml"), ""); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing explicit file: %v", err)
	}
}

func TestLeadKeys(t *testing.T) {
	if s := Defaults(); s.LeadLastN != 5 || s.LeadCapacityTokens != 8000 || s.LeadRecomputeAt != 0.7 {
		t.Fatalf("defaults %+v", s)
	}
	c, _, err := Load("", write(t, "[lead]\nlast_n = 3\ncapacity_tokens = 4000\nrecompute_at = 0.5\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s := c.Settings(); s.LeadLastN != 3 || s.LeadCapacityTokens != 4000 || s.LeadRecomputeAt != 0.5 {
		t.Fatalf("%+v", s)
	}
	for src, want := range map[string]string{
		"[lead]\nlast_n = -1\n":         "lead.last_n -1 is negative",
		"[lead]\ncapacity_tokens = 0\n": "lead.capacity_tokens 0 must be positive",
		"[lead]\nrecompute_at = 1.5\n":  "lead.recompute_at 1.5 is outside (0,1]",
		"[lead]\nrecompute_at = 0\n":    "lead.recompute_at 0 is outside (0,1]",
		"[lead]\nrecompute_after = 1\n": "unknown key lead.recompute_after",
	} {
		if _, _, err := Load("", write(t, src)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err %v, want %q", src, err, want)
		}
	}
}

func TestPostgresBackend(t *testing.T) {
	for src, want := range map[string]Settings{
		"[index]\nbackend = \"postgres\"\ndsn = \"host=db\"\nwiki = \"team\"\n": {Backend: "postgres", DSN: "host=db", Wiki: "team", Mechanism: "auto"},
		"[index]\nmechanism = \"postgres\"\n":                                   {Backend: "postgres", Mechanism: "postgres"},
		"":                                                                      {Backend: "sqlite", Mechanism: "auto"},
	} {
		c, _, err := Load("", write(t, src))
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		s := c.Settings()
		if s.Backend != want.Backend || s.DSN != want.DSN || s.Wiki != want.Wiki || s.Mechanism != want.Mechanism {
			t.Errorf("%q: %+v, want %+v", src, s, want)
		}
	}
}
