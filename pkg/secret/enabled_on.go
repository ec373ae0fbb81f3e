//go:build !rtch_noredact

package secret

// enabled is false only in a build with the rtch_noredact tag, which exists
// to measure what redaction costs (docs/BENCHMARKS.md); no flag or
// environment variable turns it off, and TestRedactionEnabled fails in such
// a build.
const enabled = true
