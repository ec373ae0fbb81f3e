// Command rtch-mcp serves the toolkit over the Model Context Protocol; see
// pkg/cmd/rtchmcp.
package main

import (
	"os"

	"github.com/rtch/rtch/pkg/cmd/rtchmcp"
)

func main() { os.Exit(rtchmcp.Main()) }
