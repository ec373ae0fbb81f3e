package fts

import (
	"slices"
	"strconv"

	"github.com/rtch/rtch/pkg/secret"
	"github.com/rtch/rtch/pkg/wiki"
)

// A wiki index keeps no page path that holds a secret (wiki/ghp_….md, a
// directory named by an AWS key id), as the tree index keeps none: such a
// page is stored, searched and recalled under its path redacted
// (secret.Path), the spelling every output gives it and rtch-hydrate
// resolves. Its title, when taken from the file name, is redacted where
// the page is parsed (pkg/wiki). The listing digests are SHA-256 sums, from
// which no name can be read.

// Names maps each listed page whose path holds a secret to the name it is
// stored under; every other page is stored under its own path.
type Names map[string]string

// Of is the name the page at path p is stored under.
func (n Names) Of(p string) string {
	if s, ok := n[p]; ok {
		return s
	}
	return p
}

// StoredNames gives the listed pages whose paths hold a secret their
// stored names: the redacted path, or, when that is taken (two pages
// redact alike, or a page is named by the redacted spelling), the redacted
// path with the first free " (2)", " (3)", … after it. The pages without
// a secret keep their paths, so the names are distinct and depend only on
// the listing.
func StoredNames(files []wiki.File) Names {
	var names Names
	for _, f := range files {
		if secret.InPath(f.Path) {
			if names == nil {
				names = Names{}
			}
			names[f.Path] = ""
		}
	}
	if names == nil {
		return nil
	}
	taken := make(map[string]bool, len(files))
	for _, f := range files {
		if _, ok := names[f.Path]; !ok {
			taken[f.Path] = true
		}
	}
	for _, f := range files {
		if _, ok := names[f.Path]; !ok {
			continue
		}
		r := secret.Path(f.Path)
		s := r
		for n := 2; taken[s]; n++ {
			s = r + " (" + strconv.Itoa(n) + ")"
		}
		taken[s] = true
		names[f.Path] = s
	}
	return names
}

// StoredDiags are the diagnostics of the page at path as stored: under its
// stored name.
func StoredDiags(ds []wiki.Diagnostic, path, name string) []wiki.Diagnostic {
	if path == name {
		return ds
	}
	out := make([]wiki.Diagnostic, len(ds))
	for i, d := range ds {
		if d.Path == path {
			d.Path = name
		}
		out[i] = d
	}
	return out
}

// StoredMeta is the metadata an index keeps of a page: the targets of its
// supersedes field, which name pages, as those pages are stored; of a page
// whose sensitivity is secret, neither its title nor its aliases.
func StoredMeta(p *wiki.Page) PageMeta {
	m := PageMeta{Category: p.Category, Title: p.Title, Front: p.Front, HasFront: p.HasFront}
	m.Front.Supersedes = storedTargets(p.Front.Supersedes)
	if p.Withheld() {
		m.Title, m.Front.Title, m.Front.Aliases = "", "", nil
	}
	return m
}

// StoredSections are the sections an index keeps of a page: none of a
// page whose sensitivity is secret (wiki.Page.Withheld). Recall never
// returns it, so an index keeps only the row that says it is there and
// why it is left out: the PostgreSQL index is a server others can read,
// the SQLite one a file beside the wiki.
func StoredSections(p *wiki.Page) []wiki.Section {
	if p.Withheld() {
		return nil
	}
	return p.Sections
}

// storedTargets are supersedes targets (paths or slugs) with every secret
// they hold masked, as StoredNames masks a page's path.
func storedTargets(ts []string) []string {
	var out []string
	for i, t := range ts {
		if s := secret.Path(t); s != t {
			if out == nil {
				out = slices.Clone(ts)
			}
			out[i] = s
		}
	}
	if out == nil {
		return ts
	}
	return out
}
