package apply

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Part is one mail of a `git format-patch --stdout` series: the commit its "From <id> Mon Sep 17 00:00:00 2001"
// line names, and the file sections of its diff, in order.
type Part struct {
	Commit string // hex, as the From line gives it
	Line   int    // 1-based line of the From line in the series, for messages
	// Raw is the part's text, from its From line to the next part's (a slice of the series, not a copy).
	Raw   []byte
	Files []*File
	// Err is set when the part holds anything outside the shape format-patch writes (see ParseSeries): Files
	// then holds the sections before the line at fault.
	Err error
}

// File is one "diff --git" section: what it says of the file before and after, and how the content changes.
type File struct {
	Line             int    // 1-based line of its "diff --git" line in the series
	OldName, NewName string // without the a/ and b/ prefixes; "" for the side that does not exist
	OldMode, NewMode uint32 // 0 when the section does not say
	IsNew, IsDeleted bool
	IsRename, IsCopy bool
	OldID, NewID     string // from the index line (full or abbreviated hex), "" without one
	Fragments        []Fragment
	// Binary is the forward hunk of a `GIT binary patch`; NoBinaryData marks "Binary files … differ", a
	// binary change whose content the patch does not carry.
	Binary       *BinaryHunk
	NoBinaryData bool
	// Reverse is the binary patch's reverse hunk, when it has one: git apply uses it only with -R.
	Reverse *BinaryHunk
}

// Fragment is one text hunk: "@@ -OldStart,OldLines +NewStart,NewLines @@" and its lines. Body is the hunk's
// lines as the series has them (a slice of it, not a copy): each starts with ' ', '-' or '+', and a
// "\ No newline at end of file" line may follow one; they are read when the hunk is applied, so a hunk of
// millions of lines costs no memory of its own.
type Fragment struct {
	OldStart, OldLines, NewStart, NewLines int
	Line                                   int // 1-based line of its "@@" line in the series
	Body                                   []byte
}

// BinaryHunk is "literal N" (the new content) or "delta N" (a delta against the old content): Size bytes once
// Deflated is inflated. Size is what the patch claims: it is checked against the commit before anything is
// inflated (File.Content).
type BinaryHunk struct {
	Delta    bool
	Size     int64
	Deflated []byte
	Line     int // 1-based line of its "literal"/"delta" line in the series
}

