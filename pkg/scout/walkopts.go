package scout

import (
	"github.com/rtch/rtch/pkg/config"
	"github.com/rtch/rtch/pkg/walk"
)

// WalkOptions are the walker options of a zone, from its configuration. The
// scout and the probe both take them from here, so they always walk the same
// files.
func WalkOptions(c *config.Config, root string) walk.Options {
	return walk.Options{
		Root:        root,
		MaxFileSize: c.MaxFileSize(),
		Excludes:    c.Walk.Excludes,
		NoIgnore:    c.Walk.NoIgnore,
		Hidden:      c.Walk.Hidden,
	}
}
