// Command guild-bundle assembles context bundles; see pkg/cmd/guildbundle.
package main

import (
	"os"

	"github.com/rtch/rtch/pkg/cmd/guildbundle"
)

func main() { os.Exit(guildbundle.Main()) }
