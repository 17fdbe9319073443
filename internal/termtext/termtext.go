// Package termtext makes text from untrusted sources (commit messages, bundle members, PR payloads) safe to print
// on a terminal: escape sequences in it could otherwise rewrite what the user sees, such as a verdict line.
package termtext

import (
	"strings"
	"unicode"
)

// Clean removes control characters (C0, DEL, C1, and Unicode bidi overrides), keeping tabs as spaces.
func Clean(s string) string { return clean(s, false) }

// CleanText is Clean for multi-line text (a rendered page, a patch): newlines and tabs are kept.
func CleanText(s string) string { return clean(s, true) }

func clean(s string, lines bool) string {
	if printableASCII(s) {
		return s // nearly every line `commits` prints (a line per commit, hundreds of branch names): no copy
	}
	return strings.Map(func(r rune) rune {
		switch {
		case lines && (r == '\n' || r == '\t'):
			return r
		case r == '\t':
			return ' '
		case unicode.IsControl(r), isBidi(r):
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}

// isBidi reports the explicit direction formatting characters used in "Trojan Source" attacks.
func isBidi(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069) || r == 0x200E || r == 0x200F || r == 0x061C
}

// printableASCII says whether s is only printable ASCII (space to '~'), which clean leaves as it is.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}
