package patch

import (
	"fmt"
	"strings"
)

// mustQuote mirrors git's cq_lookup with core.quotePath at its default (true): control characters, DEL, `"`,
// `\` and every byte of 0x80 and above force C-style quoting. Space does not.
func mustQuote(c byte) bool {
	return c < 0x20 || c == '"' || c == '\\' || c >= 0x7f
}

func needsQuote(s string) bool {
	for i := 0; i < len(s); i++ {
		if mustQuote(s[i]) {
			return true
		}
	}
	return false
}

// quoteBody appends s with git's escapes (quote.c quote_c_style_counted), without the surrounding quotes.
func quoteBody(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !mustQuote(c) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('\\')
		switch c {
		case '\a':
			b.WriteByte('a')
		case '\b':
			b.WriteByte('b')
		case '\t':
			b.WriteByte('t')
		case '\n':
			b.WriteByte('n')
		case '\v':
			b.WriteByte('v')
		case '\f':
			b.WriteByte('f')
		case '\r':
			b.WriteByte('r')
		case '"', '\\':
			b.WriteByte(c)
		default:
			fmt.Fprintf(b, "%03o", c)
		}
	}
}

// quotePath is git's quote_c_style: the name as is when it is plain, else in double quotes with escapes. Used
// for "rename from/to" lines.
func quotePath(name string) string {
	return quoteTwo("", name)
}

// quoteTwo is git's quote_two: prefix and name quoted as one string when either needs it, as in
// `diff --git "a/caf\303\251" "b/caf\303\251"`.
func quoteTwo(prefix, name string) string {
	if !needsQuote(prefix) && !needsQuote(name) {
		return prefix + name
	}
	var b strings.Builder
	b.WriteByte('"')
	quoteBody(&b, prefix)
	quoteBody(&b, name)
	b.WriteByte('"')
	return b.String()
}
