package guildconfig

import (
	"os"
	"path/filepath"
	"testing"
)

// index.dsn from the project's own file is the repository's
// (Settings.DSNFile names the file); from a --config file outside the
// tree it is the user's ("").
func TestDSNFileIsTheRepositorys(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	cfg := "[index]\nbackend = \"postgres\"\ndsn = \"host=localhost dbname=w\"\n"
	inTree := filepath.Join(root, ".guild", "config.toml")
	os.MkdirAll(filepath.Dir(inTree), 0o755)
	os.WriteFile(inTree, []byte(cfg), 0o644)
	own := filepath.Join(home, "guild.toml")
	os.WriteFile(own, []byte(cfg), 0o644)
	for explicit, want := range map[string]string{"": inTree, inTree: inTree, own: ""} {
		c, _, err := Load(explicit, root)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Settings().DSNFile; got != want {
			t.Errorf("Load(%q): DSNFile %q, want %q", explicit, got, want)
		}
	}
	os.WriteFile(inTree, []byte("[index]\nbackend = \"postgres\"\n"), 0o644)
	if c, _, _ := Load("", root); c.Settings().DSNFile != "" {
		t.Error("no index.dsn, yet a DSNFile")
	}
}
