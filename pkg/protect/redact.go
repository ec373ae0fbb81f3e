package protect

import "github.com/rtch/rtch/pkg/secret"

// Redact replaces secrets in text with "[REDACTED:<rule>]" and returns the
// rules that fired, sorted and distinct. It is secret.Redact, kept here so
// protection reads as one package to its callers; see package secret for
// the rules.
func Redact(text string) (string, []string) { return secret.Redact(text) }
