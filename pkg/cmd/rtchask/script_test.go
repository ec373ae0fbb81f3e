package rtchask

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/rtch/rtch/pkg/pipeline"
)

// rtch and the lane's six binaries are programs of the test binary, so a
// script runs rtch ask and the pipe it stands for as real processes.
func TestMain(m *testing.M) {
	testscript.Main(m, pipeline.Programs(map[string]func() int{
		"rtch": Main,
	}))
}

// The scripts run in a copy of testdata/fixtures/sample, $WORK/sample.
func TestScripts(t *testing.T) {
	sample, err := filepath.Abs("../../../testdata/fixtures/sample")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "../../../testdata/script/rtch",
		RequireExplicitExec: true,
		UpdateScripts:       os.Getenv("UPDATE_SCRIPTS") != "",
		Setup: func(env *testscript.Env) error {
			return exec.Command("cp", "-r", sample, filepath.Join(env.WorkDir, "sample")).Run()
		},
	})
}
