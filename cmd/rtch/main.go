// Command rtch asks a question of the tree and prints the brief: rtch ask "…".
package main

import (
	"os"

	"github.com/rtch/rtch/pkg/cmd/rtchask"
)

func main() { os.Exit(rtchask.Main()) }
