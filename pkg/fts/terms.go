package fts

import (
	"github.com/rtch/rtch/pkg/bm25"
	"github.com/rtch/rtch/pkg/wiki"
)

// PageName is what names a page: its title and its frontmatter aliases.
type PageName struct {
	Title   string
	Aliases []string
}

// NameOf is a page's name.
func NameOf(p *wiki.Page) PageName { return PageName{Title: p.Title, Aliases: p.Front.Aliases} }

// Name is the stored page's name.
func (m PageMeta) Name() PageName { return PageName{Title: m.Title, Aliases: m.Front.Aliases} }

// EachSectionTerm calls yield with the terms a section is indexed under, in
// order: its page's title and aliases, its heading path (" > "-joined) and
// its text, each by bm25.EachTerm (no compound spans two parts). Every wiki
// mechanism — in-memory BM25, fs-scan, the SQLite index, the postgres index
// — counts exactly these terms, for documents and, through bm25.Terms, for
// queries. Each term of the heading path counts twice (a section is about
// what its headings name), the title, aliases and text once
// (docs/decisions/guild-recall-terms.md).
func EachSectionTerm(name PageName, heading, text string, yield func(string)) {
	bm25.EachTerm(name.Title, yield)
	for _, a := range name.Aliases {
		bm25.EachTerm(a, yield)
	}
	bm25.EachTerm(heading, func(t string) { yield(t); yield(t) })
	bm25.EachTerm(text, yield)
}
