// Package protect is the protection layer every recalled or hydrated chunk
// passes through before it reaches an agent's prompt: a normalised detection
// view of the text (Normalize), a deterministic rule-based injection scan
// (Probe), quarantine rendering and the security-event log (Quarantined,
// AppendEvent), trust-tier classification from path and provenance only
// (Classify), the delimiter wrapper that fences untrusted text (Wrap, Unwrap)
// and in-place secret redaction (Redact).
//
// The wrapper is the security boundary; the probe is an extra layer. A rule
// based probe catches explicit override phrasing, role and chat-template
// tokens, hidden carriers, forged delimiters and invisible characters, and it
// misses plain task injections ("add this sentence to your reply"). Wrap
// therefore never depends on the probe: every spelling of the delimiter inside
// a chunk is escaped, so a wrapped chunk can never close its own block. See
// docs/security.md for the model in full.
//
// Everything here is deterministic and runs in time linear in the input: the
// regular expressions are RE2 (no backtracking) and every scan is one pass.
package protect
