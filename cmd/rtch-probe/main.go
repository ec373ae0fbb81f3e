// Command rtch-probe plans and executes the typed probes and ranks the surfaces.
package main

import (
	"os"

	"github.com/rtch/rtch/pkg/cmd/rtchprobe"
)

func main() { os.Exit(rtchprobe.Main()) }
