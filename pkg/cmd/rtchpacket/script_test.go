package rtchpacket

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/rtch/rtch/pkg/cmd/rtchhydrate"
	"github.com/rtch/rtch/pkg/hydrate/scripttest"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"rtch-packet":  func() { os.Exit(Main()) },
		"rtch-hydrate": func() { os.Exit(rtchhydrate.Main()) },
	})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "../../../testdata/script/rtch-packet",
		RequireExplicitExec: true,
		UpdateScripts:       os.Getenv("UPDATE_SCRIPTS") != "",
		Cmds:                scripttest.Cmds(),
		Condition:           scripttest.Condition,
	})
}
