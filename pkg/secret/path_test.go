package secret

import (
	"strings"
	"testing"
)

// TestPathValuesAreNotSecrets: a file path after a secret's name (a brief's
// "auth: pkg/cmd/root/alias.go") is not redacted, while a key of the same
// form with digits and capitals still is.
func TestPathValuesAreNotSecrets(t *testing.T) {
	for _, s := range []string{"auth: pkg/cmd/root/alias.go", "token.go, pkg/cmd/root/alias.go", "key = internal/auth/session_store.py"} {
		if got := String(s); got != s {
			t.Errorf("%q redacted as %q", s, got)
		}
	}
	for _, s := range []string{"auth: q8zk3mxplr9tw2vb7nc4hd1j.go", "token = Q8Zk/3mXpLr9Tw2Vb7Nc4Hd1J.json"} {
		if got := String(s); !strings.Contains(got, "REDACTED") {
			t.Errorf("%q not redacted", s)
		}
	}
}

// TestPathMasksEverySecretInPath: Path leaves a path without a secret as it
// is and leaves none that InPath finds, also in a directory's name.
func TestPathMasksEverySecretInPath(t *testing.T) {
	if p := "wiki/concepts/retry-policy.md"; Path(p) != p {
		t.Errorf("%q became %q", p, Path(p))
	}
	for _, p := range []string{"wiki/ghp_0123456789abcdefghijABCDEFGHIJ012345.md", "deploy/AKIAQ2WERTY7UIOPASDF/quota.md", "AKIAQ2WERTY7UIOPASDF"} {
		got := Path(p)
		if InPath(got) || !strings.Contains(got, "[REDACTED:") {
			t.Errorf("%q became %q", p, got)
		}
	}
}
