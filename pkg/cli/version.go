package cli

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// Release builds set these with -ldflags, e.g.
//
//	go build -ldflags "-X github.com/rtch/rtch/pkg/cli.Version=v1.2.0 -X github.com/rtch/rtch/pkg/cli.BuildTime=2026-12-01T20:00:00Z" ./cmd/...
//
// Each one that is set replaces what the build info says (make release sets
// all three). Left empty, --version reads the build info the go command
// stamped: the module version, vcs.revision, vcs.modified and vcs.time.
var (
	Version   = ""
	Revision  = ""
	BuildTime = ""
)

// BuildInfo is what --version reports.
type BuildInfo struct {
	// Version is the module version (a pseudo-version such as
	// v0.0.0-20261201195512-aeba2a6c1234+dirty for a build from a checkout), or
	// "(devel)" when the go command stamped none.
	Version string
	// Revision is the VCS commit the binary was built from; "" when unknown.
	Revision string
	// Dirty says the work tree had uncommitted changes at build time.
	Dirty bool
	// Time is the commit's time (vcs.time), or the -ldflags BuildTime.
	Time string
	// Go is the toolchain that built the binary.
	Go string
}

// ReadBuildInfo gathers the version from the -ldflags overrides and the build
// info.
func ReadBuildInfo() BuildInfo {
	b := BuildInfo{Version: "(devel)", Go: runtime.Version()}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			b.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				b.Revision = s.Value
			case "vcs.modified":
				b.Dirty = s.Value == "true"
			case "vcs.time":
				b.Time = s.Value
			}
		}
	}
	if Version != "" {
		b.Version = Version
	}
	if Revision != "" {
		b.Revision = Revision
	}
	if BuildTime != "" {
		b.Time = BuildTime
	}
	return b
}

// VersionString is the version printed by --version after the tool's name:
// "v0.0.0-20261201195512-aeba2a6c1234+dirty (revision aeba2a6c1234…, dirty,
// 2026-12-01T19:55:12Z, go1.26.8)". A build without VCS stamping says how to
// get one.
func VersionString() string { return ReadBuildInfo().String() }

func (b BuildInfo) String() string {
	var parts []string
	if b.Revision != "" {
		parts = append(parts, "revision "+b.Revision)
		if b.Dirty {
			parts = append(parts, "dirty")
		} else {
			parts = append(parts, "clean")
		}
	} else {
		parts = append(parts, "no VCS revision stamped (build from a git checkout with -buildvcs=auto, as make build does)")
	}
	if b.Time != "" {
		parts = append(parts, b.Time)
	}
	parts = append(parts, b.Go)
	return b.Version + " (" + strings.Join(parts, ", ") + ")"
}
