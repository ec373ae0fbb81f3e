//go:build !unix

package protect

import "os"

// On systems without flock, appends are serialised within the process only;
// O_APPEND single writes keep lines whole on the platforms Go supports.
func lockFile(*os.File) error   { return nil }
func unlockFile(*os.File) error { return nil }