var (
	fromLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^From ([0-9a-f]{40}|[0-9a-f]{64}) Mon Sep 17 00:00:00 2001$`)
	})
	hunkHeader = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`) })
	indexLine  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^index ([0-9a-f]+)\.\.([0-9a-f]+)(?: ([0-7]+))?$`) })
)

const noNewline = "\\ No newline at end of file\n"

// cursor walks a series line by line without cutting it up first: a run of 96 MiB of newlines costs nothing
// (a slice header a line would cost 24 times the series).
type cursor struct {
	data []byte
	off  int    // where the current line starts
	n    int    // its 1-based number
	cur  []byte // the current line, found once
}

func newCursor(data []byte) *cursor {
	c := &cursor{data: data, n: 1}
	c.cur = lineAt(data, 0)
	return c
}

func (c *cursor) eof() bool { return c.off >= len(c.data) }

// line is the current line with its "\n" (nil at the end of the series).
func (c *cursor) line() []byte { return c.cur }

// ahead is the k-th line after the current one (nil past the end).
func (c *cursor) ahead(k int) []byte {
	off := c.off
	for ; k > 0 && off < len(c.data); k-- {
		off += len(lineAt(c.data, off))
	}
	return lineAt(c.data, off)
}

// skipBlank moves past empty lines, which git apply skips and which no start or break is: a long run of them
// costs a byte compare each.
func (c *cursor) skipBlank() {
	if c.off < len(c.data) && c.data[c.off] == '\n' {
		for c.off < len(c.data) && c.data[c.off] == '\n' {
			c.off++
			c.n++
		}
		c.cur = lineAt(c.data, c.off)
	}
}

func (c *cursor) next() {
	if !c.eof() {
		c.off += len(c.cur)
		c.n++
		c.cur = lineAt(c.data, c.off)
	}
}

func lineAt(data []byte, off int) []byte {
	if off >= len(data) {
		return nil
	}
	if k := bytes.IndexByte(data[off:], '\n'); k >= 0 {
		return data[off : off+k+1]
	}
	return data[off:]
}

func (c *cursor) atFrom() bool {
	l := c.line()
	return len(l) >= len("From  Mon Sep 17 00:00:00 2001")+40 && bytes.HasPrefix(l, []byte("From ")) && fromLine().Match(trimEOL(l))
}

// ParseSeries splits a format-patch series into its parts and reads each part as `git am` does, holding it to
// the shape format-patch writes. git mailsplit cuts the series at "From " lines; git mailinfo reads the mail
// header (header lines and continuations, up to an empty line or a line that is none) and ends the message
// at its patch break ("---", "--- NAME", "diff -", "Index: "); from there `git apply` reads every line
// (apply.c find_header), taking as a patch each "diff --git" section and each traditional diff ("--- " then
// "+++ " then "@@ -"), wherever it stands; and `git apply` given the whole mail reads its header and message
// that way too. So a part may hold nothing git would apply but its "diff --git" sections, back to back, then
// the signature ("-- ", one line, at most two empty lines): a traditional diff or a hunk anywhere else, text
// between or after sections, a "diff --git" line with no section, a hunk line without "\n", a transfer
// encoding mailinfo would decode — anything outside that shape sets the part's Err, naming its line, and the
// rest of the part is skipped. Text before the first From line is an error: a series made by format-patch
// starts with one. Two sections for one path are not an error here; CheckTrees reports them.
func ParseSeries(series []byte) ([]Part, error) {
	c := newCursor(series)
	for !c.eof() && len(bytes.TrimSpace(c.line())) == 0 {
		c.next()
	}
	if !c.eof() && !c.atFrom() {
		return nil, fmt.Errorf("line %d: a format-patch series starts with \"From <commit> Mon Sep 17 00:00:00 2001\", not %q", c.n, clip(c.line()))
	}
	var parts []Part
	for !c.eof() {
		m := fromLine().FindSubmatch(trimEOL(c.line()))
		p := Part{Commit: string(m[1]), Line: c.n}
		start := c.off
		c.next()
		if err := readPart(c, &p); err != nil {
			p.Err = err
			for !c.eof() && !c.atFrom() {
				c.next()
			}
		}
		p.Raw = series[start:c.off]
		parts = append(parts, p)
	}
	return parts, nil
}

// readPart reads a part after its From line, up to the next From line or the end of the series.
func readPart(c *cursor, p *Part) error {
	// The mail header, as git mailinfo reads it (read_one_header_line): header lines and their continuations,
	// up to an empty line, or up to a line that is no header, which is then the message's first line.
	for first := true; !c.eof() && !c.atFrom(); first = false {
		l := c.line()
		if string(l) == "\n" {
			c.next()
			break
		}
		if !(!first && (l[0] == ' ' || l[0] == '\t')) && !isHeaderLine(l) {
			break
		}
		if err := notGitStart(c, "the mail header"); err != nil {
			return err
		}
		// mailinfo decodes a base64 or quoted-printable body, patch included, and splits a multipart one: git
		// would apply other bytes than the part shows.
		name, value, _ := bytes.Cut(trimEOL(l), []byte(":"))
		value = bytes.ToLower(bytes.TrimSpace(value))
		switch strings.ToLower(string(name)) {
		case "content-transfer-encoding":
			if string(value) != "8bit" && string(value) != "7bit" {
				return fmt.Errorf("line %d: %q: git mailinfo would decode the body, patch included, and apply what it decodes", c.n, clip(l))
			}
		case "content-type":
			if bytes.HasPrefix(value, []byte("multipart/")) || !bytes.HasPrefix(value, []byte("text/plain")) {
				return fmt.Errorf("line %d: %q: format-patch writes a text/plain mail", c.n, clip(l))
			}
		}
		c.next()
	}
	if c.eof() || c.atFrom() {
		return fmt.Errorf("line %d: the part ends in its mail header", c.n)
	}
	// The message, up to git mailinfo's patch break.
	for c.skipBlank(); !c.eof() && !c.atFrom() && !patchBreak(trimEOL(c.line())); c.skipBlank() {
		if err := notGitStart(c, "the message"); err != nil {
			return err
		}
		c.next()
	}
	if c.eof() || c.atFrom() {
		return fmt.Errorf("line %d: the part has no patch (no \"---\" line after its message)", c.n)
	}
	// From the break on, what git apply reads: the diffstat (nothing git takes for a patch), the sections, the
	// signature.
	for c.skipBlank(); !c.eof() && !c.atFrom(); c.skipBlank() {
		l := c.line()
		if bytes.HasPrefix(l, []byte("diff --git ")) {
			f, err := parseFile(c)
			if err != nil {
				return err
			}
			p.Files = append(p.Files, f)
			if c.eof() || c.atFrom() {
				return fmt.Errorf("line %d: the part ends after a section without the signature (\"-- \") format-patch ends it with", c.n)
			}
			if l := c.line(); !bytes.HasPrefix(l, []byte("diff --git ")) && string(l) != "-- \n" {
				return fmt.Errorf("line %d: %q after the section from line %d; format-patch writes the next \"diff --git\" section or the signature \"-- \" here%s",
					c.n, clip(l), f.Line, gitReads(c))
			}
			continue
		}
		if string(l) == "-- \n" && len(p.Files) > 0 {
			return readSignature(c)
		}
		if what := gitStart(c); what != "" {
			return fmt.Errorf("line %d: %s outside the part's \"diff --git\" sections: git apply would read it, format-patch never writes it", c.n, what)
		}
		if mboxFrom(l) {
			return fmt.Errorf("line %d: %q: git mailsplit would start a new mail there, which git am applies on its own", c.n, clip(l))
		}
		c.next()
	}
	return fmt.Errorf("line %d: the part has no \"diff --git\" section", c.n)
}

// readSignature reads "-- ", the one line after it, and at most two empty lines (the part's end, and the line
// WriteSeries puts between parts).
func readSignature(c *cursor) error {
	at := c.n
	c.next()
	sig := trimEOL(c.line())
	if c.eof() || !bytes.HasSuffix(c.line(), []byte("\n")) || len(sig) == 0 || len(sig) > 200 || bytes.HasPrefix(sig, []byte("diff ")) || gitStart(c) != "" {
		return fmt.Errorf("line %d: the signature after \"-- \" (line %d) is one line naming the writer, not %q", c.n, at, clip(c.line()))
	}
	for _, b := range sig {
		if b < 0x20 || b >= 0x7f {
			return fmt.Errorf("line %d: the signature after \"-- \" (line %d) is one line naming the writer, not %q", c.n, at, clip(c.line()))
		}
	}
	c.next()
	for blank := 0; !c.eof() && !c.atFrom(); blank++ {
		if string(c.line()) != "\n" || blank == 2 {
			return fmt.Errorf("line %d: %q after the signature (line %d); format-patch ends the part there%s", c.n, clip(c.line()), at, gitReads(c))
		}
		c.next()
	}
	return nil
}

// isHeaderLine is mailinfo.c is_rfc2822_header: an mbox "From " line, or a field name (RFC 2822 section 3.6.8:
// bytes 33–126 but ':') and a colon.
func isHeaderLine(l []byte) bool {
	if bytes.HasPrefix(l, []byte("From ")) || bytes.HasPrefix(l, []byte(">From ")) {
		return true
	}
	for _, ch := range l {
		switch {
		case ch == ':':
			return true
		case ch >= 33 && ch <= 126:
			continue
		}
		return false
	}
	return false
}

// gitStart is what `git apply` would take the current line for, as apply.c find_header reads a line: the start
// of a "diff --git" section, of a traditional diff ("--- ", "+++ ", "@@ -"), or a hunk with no header (an
// error to git); "" for a line git skips. Lines shorter than 6 bytes are skipped, as git skips them.
func gitStart(c *cursor) string {
	l := c.line()
	switch {
	case len(l) < 6:
		return ""
	case bytes.HasPrefix(l, []byte("@@ -")):
		if hunkHeader().Match(l) {
			return fmt.Sprintf("a hunk (%q)", clip(l))
		}
	case bytes.HasPrefix(l, []byte("diff --git ")):
		return fmt.Sprintf("a \"diff --git\" section (%q)", clip(l))
	case bytes.HasPrefix(l, []byte("diff --cc ")), bytes.HasPrefix(l, []byte("diff --combined ")):
		return fmt.Sprintf("a combined diff (%q)", clip(l))
	case bytes.HasPrefix(l, []byte("--- ")):
		if bytes.HasPrefix(c.ahead(1), []byte("+++ ")) && bytes.HasPrefix(c.ahead(2), []byte("@@ -")) {
			return fmt.Sprintf("a traditional diff (%q, then \"+++ \" and \"@@\")", clip(l))
		}
	}
	return ""
}

// notGitStart is an error when the current line, in the part's header or message, is one `git apply` would
// read as a patch start: given the whole mail (not the patch git mailinfo cuts out of it, as git am does), git
// apply reads every line.
func notGitStart(c *cursor, where string) error {
	if what := gitStart(c); what != "" {
		return fmt.Errorf("line %d: %s in %s: git apply, given the mail, would read it", c.n, what, where)
	}
	if mboxFrom(c.line()) {
		return fmt.Errorf("line %d: %q in %s: git mailsplit would start a new mail there, which git am applies on its own", c.n, clip(c.line()), where)
	}
	return nil
}

// mboxFrom is mailsplit.c is_from_line: a "From " line with something like a time and a year after 1990 at
// its end, where git am's mailsplit cuts a series into mails. Parts start at stricter From lines; another one
// inside a part would make a mail of its own.
func mboxFrom(l []byte) bool {
	if len(l) < 20 || !bytes.HasPrefix(l, []byte("From ")) {
		return false
	}
	colon := len(l) - 2
	for {
		if colon < 5 {
			return false
		}
		colon--
		if l[colon] == ':' {
			break
		}
	}
	digit := func(i int) bool { return i >= 0 && i < len(l) && l[i] >= '0' && l[i] <= '9' }
	if !digit(colon-4) || !digit(colon-2) || !digit(colon-1) || !digit(colon+1) || !digit(colon+2) {
		return false
	}
	i, year := colon+3, 0 // strtol: blanks, then digits
	for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
		i++
	}
	for ; digit(i) && year < 1e6; i++ {
		year = year*10 + int(l[i]-'0')
	}
	return year > 90
}

// gitReads names, for an error, what git apply would make of the current line when it is a patch start.
func gitReads(c *cursor) string {
	if what := gitStart(c); what != "" {
		return ": it is " + what + ", which git apply would apply"
	}
	return ""
}

// patchBreak is mailinfo.c's patchbreak: where a mail's message ends and its patch begins.
func patchBreak(l []byte) bool {
	if bytes.HasPrefix(l, []byte("diff -")) || bytes.HasPrefix(l, []byte("Index: ")) {
		return true
	}
	if !bytes.HasPrefix(l, []byte("---")) {
		return false
	}
	if len(l) > 4 && l[3] == ' ' && !isSpace(l[4]) {
		return true
	}
	return len(bytes.TrimLeft(l[3:], " \t\r\v\f")) == 0
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }

// parseFile reads the section whose "diff --git" line is the current one, in the order and shape git's
// diff.c writes it (each extended header line at most once); the cursor is left on the line after it.
func parseFile(c *cursor) (*File, error) {
	start := c.n
	errorf := func(format string, a ...any) error {
		return fmt.Errorf("line %d (in the section from line %d): %s", c.n, start, fmt.Sprintf(format, a...))
	}
	f := &File{Line: start}
	var err error
	if f.OldName, f.NewName, err = gitHeaderNames(string(trimEOL(c.line()))[len("diff --git "):]); err != nil {
		return nil, errorf("%v", err)
	}
	hdrOld, hdrNew := f.OldName, f.NewName
	if !bytes.HasSuffix(c.line(), []byte("\n")) {
		return nil, errorf("the series ends inside the section")
	}
	c.next()
	seen := map[string]bool{}
	// Extended header lines (git apply's parse_git_diff_header).
header:
	for ; !c.eof(); c.next() {
		raw := c.line()
		if !bytes.HasSuffix(raw, []byte("\n")) {
			return nil, errorf("a line without \"\\n\" at the end of the series")
		}
		l := string(trimEOL(raw))
		key, v := "", ""
		switch {
		case strings.HasPrefix(l, "--- "), strings.HasPrefix(l, "@@ -"), l == "GIT binary patch",
			strings.HasPrefix(l, "Binary files "), strings.HasPrefix(l, "diff --git "), l == "-- ":
			break header
		case cut(l, "old mode ", &v):
			key = "old mode"
			f.OldMode, err = parseMode(v)
		case cut(l, "new mode ", &v):
			key = "new mode"
			f.NewMode, err = parseMode(v)
		case cut(l, "deleted file mode ", &v):
			key = "deleted file mode"
			f.IsDeleted = true
			f.OldMode, err = parseMode(v)
		case cut(l, "new file mode ", &v):
			key = "new file mode"
			f.IsNew = true
			f.NewMode, err = parseMode(v)
		case cut(l, "rename from ", &v), cut(l, "copy from ", &v):
			key = "from"
			f.IsRename, f.IsCopy = strings.HasPrefix(l, "rename"), strings.HasPrefix(l, "copy")
			f.OldName, err = unquoteName(v)
		case cut(l, "rename to ", &v), cut(l, "copy to ", &v):
			key = "to"
			if strings.HasPrefix(l, "rename") != f.IsRename || !seen["from"] {
				return nil, errorf("%q without the matching \"from\" line before it", l)
			}
			f.NewName, err = unquoteName(v)
		case strings.HasPrefix(l, "similarity index "), strings.HasPrefix(l, "dissimilarity index "):
			key = "similarity"
		case strings.HasPrefix(l, "index "):
			key = "index"
			m := indexLine().FindStringSubmatch(l)
			if m == nil {
				return nil, errorf("malformed %q", l)
			}
			f.OldID, f.NewID = m[1], m[2]
			if m[3] != "" {
				mode, err := parseMode(m[3])
				if err != nil {
					return nil, errorf("%v", err)
				}
				if f.OldMode == 0 {
					f.OldMode = mode
				}
				if f.NewMode == 0 {
					f.NewMode = mode
				}
			}
		default:
			return nil, errorf("%q in the section's header: not a line format-patch writes there%s", clip(raw), gitReads(c))
		}
		if err != nil {
			return nil, errorf("%v", err)
		}
		if seen[key] {
			return nil, errorf("a second %q line in one section", key)
		}
		seen[key] = true
	}
	if seen["from"] != seen["to"] || seen["from"] != seen["similarity"] {
		return nil, errorf("a rename or copy without its \"similarity index\", \"from\" and \"to\" lines, all three")
	}
	if seen["old mode"] != seen["new mode"] {
		return nil, errorf("an \"old mode\" or \"new mode\" line without the other (git apply takes no mode change from it)")
	}
	if f.IsNew && f.IsDeleted {
		return nil, errorf("a section that both creates and deletes its file")
	}
	// git takes a file's name from the "diff --git" line only when both its names are the same (apply.c
	// git_header_name), and format-patch writes two different ones only for a rename or copy, whose from/to
	// lines name them.
	if f.IsRename || f.IsCopy {
		if hdrOld != f.OldName || hdrNew != f.NewName {
			return nil, errorf("the \"diff --git\" names (%q, %q) are not the from/to names (%q, %q)", hdrOld, hdrNew, f.OldName, f.NewName)
		}
	} else if hdrOld != hdrNew {
		return nil, errorf("the \"diff --git\" line names two files (%q, %q) in a section that is no rename or copy", hdrOld, hdrNew)
	}
	if f.IsNew {
		f.OldName = ""
	}
	if f.IsDeleted {
		f.NewName = ""
	}
	l := c.line()
	switch {
	case bytes.HasPrefix(l, []byte("--- ")):
		if !bytes.HasPrefix(c.ahead(1), []byte("+++ ")) {
			return nil, errorf("\"--- \" without a \"+++ \" line after it")
		}
		oldName, err1 := fileLineName(string(trimEOL(l))[4:], "a/")
		newName, err2 := fileLineName(string(trimEOL(c.ahead(1)))[4:], "b/")
		if err1 != nil || err2 != nil {
			return nil, errorf("bad file name line: %v", firstErr(err1, err2))
		}
		if (oldName == "") != (f.OldName == "") || (newName == "") != (f.NewName == "") ||
			oldName != "" && oldName != f.OldName || newName != "" && newName != f.NewName {
			return nil, errorf("the ---/+++ names (%q, %q) disagree with the header (%q, %q)", oldName, newName, f.OldName, f.NewName)
		}
		c.next()
		c.next()
		for bytes.HasPrefix(c.line(), []byte("@@ -")) {
			frag, err := parseFragment(c)
			if err != nil {
				return nil, err
			}
			f.Fragments = append(f.Fragments, frag)
		}
		if len(f.Fragments) == 0 {
			return nil, errorf("\"---\"/\"+++\" lines without a hunk")
		}
	case bytes.HasPrefix(l, []byte("Binary files ")):
		f.NoBinaryData = true
		c.next()
	case string(l) == "GIT binary patch\n":
		c.next()
		hunk, err := parseBinaryHunk(c)
		if err != nil {
			return nil, err
		}
		f.Binary = hunk
		// apply.c apply_binary: "cannot apply binary patch to '%s' without full index line".
		if len(f.OldID) < 40 || len(f.NewID) < 40 {
			return nil, errorf("a binary patch without a full index line, which git apply refuses")
		}
		// The reverse hunk, when there is one, is read and not used.
		if l := c.line(); bytes.HasPrefix(l, []byte("literal ")) || bytes.HasPrefix(l, []byte("delta ")) {
			if f.Reverse, err = parseBinaryHunk(c); err != nil {
				return nil, err
			}
		}
	case bytes.HasPrefix(l, []byte("@@ -")):
		return nil, errorf("a hunk without the \"---\"/\"+++\" lines before it")
	default:
		// No content change: a mode change, a rename or copy, an empty new or deleted file; anything else is
		// "patch with only garbage" to git apply (apply.c metadata_changes). git apply skips a "diff --git" line
		// with nothing after it; format-patch never writes one.
		if !f.IsNew && !f.IsDeleted && !f.IsRename && !f.IsCopy && !(seen["old mode"] && f.OldMode != f.NewMode) {
			return nil, errorf("a section with no change: no hunk, no binary patch, no mode change, rename, copy, creation or deletion")
		}
	}
	return f, nil
}

// parseFragment reads the hunk whose "@@" line is the current one, taking exactly as many lines as its header
// counts (apply.c parse_fragment): each ends in "\n", starts with ' ', '-' or '+' (an empty line is an empty
// context line, as git takes it), and may be followed by "\ No newline at end of file". A hunk that changes
// nothing is an error, as it is to git.
func parseFragment(c *cursor) (Fragment, error) {
	at := c.n
	head := c.line()
	m := hunkHeader().FindSubmatch(head)
	if m == nil || !bytes.HasSuffix(head, []byte("\n")) {
		return Fragment{}, fmt.Errorf("line %d: malformed hunk header %q", at, clip(head))
	}
	num := func(b []byte, def int) int {
		if b == nil {
			return def
		}
		n, err := strconv.Atoi(string(b))
		if err != nil || n > 1<<40 {
			return -1
		}
		return n
	}
	fr := Fragment{OldStart: num(m[1], 0), OldLines: num(m[2], 1), NewStart: num(m[3], 0), NewLines: num(m[4], 1), Line: at}
	if fr.OldStart < 0 || fr.OldLines < 0 || fr.NewStart < 0 || fr.NewLines < 0 {
		return Fragment{}, fmt.Errorf("line %d: hunk header numbers out of range: %q", at, clip(head))
	}
	oldLeft, newLeft := fr.OldLines, fr.NewLines
	changes := 0
	c.next()
	bodyStart := c.off
	for oldLeft > 0 || newLeft > 0 {
		l := c.line()
		if c.eof() {
			return Fragment{}, fmt.Errorf("line %d: the hunk from line %d ends early (%d old and %d new lines missing)", c.n, at, oldLeft, newLeft)
		}
		if !bytes.HasSuffix(l, []byte("\n")) {
			return Fragment{}, fmt.Errorf("line %d: a hunk line without \"\\n\" at the end of the series", c.n)
		}
		switch l[0] {
		case ' ', '\n':
			oldLeft--
			newLeft--
		case '-':
			oldLeft--
			changes++
		case '+':
			newLeft--
			changes++
		default:
			return Fragment{}, fmt.Errorf("line %d: %q in a hunk that still needs %d old and %d new lines", c.n, clip(l), max(oldLeft, 0), max(newLeft, 0))
		}
		if oldLeft < 0 || newLeft < 0 {
			return Fragment{}, fmt.Errorf("line %d: the hunk has more lines than its header %q counts", c.n, clip(head))
		}
		c.next()
		if l := c.line(); bytes.HasPrefix(l, []byte("\\")) {
			if string(l) != noNewline {
				return Fragment{}, fmt.Errorf("line %d: %q where format-patch writes %q", c.n, clip(l), strings.TrimSuffix(noNewline, "\n"))
			}
			c.next()
		}
	}
	if changes == 0 {
		return Fragment{}, fmt.Errorf("line %d: a hunk that changes nothing", at)
	}
	fr.Body = c.data[bodyStart:c.off]
	return fr, nil
}

// parseBinaryHunk reads "literal N" or "delta N", its base85 lines and the empty line that ends them (apply.c
// parse_binary_hunk); the data is inflated when it is applied, once N has been held to the commit.
func parseBinaryHunk(c *cursor) (*BinaryHunk, error) {
	if c.eof() {
		return nil, fmt.Errorf("line %d: GIT binary patch without a hunk", c.n)
	}
	head := string(trimEOL(c.line()))
	h := &BinaryHunk{Line: c.n}
	var sizeText string
	switch {
	case cut(head, "literal ", &sizeText):
	case cut(head, "delta ", &sizeText):
		h.Delta = true
	default:
		return nil, fmt.Errorf("line %d: expected \"literal N\" or \"delta N\", got %q", c.n, clip(c.line()))
	}
	size, err := strconv.ParseInt(sizeText, 10, 64)
	if err != nil || size < 0 || strconv.FormatInt(size, 10) != sizeText {
		return nil, fmt.Errorf("line %d: bad binary hunk size in %q", c.n, head)
	}
	at := c.n
	var deflated []byte
	for c.next(); ; c.next() {
		if c.eof() {
			return nil, fmt.Errorf("line %d: binary hunk from line %d without the empty line that ends it", c.n, at)
		}
		if !bytes.HasSuffix(c.line(), []byte("\n")) {
			return nil, fmt.Errorf("line %d: a line without \"\\n\" at the end of the series", c.n)
		}
		l := trimEOL(c.line())
		if len(l) == 0 {
			c.next()
			break
		}
		if deflated, err = decode85Line(deflated, l); err != nil {
			return nil, fmt.Errorf("line %d: %v", c.n, err)
		}
	}
	h.Size, h.Deflated = size, deflated
	return h, nil
}

// gitHeaderNames reads the two names of "diff --git a/X b/Y" (after "diff --git "). Either may be C-quoted;
// unquoted names containing spaces are found as git does for the usual case, two equal names.
func gitHeaderNames(s string) (string, string, error) {
	var a, b string
	var err error
	if strings.HasPrefix(s, `"`) {
		var rest string
		if a, rest, err = unquotePrefix(s); err != nil {
			return "", "", err
		}
		if !strings.HasPrefix(rest, " ") {
			return "", "", fmt.Errorf("bad diff --git line %q", s)
		}
		if b, err = unquoteName(rest[1:]); err != nil {
			return "", "", err
		}
	} else if k := strings.Index(s, ` "`); k >= 0 && strings.HasSuffix(s, `"`) {
		a = s[:k]
		if b, err = unquoteName(s[k+1:]); err != nil {
			return "", "", err
		}
	} else {
		// Unquoted both: the split where both halves name the same file after their prefixes.
		n := len(s)
		if n%2 == 1 && s[n/2] == ' ' && s[2:n/2] == s[n/2+3:] {
			a, b = s[:n/2], s[n/2+1:]
		} else if k := strings.Index(s, " b/"); k >= 0 {
			a, b = s[:k], s[k+1:]
		} else {
			return "", "", fmt.Errorf("bad diff --git line %q", s)
		}
	}
	if !strings.HasPrefix(a, "a/") || !strings.HasPrefix(b, "b/") {
		return "", "", fmt.Errorf("diff --git names without a/ and b/: %q", s)
	}
	return a[2:], b[2:], nil
}

