//go:build linux

package walk

import "testing"

// TestWithoutOpenat2 repeats the hostile-tree and changed-file checks with
// openat2 taken for missing, as on a kernel before 5.6 or under a seccomp
// filter: the walker must read through its fallback (O_NOFOLLOW on the
// last component) and report every case as it does with openat2.
func TestWithoutOpenat2(t *testing.T) {
	if !openat2Available() {
		t.Skip("openat2 is missing here already: every test runs the fallback")
	}
	noOpenat2.Store(true)
	defer noOpenat2.Store(false)
	b := openBeneath(t.TempDir())
	if b.fd >= 0 {
		b.close()
		t.Fatal("openBeneath kept using openat2 after it was found missing")
	}
	t.Run("hostile tree", TestHostileTree)
	t.Run("files changed between listing and reading", TestToctou)
}
