//go:build !unix

package main

import "errors"

// measureStores maps the flat file with mmap, which this tool only does on
// Unix systems.
func measureStores(dir string, post map[string][]int, keys []string, terms []string) error {
	return errors.New("-store needs mmap: run it on a Unix system")
}