// fileLineName reads the name of a "---" or "+++" line: /dev/null is "", a tab ends the name (git writes one
// after a name with a space), the prefix is removed.
func fileLineName(s, prefix string) (string, error) {
	if s == "/dev/null" {
		return "", nil
	}
	var name string
	var err error
	if strings.HasPrefix(s, `"`) {
		name, _, err = unquotePrefix(s)
		if err != nil {
			return "", err
		}
	} else {
		name, _, _ = strings.Cut(s, "\t")
	}
	if !strings.HasPrefix(name, prefix) {
		return "", fmt.Errorf("%q does not start with %s", s, prefix)
	}
	return name[len(prefix):], nil
}

func parseMode(s string) (uint32, error) {
	m, err := strconv.ParseUint(s, 8, 32)
	if err != nil {
		return 0, fmt.Errorf("bad mode %q", s)
	}
	return uint32(m), nil
}

// unquoteName reads a name that is either plain or wholly C-quoted (git's quote_c_style).
func unquoteName(s string) (string, error) {
	if !strings.HasPrefix(s, `"`) {
		return s, nil
	}
	name, rest, err := unquotePrefix(s)
	if err != nil {
		return "", err
	}
	if rest != "" {
		return "", fmt.Errorf("text after the quoted name %q", s)
	}
	return name, nil
}

