// Command rtch-intake states the lane's contract as an rtch.intake record.
package main

import (
	"os"

	"github.com/rtch/rtch/pkg/cmd/rtchintake"
)

func main() { os.Exit(rtchintake.Main()) }
