package pipeline

import (
	"maps"
	"os"

	"github.com/rtch/rtch/pkg/cmd/rtchhydrate"
	"github.com/rtch/rtch/pkg/cmd/rtchintake"
	"github.com/rtch/rtch/pkg/cmd/rtchpacket"
	"github.com/rtch/rtch/pkg/cmd/rtchprobe"
	"github.com/rtch/rtch/pkg/cmd/rtchscout"
	"github.com/rtch/rtch/pkg/cmd/rtchzone"
)

// Programs is the lane's six binaries, and the tools in more, each as the
// main of a process that exits with the tool's status: the map a test gives
// testscript.Main so that its scripts pipe the real binaries.
func Programs(more map[string]func() int) map[string]func() {
	mains := map[string]func() int{
		"rtch-intake":  rtchintake.Main,
		"rtch-zone":    rtchzone.Main,
		"rtch-scout":   rtchscout.Main,
		"rtch-probe":   rtchprobe.Main,
		"rtch-hydrate": rtchhydrate.Main,
		"rtch-packet":  rtchpacket.Main,
	}
	maps.Copy(mains, more)
	progs := make(map[string]func(), len(mains))
	for name, main := range mains {
		progs[name] = func() { os.Exit(main()) }
	}
	return progs
}
