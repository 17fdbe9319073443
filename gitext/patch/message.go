package patch

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/git-bernstein/git-bernstein/gitext"
)

// splitMessage is how pretty.c prints a commit for email: the subject is the first paragraph joined with
// spaces (format_subject); the body is what follows, leading blank lines skipped, every line's trailing blanks
// dropped and the whole trailing whitespace trimmed (pp_remainder, strbuf_rtrim).
func splitMessage(msg string) (subject, body string) {
	lines := strings.SplitAfter(msg, "\n")
	trim := func(s string) string { return strings.TrimRight(s, " \t\n\v\f\r") }
	i := 0
	for i < len(lines) && trim(lines[i]) == "" {
		i++
	}
	var title []string
	for ; i < len(lines); i++ {
		t := trim(lines[i])
		if t == "" {
			i++
			break
		}
		title = append(title, t)
	}
	for i < len(lines) && trim(lines[i]) == "" {
		i++
	}
	var rest []string
	for ; i < len(lines); i++ {
		rest = append(rest, trim(lines[i]))
	}
	return strings.Join(title, " "), trim(strings.Join(rest, "\n"))
}

func hasNonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}

// writeMailHeader writes the mbox "From " line, From:, Date:, Subject: and, when the message is not ASCII, the
// MIME headers that tell `git mailinfo` it is UTF-8 — the same bytes `git format-patch` writes.
func writeMailHeader(w *bufio.Writer, c *gitext.Commit, nr, total int) {
	fmt.Fprintf(w, "From %s Mon Sep 17 00:00:00 2001\n", c.Hash)

	var b strings.Builder
	b.WriteString("From: ")
	width := maxHeaderWidth
	name := c.Author.Name
	switch {
	case needsRFC2047(name):
		addRFC2047(&b, name, len("From: "), rfc2047Address)
		width = maxEncodedWidth
	default:
		if strings.IndexFunc(name, func(r rune) bool { return r < 0x80 && isRFC822Special(byte(r)) }) >= 0 {
			name = rfc822Quoted(name)
		}
		addWrapped(&b, name, -len("From: "), 1, width)
	}
	if width < lastLineLen(b.String())+len(" <")+len(c.Author.Email)+len(">") {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, " <%s>\n", c.Author.Email)
	w.WriteString(b.String())

	// RFC 2822 date in the author's own zone, as git's show_date(DATE_RFC2822) prints it.
	fmt.Fprintf(w, "Date: %s\n", c.Author.When.Format("Mon, 2 Jan 2006 15:04:05 -0700"))

	subject, body := splitMessage(c.Message)
	b.Reset()
	if total > 1 {
		fmt.Fprintf(&b, "Subject: [PATCH %0*d/%d] ", len(fmt.Sprint(total)), nr, total)
	} else {
		b.WriteString("Subject: [PATCH] ")
	}
	if needsRFC2047(subject) {
		addRFC2047(&b, subject, b.Len(), rfc2047Subject)
	} else {
		addWrapped(&b, subject, -b.Len(), 1, maxHeaderWidth)
	}
	b.WriteByte('\n')
	w.WriteString(b.String())
	if hasNonASCII(c.Message) {
		fmt.Fprintf(w, "MIME-Version: 1.0\nContent-Type: text/plain; charset=%s\nContent-Transfer-Encoding: 8bit\n", headerCharset)
	}
	w.WriteString("\n")
	if body != "" {
		w.WriteString(body)
		w.WriteString("\n")
	}
}

func lastLineLen(s string) int {
	return len(s) - (strings.LastIndexByte(s, '\n') + 1)
}
