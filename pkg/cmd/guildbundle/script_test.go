package guildbundle

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/rtch/rtch/pkg/cmd/guildlint"
	"github.com/rtch/rtch/pkg/pipeline"
)

func TestMain(m *testing.M) {
	testscript.Main(m, pipeline.Programs(map[string]func() int{
		"guild-bundle": Main,
		"guild-lint":   guildlint.Main,
	}))
}

func TestScripts(t *testing.T) {
	fixture, err := filepath.Abs("../../../testdata/fixtures/wiki-project")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "../../../testdata/script/guild-bundle",
		RequireExplicitExec: true,
		UpdateScripts:       os.Getenv("UPDATE_SCRIPTS") != "",
		Setup: func(env *testscript.Env) error {
			env.Setenv("FIXTURE", fixture)
			return nil
		},
	})
}
