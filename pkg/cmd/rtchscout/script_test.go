package rtchscout

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/rtch/rtch/pkg/cmd/rtchintake"
	"github.com/rtch/rtch/pkg/cmd/rtchzone"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"rtch-scout":  func() { os.Exit(Main()) },
		"rtch-intake": func() { os.Exit(rtchintake.Main()) },
		"rtch-zone":   func() { os.Exit(rtchzone.Main()) },
	})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "../../../testdata/script/rtch-scout",
		RequireExplicitExec: true,
		UpdateScripts:       os.Getenv("UPDATE_SCRIPTS") != "",
	})
}
