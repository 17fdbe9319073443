package patch

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The helpers here port git's pretty.c so that `git mailinfo` (run by `git am`) gives back exactly the name and
// subject git itself would have produced: RFC 2047 Q-encoding (RFC 2047 sections 4.2, 5), RFC 822 quoting of
// specials, and folding at 78 columns.

const (
	maxHeaderWidth  = 78 // pretty.c pp_title_line, pp_user_info
	maxEncodedWidth = 76 // RFC 2047 section 2: an encoded-word line is at most 76 characters
	headerCharset   = "UTF-8"
)

type rfc2047Kind int

const (
	rfc2047Subject rfc2047Kind = iota
	rfc2047Address
)

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func isPrint(c byte) bool { return c >= 0x20 && c < 0x7f }

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// needsRFC2047 is pretty.c needs_rfc2047_encoding.
func needsRFC2047(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 || c == '\n' {
			return true
		}
		if c == '=' && i+1 < len(s) && s[i+1] == '?' {
			return true
		}
	}
	return false
}

// isRFC2047Special is pretty.c is_rfc2047_special: which bytes must be =XX inside an encoded word.
func isRFC2047Special(c byte, kind rfc2047Kind) bool {
	if c >= 0x80 || !isPrint(c) {
		return true
	}
	if isSpace(c) || c == '=' || c == '?' || c == '_' {
		return true
	}
	if kind != rfc2047Address {
		return false
	}
	return !(isAlnum(c) || c == '!' || c == '*' || c == '+' || c == '-' || c == '/')
}

// addRFC2047 is pretty.c add_rfc2047: Q-encoded words, split so that no line passes 76 columns and no UTF-8
// character is cut. lineLen is how many columns the current line already holds.
func addRFC2047(b *strings.Builder, s string, lineLen int, kind rfc2047Kind) {
	open := "=?" + headerCharset + "?q?"
	b.WriteString(open)
	lineLen += len(open)
	for len(s) > 0 {
		_, n := utf8.DecodeRuneInString(s)
		if n < 1 {
			n = 1
		}
		special := n > 1 || isRFC2047Special(s[0], kind)
		encLen := n
		if special {
			encLen = 3 * n
		}
		if lineLen+encLen+2 > maxEncodedWidth {
			b.WriteString("?=\n " + open)
			lineLen = len(open) + 1
		}
		for i := 0; i < n; i++ {
			if special {
				fmt.Fprintf(b, "=%02X", s[i])
			} else {
				b.WriteByte(s[i])
			}
		}
		lineLen += encLen
		s = s[n:]
	}
	b.WriteString("?=")
}

func isRFC822Special(c byte) bool {
	return strings.IndexByte(`()<>[]:;@,."\`, c) >= 0
}

// rfc822Quoted is pretty.c add_rfc822_quoted, applied when the name holds a special.
func rfc822Quoted(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' || s[i] == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	b.WriteByte('"')
	return b.String()
}

// addWrapped is utf8.c strbuf_add_wrapped_text for the ASCII text that reaches it (anything else is RFC 2047
// encoded first). indent1 < 0 means the line already holds -indent1 columns; continuation lines start with
// indent2 spaces. Each fold replaces exactly one blank with "\n" plus the indent, so unfolding restores the
// text.
func addWrapped(b *strings.Builder, text string, indent1, indent2, width int) {
	pos, bol, space := 0, 0, -1
	w, indent := indent1, indent1
	if indent < 0 {
		w = -indent
		space = 0
	}
	for {
		var c byte
		if pos < len(text) {
			c = text[pos]
		}
		if c == 0 || isSpace(c) {
			if w <= width || space < 0 {
				start := bol
				if c == 0 && pos == start {
					return
				}
				if space >= 0 {
					start = space
				} else {
					b.WriteString(strings.Repeat(" ", max(indent, 0)))
				}
				b.WriteString(text[start:pos])
				if c == 0 {
					return
				}
				space = pos
				if c == '\t' {
					w |= 0x07
				} else if c == '\n' {
					space++
					if space < len(text) && text[space] == '\n' {
						b.WriteByte('\n')
						goto newLine
					} else if space >= len(text) || !isAlnum(text[space]) {
						goto newLine
					} else {
						b.WriteByte(' ')
					}
				}
				w++
				pos++
				continue
			}
		newLine:
			b.WriteByte('\n')
			pos = space
			if space < len(text) && isSpace(text[space]) {
				pos++
			}
			bol = pos
			space = -1
			w, indent = indent2, indent2
			continue
		}
		if isPrint(c) {
			w++
		} else {
			w-- // git_wcwidth gives control characters width -1
		}
		pos++
	}
}
