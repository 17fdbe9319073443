package apply

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Part is one mail of a `git format-patch --stdout` series: the commit its "From <id> Mon Sep 17 00:00:00 2001"
// line names, and the file sections of its diff, in order.
type Part struct {
	Commit string // hex, as the From line gives it
	Line   int    // 1-based line of the From line in the series, for messages
	Files  []*File
	// Err is set when the part's diff cannot be read: Files then holds the sections before the one at fault.
	Err error
}

// File is one "diff --git" section: what it says of the file before and after, and how the content changes.
type File struct {
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
}

// Fragment is one text hunk: "@@ -OldStart,OldLines +NewStart,NewLines @@" and its lines.
type Fragment struct {
	OldStart, OldLines, NewStart, NewLines int
	Lines                                  []Line
}

// Line is one line of a hunk: Op is ' ', '-' or '+'; Text is the line with its "\n", or without it when a
// "\ No newline at end of file" line follows.
type Line struct {
	Op   byte
	Text []byte
}

// BinaryHunk is "literal N" (the new content) or "delta N" (a delta against the old content): Size bytes once
// Deflated is inflated.
type BinaryHunk struct {
	Delta    bool
	Size     int64
	Deflated []byte
}

var (
	fromLine   = regexp.MustCompile(`^From ([0-9a-f]{40}|[0-9a-f]{64}) Mon Sep 17 00:00:00 2001$`)
	hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)
	indexLine  = regexp.MustCompile(`^index ([0-9a-f]+)\.\.([0-9a-f]+)(?: ([0-7]+))?$`)
)

