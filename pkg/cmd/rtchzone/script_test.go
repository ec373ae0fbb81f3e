package rtchzone

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/rtch/rtch/pkg/cmd/rtchintake"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"rtch-zone":   func() { os.Exit(Main()) },
		"rtch-intake": func() { os.Exit(rtchintake.Main()) },
	})
}

func params(dir string) testscript.Params {
	return testscript.Params{
		Dir:                 dir,
		RequireExplicitExec: true,
		UpdateScripts:       os.Getenv("UPDATE_SCRIPTS") != "",
	}
}

// TestScripts runs rtch-zone's own scripts.
func TestScripts(t *testing.T) { testscript.Run(t, params("../../../testdata/script/rtch-zone")) }

// TestCLIScripts runs the shared framework's scripts (pkg/cli behaviour seen
// from real tools: help, flags, pass-through, -o, --jq, config).
func TestCLIScripts(t *testing.T) { testscript.Run(t, params("../../../testdata/script/cli")) }
