// Package toolset lists every binary of the toolkit as a cli.Tool, for what is
// made of all of them at once: man pages, shell completions, release
// archives, and the tests that check a skill or a page names only flags that
// exist.
package toolset

import (
	"github.com/rtch/rtch/pkg/cli"
	"github.com/rtch/rtch/pkg/cmd/guildbundle"
	"github.com/rtch/rtch/pkg/cmd/guildlint"
	"github.com/rtch/rtch/pkg/cmd/guildrecall"
	"github.com/rtch/rtch/pkg/cmd/rtchask"
	"github.com/rtch/rtch/pkg/cmd/rtchhydrate"
	"github.com/rtch/rtch/pkg/cmd/rtchintake"
	"github.com/rtch/rtch/pkg/cmd/rtchmcp"
	"github.com/rtch/rtch/pkg/cmd/rtchpacket"
	"github.com/rtch/rtch/pkg/cmd/rtchprobe"
	"github.com/rtch/rtch/pkg/cmd/rtchscout"
	"github.com/rtch/rtch/pkg/cmd/rtchzone"
)

// All returns a fresh Tool for every binary under cmd/, in pipeline order:
// the lane's six stages, the three guild tools, the MCP server, then rtch,
// the lane in one command.
func All() []*cli.Tool {
	return []*cli.Tool{
		rtchintake.Tool(),
		rtchzone.Tool(),
		rtchscout.Tool(),
		rtchprobe.Tool(),
		rtchhydrate.Tool(),
		rtchpacket.Tool(),
		guildrecall.Tool(),
		guildbundle.Tool(),
		guildlint.Tool(),
		rtchmcp.Tool(),
		rtchask.Tool(),
	}
}

// Lookup returns a fresh Tool for the binary name, or nil.
func Lookup(name string) *cli.Tool {
	for _, t := range All() {
		if t.Name == name {
			return t
		}
	}
	return nil
}
