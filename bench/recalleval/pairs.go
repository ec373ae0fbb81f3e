package main

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/rtch/rtch/pkg/wiki"
)

// pair is one question and the page that answers it.
type pair struct {
	// ID is "<repo>#<n>", n counting the source's pairs from 1.
	ID string `json:"id"`
	// Repo and Commit name the documentation tree.
	Repo   string `json:"repo"`
	Commit string `json:"commit"`
	// Split is "tune" or "heldout" (source.heldOut).
	Split string `json:"split"`
	// Rule is "faq" (an entry of an FAQ page) or "question-heading" (a
	// heading that asks a question on any other page).
	Rule string `json:"rule"`
	// From is the wiki page holding the question; it is not counted when
	// ranks are measured.
	From string `json:"from"`
	// Line is the question heading's line in From.
	Line int `json:"line"`
	// Question is the heading text, markup removed.
	Question string `json:"question"`
	// Pages are the gold pages: the pages of the tree the answer links to
	// (not From itself), in the order of their first link.
	Pages []string `json:"pages"`
}

// buildPairs applies the pair rule to every page of a source's tree:
//
//   - On an FAQ page (its file name or title says FAQ or "frequently asked
//     questions"), the entries are the headings of the level that holds
//     the most questions (headings ending in "?"), plus any other heading
//     that is a question.
//   - On any other page, a heading that is a question — it ends in "?" or
//     starts with "how to", "how do", "how does", "how can" — is an entry.
//   - An entry's answer is its text and the text of the headings below it
//     up to the next entry or the next heading of its level or higher.
//   - The gold page is the first link of the answer that resolves to
//     another page of the tree (resolver.resolve); an entry without one
//     gives no pair. A question asked twice in one tree is kept once.
func buildPairs(src source, pages []docPage) []pair {
	rels := make([]string, len(pages))
	for i, p := range pages {
		rels[i] = p.Rel
	}
	res := newResolver(src, rels)
	split := "tune"
	if src.heldOut() {
		split = "heldout"
	}
	var out []pair
	asked := map[string]bool{}
	for _, dp := range pages {
		p, _ := wiki.Parse(wikiPath(dp.Rel), dp.Data)
		faq := isFAQ(dp.Rel, p.Title)
		rule := "question-heading"
		if faq {
			rule = "faq"
		}
		defs := linkDefs(string(dp.Data))
		secs := wiki.SplitHeadings(p.Body, p.BodyLine)
		for _, e := range entries(secs, faq) {
			q := cleanHeading(secs[e.first].Heading)
			key := strings.ToLower(q)
			if len(strings.Fields(q)) < 2 || asked[key] {
				continue
			}
			var gold []string
			for _, l := range links(e.answer, defs) {
				if g := res.resolve(dp.Rel, l.target); g != "" && g != dp.Rel && !isRootIndex(g) && !slices.Contains(gold, wikiPath(g)) {
					gold = append(gold, wikiPath(g))
				}
			}
			if len(gold) == 0 {
				continue
			}
			asked[key] = true
			out = append(out, pair{Repo: src.Repo, Commit: src.Commit, Split: split, Rule: rule,
				From: wikiPath(dp.Rel), Line: secs[e.first].StartLine, Question: q, Pages: gold})
		}
	}
	for i := range out {
		out[i].ID = src.Repo + "#" + strconv.Itoa(i+1)
	}
	return out
}

// isRootIndex reports the index page of the whole tree: a link to it is
// navigation, not an answer.
func isRootIndex(rel string) bool {
	switch rel {
	case "index.md", "_index.md", "README.md", "index.mdx", "_index.mdx":
		return true
	}
	return false
}

// isFAQ reports a page of frequently asked questions by its path or title:
// "faq" or "frequently asked" in either.
func isFAQ(rel, title string) bool {
	return faqWords(strings.ToLower(rel)) || faqWords(strings.ToLower(title))
}

func faqWords(s string) bool {
	return strings.Contains(s, "faq") || strings.Contains(s, "frequently asked")
}

