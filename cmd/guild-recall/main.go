// Command guild-recall recalls protected wiki and knowledge-graph chunks.
package main

import (
	"os"

	"github.com/rtch/rtch/pkg/cmd/guildrecall"
)

func main() { os.Exit(guildrecall.Main()) }
