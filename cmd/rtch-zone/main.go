// Command rtch-zone orients the lane and runs the effective-record gate.
package main

import (
	"os"

	"github.com/rtch/rtch/pkg/cmd/rtchzone"
)

func main() { os.Exit(rtchzone.Main()) }
