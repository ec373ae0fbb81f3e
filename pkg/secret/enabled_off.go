//go:build rtch_noredact

package secret

// enabled is false in this build: the rtch_noredact tag builds binaries
// without redaction, for the cost measurement only (see enabled_on.go).
const enabled = false
