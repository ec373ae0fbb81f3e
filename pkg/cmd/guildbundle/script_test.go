package guildbundle

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/rtch/rtch/pkg/cmd/guildlint"
	"github.com/rtch/rtch/pkg/cmd/rtchhydrate"
	"github.com/rtch/rtch/pkg/cmd/rtchintake"
	"github.com/rtch/rtch/pkg/cmd/rtchpacket"
	"github.com/rtch/rtch/pkg/cmd/rtchprobe"
	"github.com/rtch/rtch/pkg/cmd/rtchscout"
	"github.com/rtch/rtch/pkg/cmd/rtchzone"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"guild-bundle": func() { os.Exit(Main()) },
		"guild-lint":   func() { os.Exit(guildlint.Main()) },
		"rtch-intake":  func() { os.Exit(rtchintake.Main()) },
		"rtch-zone":    func() { os.Exit(rtchzone.Main()) },
		"rtch-scout":   func() { os.Exit(rtchscout.Main()) },
		"rtch-probe":   func() { os.Exit(rtchprobe.Main()) },
		"rtch-hydrate": func() { os.Exit(rtchhydrate.Main()) },
		"rtch-packet":  func() { os.Exit(rtchpacket.Main()) },
	})
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
