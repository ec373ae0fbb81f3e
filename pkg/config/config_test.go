package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, dir, body string) string {
	t.Helper()
	p := filepath.Join(dir, FileName)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadAbsentIsDefaults(t *testing.T) {
	c, path, err := Load("", t.TempDir())
	if err != nil || path != "" {
		t.Fatalf("%v %q", err, path)
	}
	if c.BudgetFor("normal") != 8000 || c.FanoutFor("wide").MaxProbes != 25 || c.MaxFileSize() != 1<<20 {
		t.Fatalf("defaults: %+v", c)
	}
}

func TestLoadOverrides(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "[budgets]\nnormal = 500\n[fanout.wide]\nmax_probes = 30\n[walk]\nmax_file_size = 2048\n")
	c, path, err := Load("", dir)
	if err != nil || path == "" {
		t.Fatal(err)
	}
	if c.BudgetFor("normal") != 500 || c.BudgetFor("wide") != 16000 {
		t.Fatal("budget override")
	}
	if f := c.FanoutFor("wide"); f.MaxProbes != 30 || f.MaxFilesPerProbe != 200 {
		t.Fatalf("fanout override %+v", f)
	}
	if c.MaxFileSize() != 2048 {
		t.Fatal("walk override")
	}
}

func TestUnknownKeyAndSyntaxErrorsNameFile(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "[walk]\nmax_filesize = 1\n")
	_, _, err := Load("", dir)
	if err == nil || !strings.Contains(err.Error(), p+": unknown key walk.max_filesize") {
		t.Fatalf("unknown key: %v", err)
	}
	write(t, dir, "[walk]\nmax_file_size = = 1\n")
	_, _, err = Load("", dir)
	if err == nil || !strings.Contains(err.Error(), p+": line 2:") {
		t.Fatalf("syntax error: %v", err)
	}
	_, _, err = Load(filepath.Join(dir, "missing.toml"), dir)
	if err == nil || !strings.Contains(err.Error(), "missing.toml: no such file") {
		t.Fatalf("explicit missing file: %v", err)
	}
}
