package secret

import (
	"math"
	"strings"
)

// placeholderRE recognises documentation placeholders and template
// references, which are not secrets.
var placeholderRE = lazy(`(?i)^(?:\$|\{|<|%|\[|\*)|\$\{|\{\{|xxxx|\*\*\*|\.\.\.|example|changeme|change_me|your[_-]|my[_-]?(?:password|secret|token)|placeholder|dummy|redacted|^(?:pass(?:word)?|passwd|pwd|secret|token|test|user|username|admin|root|foo|bar|none|null|nil|true|false|empty|required|optional|string|str|bool|int|env)$`)

func notPlaceholder(s string) bool { return !placeholderRE().MatchString(s) }

// netrcPassword is a .netrc password that is no placeholder, judged by its
// part before a closing bracket or quote: in "[login u password p](url)"
// the text after p is markup, and may well say "example".
func netrcPassword(s string) bool {
	if i := strings.IndexAny(s, ")]}>\"'`"); i > 0 {
		s = s[:i]
	}
	return notPlaceholder(s)
}

// codeRefRE is a value that reads as code, not as a literal: a dotted
// selector (cfg.Password), a call, an environment reference, a hexadecimal
// constant (the flag constants of generated syscall tables:
// FS_IOC_FSGETXATTR_PASS = 0x2).
var codeRefRE = lazy(`^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$|^[a-z][a-z0-9]*(?:_[a-z0-9]+)*_?(?:password|passwd|pwd|pass)$|^0[xX][0-9a-fA-F]+$`)

// plainPassword accepts any non-placeholder value given to a password key,
// low entropy included (password: hunter2), unless it reads as code.
func plainPassword(s string) bool {
	return notPlaceholder(s) && !codeRefRE().MatchString(s)
}

// shapedPassword is plainPassword for a value the text around it does not
// mark as one: it holds a digit or a symbol other than the separators of
// names (_ - : .), and is no path.
func shapedPassword(s string) bool {
	if !plainPassword(s) || strings.HasPrefix(s, "/") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' || !(c|0x20 >= 'a' && c|0x20 <= 'z') && !strings.ContainsRune("_-:.", rune(c)) {
			return true
		}
	}
	return false
}

// quotedSecret accepts a quoted literal that looks random: at least 8
// characters, letters and digits both, Shannon entropy ≥ 3 bits per char.
func quotedSecret(s string) bool {
	return notPlaceholder(s) && hasLetterAndDigit(s) && entropy(s) >= 3.0
}

// bareSecret is stricter (an unquoted value is more often an identifier): at
// least 16 characters, letters and digits, entropy ≥ 3.5, and not a dotted or
// path-like name.
func bareSecret(s string) bool {
	if strings.Count(s, ".") > 1 || strings.HasPrefix(s, "/") {
		return false
	}
	return notPlaceholder(s) && hasLetterAndDigit(s) && entropy(s) >= 3.5
}

func hasLetterAndDigit(s string) bool {
	l, d := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			d = true
		case (c|0x20) >= 'a' && (c|0x20) <= 'z':
			l = true
		}
	}
	return l && d
}

// entropy is the Shannon entropy of s in bits per byte.
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	h := 0.0
	n := float64(len(s))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}
