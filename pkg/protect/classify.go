package protect

import (
	"path"
	"strings"
)

// Provenance is what Classify may look at: where a chunk came from and what
// its page's frontmatter (or graph node) says about authorship. Never the
// chunk's text.
type Provenance struct {
	// Path is the page path relative to the guild root, "/"-separated
	// (".guild/principles.md", "wiki/standards/go.md").
	Path string
	// Category is the page's kind: context, standard, entity, concept,
	// decision, principles, plan, handoff, graph, harvested, …
	Category string
	// Owner is the frontmatter owner (operator, reviewed, synthesized, a name).
	Owner string
	// Synthesized is true when the frontmatter says synthesized: true.
	Synthesized bool
	// Confidence is the frontmatter confidence (low, medium, high).
	Confidence string
	// SourceRefs is the number of frontmatter source_refs.
	SourceRefs int
	// Reviewed is true when the page is a reviewed standard (decided by the
	// caller from its own review record, never from the page's text).
	Reviewed bool
	// FromGraph is true for chunks rendered from the knowledge graph.
	FromGraph bool
	// Harvested is true for text harvested from outside the wiki (handoffs,
	// external documents, tool output).
	Harvested bool
}

// Classify decides a chunk's trust tier from path and provenance only,
// first match wins (SPEC §10):
//
//  1. .guild/principles.md, wiki/context/project-overview.md,
//     wiki/context/goals.md and reviewed standards (wiki/standards/*.md) →
//     operator, unless the chunk is a decision, harvested or from the graph;
//  2. owner operator or reviewed → trusted;
//  3. owner synthesized, or synthesized: true → untrusted;
//  4. confidence high with at least one source_ref → trusted;
//  5. anything else → untrusted (default deny).
//
// Paths are cleaned first; a path that climbs out of the root ("../") or is
// absolute never matches an operator path. Matching is exact and
// case-sensitive: a look-alike path is not the operator file.
func Classify(p Provenance) Tier {
	clean := cleanRel(p.Path)
	category := strings.ToLower(strings.TrimSpace(p.Category))
	owner := strings.ToLower(strings.TrimSpace(p.Owner))
	excluded := category == "decision" || category == "harvested" || category == "graph" ||
		p.Harvested || p.FromGraph
	if !excluded && clean != "" {
		switch {
		case clean == ".guild/principles.md",
			clean == "wiki/context/project-overview.md",
			clean == "wiki/context/goals.md":
			return TierOperator
		case p.Reviewed && path.Dir(clean) == "wiki/standards" && strings.HasSuffix(clean, ".md"):
			return TierOperator
		}
	}
	switch {
	case owner == "operator" || owner == "reviewed":
		return TierTrusted
	case owner == "synthesized" || p.Synthesized:
		return TierUntrusted
	case strings.EqualFold(strings.TrimSpace(p.Confidence), "high") && p.SourceRefs >= 1:
		return TierTrusted
	}
	return TierUntrusted
}

// cleanRel returns the cleaned relative path, or "" when it is absolute,
// escapes the root, or is not valid as a plain path.
func cleanRel(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	if p == "" || strings.HasPrefix(p, "/") || strings.ContainsRune(p, 0) {
		return ""
	}
	c := path.Clean(p)
	if c == "." || c == ".." || strings.HasPrefix(c, "../") {
		return ""
	}
	return c
}
