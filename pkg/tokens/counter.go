package tokens

// Counter counts the tokens of a text. Every stage that spends or states a
// budget takes one, so the number it writes and the number it checks come
// from the same rule.
type Counter struct {
	// Name is the rule's name as the brief states it: "chars4" for
	// ceil(code points / 4), else the exact vocabulary ("o200k", "cl100k").
	Name string
	// Count returns the token count of s.
	Count func(s string) int
}

// Chars4 is the default counter, Estimate.
var Chars4 = Counter{Name: "chars4", Count: Estimate}

// Describe is the counter's rule as a reader sees it in a brief's header.
func (c Counter) Describe() string {
	if c.Name == "" || c.Name == Chars4.Name {
		return "ceil(chars/4)"
	}
	return c.Name + " tokenizer"
}

// Of returns the count of s, by Estimate when the counter is the zero value.
func (c Counter) Of(s string) int {
	if c.Count == nil {
		return Estimate(s)
	}
	return c.Count(s)
}