// isFAQHeading reports a heading that opens a section of questions on an
// ordinary page ("FAQ", "Frequently asked questions", "Common questions",
// "Troubleshooting").
func isFAQHeading(h string) bool {
	h = strings.ToLower(cleanHeading(h))
	return faqWords(h) || strings.Contains(h, "common questions")
}

// isQuestion reports a heading that asks a question.
func isQuestion(h string) bool {
	h = strings.ToLower(cleanHeading(h))
	if strings.HasSuffix(h, "?") {
		return true
	}
	for _, p := range []string{"how to ", "how do ", "how does ", "how can "} {
		if strings.HasPrefix(h, p) {
			return true
		}
	}
	return false
}

// entry is a question heading (sections[first]) and its answer text
// without the heading line.
type entry struct {
	first  int
	answer string
}

// entries finds the question entries among a page's sections (the rule of
// buildPairs). An FAQ scope is the whole page when faq is set, else each
// section under an FAQ heading; inside a scope the entries are the
// headings of its entry level (entryLevel) and every question heading;
// outside, only question headings.
func entries(secs []wiki.Section, faq bool) []entry {
	level := make([]int, len(secs)) // the entry level of each section's scope, 0 outside one
	if faq {
		l := entryLevel(secs, 1)
		for i := range level {
			level[i] = l
		}
	} else {
		for i := 0; i < len(secs); i++ {
			if !isFAQHeading(secs[i].Heading) {
				continue
			}
			end := i + 1
			for end < len(secs) && secs[end].Level > secs[i].Level {
				end++
			}
			l := entryLevel(secs[i+1:end], secs[i].Level)
			for j := i + 1; j < end; j++ {
				level[j] = l
			}
			i = end - 1
		}
	}
	isEntry := func(i int) bool {
		s := secs[i]
		return s.Level > 1 && (s.Level == level[i] || isQuestion(s.Heading))
	}
	var out []entry
	for i, s := range secs {
		if !isEntry(i) {
			continue
		}
		var b strings.Builder
		if _, body, ok := strings.Cut(s.Text, "\n"); ok {
			b.WriteString(body)
		}
		for j := i + 1; j < len(secs) && secs[j].Level > s.Level && !isEntry(j); j++ {
			b.WriteString("\n")
			b.WriteString(secs[j].Text)
		}
		out = append(out, entry{first: i, answer: b.String()})
	}
	return out
}

// entryLevel is the heading level of the entries of a scope whose own
// heading has level top: the level holding the most questions (headings
// ending in "?"), ties to the shallower level; 0 when no heading below top
// is a question.
func entryLevel(secs []wiki.Section, top int) int {
	count := map[int]int{}
	for _, s := range secs {
		if s.Level > top && strings.HasSuffix(cleanHeading(s.Heading), "?") {
			count[s.Level]++
		}
	}
	best := 0
	for l := top + 1; l <= 6; l++ {
		if count[l] > count[best] {
			best = l
		}
	}
	return best
}

var (
	reHeadingID = regexp.MustCompile(`\s*\{#[^}]*\}\s*$`)
	reLinkText  = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	reTag       = regexp.MustCompile(`<[^>]+>`)
)

// cleanHeading is a heading's text as a reader sees it: no {#id}, links
// reduced to their text, no HTML tags, code spans and strong emphasis
// unmarked.
func cleanHeading(h string) string {
	h = reHeadingID.ReplaceAllString(h, "")
	h = reLinkText.ReplaceAllString(h, "$1")
	h = reTag.ReplaceAllString(h, "")
	h = strings.NewReplacer("`", "", "**", "", "__", "").Replace(h)
	return strings.Join(strings.Fields(h), " ")
}

// pageListDigest identifies a set of pages and their bytes.
func pageListDigest(pages []docPage) string {
	h := sha256.New()
	for _, p := range pages {
		h.Write([]byte(p.Rel))
		h.Write([]byte{0})
		sum := sha256.Sum256(p.Data)
		h.Write(sum[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}
