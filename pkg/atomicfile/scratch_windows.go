//go:build windows

package atomicfile

import "os"

// Scratch creates a scratch file for name in d, open for reading and
// writing; release closes and removes it (an open file's name cannot go
// here).
func (d *Dir) Scratch(name string) (f *os.File, release func(), err error) {
	f, err = os.CreateTemp(d.name, "."+name+".tmp*")
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close(); os.Remove(f.Name()) }, nil
}