// unquotePrefix reads the C-quoted string at the start of s and returns it and what follows it.
func unquotePrefix(s string) (string, string, error) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			return b.String(), s[i+1:], nil
		case c != '\\':
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(s) {
			break
		}
		switch c = s[i]; c {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'v':
			b.WriteByte('\v')
		case 'f':
			b.WriteByte('\f')
		case 'r':
			b.WriteByte('\r')
		case '"', '\\':
			b.WriteByte(c)
		default:
			if c < '0' || c > '3' || i+2 >= len(s) {
				return "", "", fmt.Errorf("bad escape in %q", s)
			}
			v, err := strconv.ParseUint(s[i:i+3], 8, 8)
			if err != nil {
				return "", "", fmt.Errorf("bad escape in %q", s)
			}
			b.WriteByte(byte(v))
			i += 2
		}
	}
	return "", "", fmt.Errorf("unterminated quoted name %q", s)
}

func cut(s, prefix string, rest *string) bool {
	v, ok := strings.CutPrefix(s, prefix)
	if ok {
		*rest = v
	}
	return ok
}

func trimEOL(l []byte) []byte { return bytes.TrimSuffix(l, []byte("\n")) }

func clip(l []byte) string {
	l = trimEOL(l)
	if len(l) > 60 {
		return string(l[:60]) + "…"
	}
	return string(l)
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
