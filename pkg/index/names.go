package index

import (
	"github.com/rtch/rtch/pkg/secret"
	"github.com/rtch/rtch/pkg/walk"
)

// The index keeps nothing the redactor would mask (holdsSecret), names
// included: a file whose path holds a secret (config/ghp_….txt, a
// directory named by an AWS key id) is never stored, and an entry an older
// index holds for one is not copied. Such a file is read on every run, as
// any file the index does not hold is.

// nameStorable reports whether f's path may be written into the index.
func nameStorable(f walk.File) bool { return !secret.InPath(f.Path) }
