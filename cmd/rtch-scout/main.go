// Command rtch-scout scouts the zone's shape and builds the candidate basket.
package main

import (
	"os"

	"github.com/rtch/rtch/pkg/cmd/rtchscout"
)

func main() { os.Exit(rtchscout.Main()) }
