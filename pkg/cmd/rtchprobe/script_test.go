package rtchprobe

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/rtch/rtch/pkg/cmd/rtchintake"
	"github.com/rtch/rtch/pkg/cmd/rtchscout"
	"github.com/rtch/rtch/pkg/cmd/rtchzone"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"rtch-probe":  func() { os.Exit(Main()) },
		"rtch-scout":  func() { os.Exit(rtchscout.Main()) },
		"rtch-intake": func() { os.Exit(rtchintake.Main()) },
		"rtch-zone":   func() { os.Exit(rtchzone.Main()) },
	})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "../../../testdata/script/rtch-probe",
		RequireExplicitExec: true,
		UpdateScripts:       os.Getenv("UPDATE_SCRIPTS") != "",
	})
}
