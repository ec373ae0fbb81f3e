package pipelinetest

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/rtch/rtch/pkg/cmd/rtchhydrate"
	"github.com/rtch/rtch/pkg/cmd/rtchintake"
	"github.com/rtch/rtch/pkg/cmd/rtchpacket"
	"github.com/rtch/rtch/pkg/cmd/rtchprobe"
	"github.com/rtch/rtch/pkg/cmd/rtchscout"
	"github.com/rtch/rtch/pkg/cmd/rtchzone"
	"github.com/rtch/rtch/pkg/hydrate/scripttest"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"rtch-intake":  func() { os.Exit(rtchintake.Main()) },
		"rtch-zone":    func() { os.Exit(rtchzone.Main()) },
		"rtch-scout":   func() { os.Exit(rtchscout.Main()) },
		"rtch-probe":   func() { os.Exit(rtchprobe.Main()) },
		"rtch-hydrate": func() { os.Exit(rtchhydrate.Main()) },
		"rtch-packet":  func() { os.Exit(rtchpacket.Main()) },
	})
}

func TestPipelineScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "../../../testdata/script/rtch-packet/pipeline",
		RequireExplicitExec: true,
		UpdateScripts:       os.Getenv("UPDATE_SCRIPTS") != "",
		Cmds:                scripttest.Cmds(),
		Condition:           scripttest.Condition,
	})
}
