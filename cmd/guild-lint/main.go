// Command guild-lint lints context bundles; see pkg/cmd/guildlint.
package main

import (
	"os"

	"github.com/rtch/rtch/pkg/cmd/guildlint"
)

func main() { os.Exit(guildlint.Main()) }
