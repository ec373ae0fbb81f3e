// Package hydrate is stage 6 of the rtch pipeline: it turns the ranked surfaces
// of rtch-probe into bounded, re-enterable chunks (SPEC §8). It owns the chunking
// rules (windows around target lines, merging, the whole-file rule, the per-probe
// cap and the token budget filled in rank order), the protection of chunk text
// (the injection probe's flags and in-place secret redaction, with the chunk's
// sha256 kept over the original bytes), re-entry (reading PATH:L<s>-L<e> again,
// byte for byte) and rehydration (re-reading every chunk of a persisted packet
// and saying what changed).
//
// Lines are counted the way sed counts them: a line ends at "\n" (a "\r" before
// it belongs to the line's bytes and is dropped from the chunk text only), so
// `sed -n 's,ep' PATH` prints exactly the bytes a chunk's sha256 is over.
//
// The files follow the steps of one run: hydrate.go (the options and the run),
// surfaces.go (which surfaces, in what order), anchors.go (a surface's target
// lines), windows.go (the windows around them), functions.go, callees.go and
// bodies.go (reads by definition), fill.go (spending the budget in rank
// order), chunk.go (a step read into chunks), deepen.go (what budget is left),
// skips.go (what was not read), reserve.go (the brief's frame) and
// commands.go (re-entry and sed commands); reenter.go and rehydrate.go read
// chunks again.
package hydrate
