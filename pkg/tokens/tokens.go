// Package tokens holds the toolkit's one token estimator: ceil(code points / 4).
package tokens

import "unicode/utf8"

// Estimate returns ceil(utf8.RuneCountInString(s) / 4), the estimate every budget
// in rtch and guild uses (packet, bundle, lint).
func Estimate(s string) int {
	return (utf8.RuneCountInString(s) + 3) / 4
}