// ParseSeries splits a format-patch series into its parts and parses each part's diff. A part's message ends
// where git mailinfo's does (a "---" line, "--- NAME", "diff -" or "Index: "); from there every "diff --git"
// section is read, as `git apply` reads a mail. A section that cannot be read sets the part's Err and the rest
// of the part is skipped. Text before the first From line is an error: a series made by format-patch starts
// with one.
func ParseSeries(series []byte) ([]Part, error) {
	lines := splitLines(series)
	var parts []Part
	i := 0
	for i < len(lines) {
		m := fromLine.FindSubmatch(trimEOL(lines[i]))
		if m == nil {
			if len(parts) == 0 {
				if len(bytes.TrimSpace(lines[i])) == 0 {
					i++
					continue
				}
				return nil, fmt.Errorf("line %d: a format-patch series starts with \"From <commit> Mon Sep 17 00:00:00 2001\", not %q", i+1, clip(lines[i]))
			}
			return nil, fmt.Errorf("line %d: unexpected %q", i+1, clip(lines[i]))
		}
		p := Part{Commit: string(m[1]), Line: i + 1}
		i++
		// The message: mail headers and body, up to git mailinfo's patch break.
		for i < len(lines) && !patchBreak(trimEOL(lines[i])) {
			i++
		}
		// The diffstat and summary, then the file sections; a From line starts the next part.
		for i < len(lines) {
			l := trimEOL(lines[i])
			if fromLine.Match(l) {
				break
			}
			if !bytes.HasPrefix(l, []byte("diff --git ")) {
				i++
				continue
			}
			f, next, err := parseFile(lines, i)
			if err != nil {
				p.Err = err
				for i++; i < len(lines) && !fromLine.Match(trimEOL(lines[i])); i++ {
				}
				break
			}
			p.Files = append(p.Files, f)
			i = next
		}
		parts = append(parts, p)
	}
	return parts, nil
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

// parseFile reads the section whose "diff --git" line is lines[i]; it returns the index of the line after it.
func parseFile(lines [][]byte, i int) (*File, int, error) {
	start := i + 1
	errorf := func(format string, a ...any) error {
		return fmt.Errorf("line %d (in the section from line %d): %s", i+1, start, fmt.Sprintf(format, a...))
	}
	f := &File{}
	var err error
	if f.OldName, f.NewName, err = gitHeaderNames(string(trimEOL(lines[i]))[len("diff --git "):]); err != nil {
		return nil, 0, errorf("%v", err)
	}
	i++
	// Extended header lines (git apply's parse_git_diff_header).
header:
	for ; i < len(lines); i++ {
		l := string(trimEOL(lines[i]))
		var v string
		var ok bool
		switch {
		case strings.HasPrefix(l, "--- "), strings.HasPrefix(l, "@@ "), strings.HasPrefix(l, "GIT binary patch"),
			strings.HasPrefix(l, "Binary files "), strings.HasPrefix(l, "diff --git "):
			break header
		case cut(l, "old mode ", &v):
			f.OldMode, err = parseMode(v)
		case cut(l, "new mode ", &v):
			f.NewMode, err = parseMode(v)
		case cut(l, "deleted file mode ", &v):
			f.IsDeleted = true
			f.OldMode, err = parseMode(v)
		case cut(l, "new file mode ", &v):
			f.IsNew = true
			f.NewMode, err = parseMode(v)
		case cut(l, "rename from ", &v), cut(l, "copy from ", &v):
			f.IsRename, f.IsCopy = strings.HasPrefix(l, "rename"), strings.HasPrefix(l, "copy")
			f.OldName, err = unquoteName(v)
		case cut(l, "rename to ", &v), cut(l, "copy to ", &v):
			f.NewName, err = unquoteName(v)
		case strings.HasPrefix(l, "similarity index "), strings.HasPrefix(l, "dissimilarity index "):
		case strings.HasPrefix(l, "index "):
			m := indexLine.FindStringSubmatch(l)
			if m == nil {
				return nil, 0, errorf("malformed %q", l)
			}
			f.OldID, f.NewID = m[1], m[2]
			if m[3] != "" {
				mode, err := parseMode(m[3])
				if err != nil {
					return nil, 0, errorf("%v", err)
				}
				if f.OldMode == 0 {
					f.OldMode = mode
				}
				if f.NewMode == 0 {
					f.NewMode = mode
				}
			}
		default:
			// Anything else ends the header: a section with no content change (a mode change, an exact rename,
			// an empty new file).
			ok = true
		}
		if err != nil {
			return nil, 0, errorf("%v", err)
		}
		if ok {
			break
		}
	}
	if f.IsNew {
		f.OldName = ""
	}
	if f.IsDeleted {
		f.NewName = ""
	}
	if i < len(lines) && bytes.HasPrefix(lines[i], []byte("--- ")) {
		if i+1 >= len(lines) || !bytes.HasPrefix(lines[i+1], []byte("+++ ")) {
			return nil, 0, errorf("\"--- \" without a \"+++ \" line after it")
		}
		oldName, err1 := fileLineName(string(trimEOL(lines[i]))[4:], "a/")
		newName, err2 := fileLineName(string(trimEOL(lines[i+1]))[4:], "b/")
		if err1 != nil || err2 != nil {
			return nil, 0, errorf("bad file name line: %v", firstErr(err1, err2))
		}
		if (oldName == "") != (f.OldName == "") || (newName == "") != (f.NewName == "") ||
			oldName != "" && oldName != f.OldName || newName != "" && newName != f.NewName {
			return nil, 0, errorf("the ---/+++ names (%q, %q) disagree with the header (%q, %q)", oldName, newName, f.OldName, f.NewName)
		}
		i += 2
		for i < len(lines) && bytes.HasPrefix(lines[i], []byte("@@ ")) {
			frag, next, err := parseFragment(lines, i)
			if err != nil {
				return nil, 0, err
			}
			f.Fragments = append(f.Fragments, frag)
			i = next
		}
		if len(f.Fragments) == 0 {
			return nil, 0, errorf("\"---\"/\"+++\" lines without a hunk")
		}
		return f, i, nil
	}
	if i < len(lines) && bytes.HasPrefix(lines[i], []byte("Binary files ")) {
		f.NoBinaryData = true
		return f, i + 1, nil
	}
	if i < len(lines) && string(trimEOL(lines[i])) == "GIT binary patch" {
		hunk, next, err := parseBinaryHunk(lines, i+1)
		if err != nil {
			return nil, 0, err
		}
		f.Binary = hunk
		i = next
		// The reverse hunk, when there is one, is read and not used.
		if i < len(lines) && (bytes.HasPrefix(lines[i], []byte("literal ")) || bytes.HasPrefix(lines[i], []byte("delta "))) {
			if _, i, err = parseBinaryHunk(lines, i); err != nil {
				return nil, 0, err
			}
		}
		return f, i, nil
	}
	return f, i, nil
}

// parseFragment reads the hunk whose "@@" line is lines[i], taking exactly as many lines as its header counts.
func parseFragment(lines [][]byte, i int) (Fragment, int, error) {
	at := i + 1
	m := hunkHeader.FindSubmatch(lines[i])
	if m == nil {
		return Fragment{}, 0, fmt.Errorf("line %d: malformed hunk header %q", at, clip(lines[i]))
	}
	num := func(b []byte, def int) int {
		if b == nil {
			return def
		}
		n, err := strconv.Atoi(string(b))
		if err != nil {
			return -1
		}
		return n
	}
	fr := Fragment{OldStart: num(m[1], 0), OldLines: num(m[2], 1), NewStart: num(m[3], 0), NewLines: num(m[4], 1)}
	if fr.OldStart < 0 || fr.OldLines < 0 || fr.NewStart < 0 || fr.NewLines < 0 {
		return Fragment{}, 0, fmt.Errorf("line %d: hunk header numbers out of range: %q", at, clip(lines[i]))
	}
	oldLeft, newLeft := fr.OldLines, fr.NewLines
	i++
	for oldLeft > 0 || newLeft > 0 {
		if i >= len(lines) {
			return Fragment{}, 0, fmt.Errorf("line %d: the hunk ends early (%d old and %d new lines missing)", at, oldLeft, newLeft)
		}
		l := lines[i]
		op := byte(' ')
		text := l
		if len(l) > 0 {
			op, text = l[0], l[1:]
		}
		if len(l) == 0 || l[0] == '\n' {
			op, text = ' ', []byte("\n") // an empty context line whose space a mailer dropped, as git apply takes it
		}
		switch op {
		case ' ':
			oldLeft--
			newLeft--
		case '-':
			oldLeft--
		case '+':
			newLeft--
		default:
			return Fragment{}, 0, fmt.Errorf("line %d: %q in a hunk that still needs %d old and %d new lines", i+1, clip(l), max(oldLeft, 0), max(newLeft, 0))
		}
		if oldLeft < 0 || newLeft < 0 {
			return Fragment{}, 0, fmt.Errorf("line %d: the hunk has more lines than its header %q counts", i+1, clip(lines[at-1]))
		}
		fr.Lines = append(fr.Lines, Line{Op: op, Text: text})
		i++
		if i < len(lines) && bytes.HasPrefix(lines[i], []byte("\\ ")) {
			t := fr.Lines[len(fr.Lines)-1].Text
			fr.Lines[len(fr.Lines)-1].Text = bytes.TrimSuffix(t, []byte("\n"))
			i++
		}
	}
	// A "\ No newline" line may follow the last line once counts are met.
	return fr, i, nil
}

// parseBinaryHunk reads "literal N" or "delta N", its base85 lines and the empty line that ends them (apply.c
// parse_binary_hunk); the data is inflated when it is applied.
func parseBinaryHunk(lines [][]byte, i int) (*BinaryHunk, int, error) {
	if i >= len(lines) {
		return nil, 0, fmt.Errorf("line %d: GIT binary patch without a hunk", i)
	}
	head := string(trimEOL(lines[i]))
	h := &BinaryHunk{}
	var sizeText string
	switch {
	case cut(head, "literal ", &sizeText):
	case cut(head, "delta ", &sizeText):
		h.Delta = true
	default:
		return nil, 0, fmt.Errorf("line %d: expected \"literal N\" or \"delta N\", got %q", i+1, clip(lines[i]))
	}
	size, err := strconv.ParseInt(sizeText, 10, 64)
	if err != nil || size < 0 {
		return nil, 0, fmt.Errorf("line %d: bad binary hunk size in %q", i+1, head)
	}
	at := i + 1
	var deflated []byte
	for i++; ; i++ {
		if i >= len(lines) {
			return nil, 0, fmt.Errorf("line %d: binary hunk without the empty line that ends it", at)
		}
		l := trimEOL(lines[i])
		if len(l) == 0 {
			i++
			break
		}
		if deflated, err = decode85Line(deflated, l); err != nil {
			return nil, 0, fmt.Errorf("line %d: %v", i+1, err)
		}
	}
	h.Size, h.Deflated = size, deflated
	return h, i, nil
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

// splitLines cuts b after each "\n"; the last line may lack one.
func splitLines(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		k := bytes.IndexByte(b, '\n')
		if k < 0 {
			out = append(out, b)
			break
		}
		out = append(out, b[:k+1])
		b = b[k+1:]
	}
	return out
}

func trimEOL(l []byte) []byte { return bytes.TrimSuffix(l, []byte("\n")) }

func clip(l []byte) string {
	l = trimEOL(l)
	if len(l) > 60 {
		return string(l[:60]) + "…"
	}
	return string(l)
}

func short(hex string) string {
	if len(hex) > 12 {
		return hex[:12]
	}
	return hex
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
