package pipelinetest

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/rtch/rtch/pkg/hydrate/scripttest"
	"github.com/rtch/rtch/pkg/pipeline"
)

func TestMain(m *testing.M) {
	testscript.Main(m, pipeline.Programs(nil))
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
