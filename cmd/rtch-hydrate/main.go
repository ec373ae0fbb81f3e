// Command rtch-hydrate reads bounded, re-enterable chunks of the ranked surfaces.
package main

import (
	"os"

	"github.com/rtch/rtch/pkg/cmd/rtchhydrate"
)

func main() { os.Exit(rtchhydrate.Main()) }
