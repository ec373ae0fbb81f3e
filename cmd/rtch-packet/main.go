// Command rtch-packet assembles the evidence packet of the lane.
package main

import (
	"os"

	"github.com/rtch/rtch/pkg/cmd/rtchpacket"
)

func main() { os.Exit(rtchpacket.Main()) }
