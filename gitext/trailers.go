package gitext

import "strings"

// This file reproduces the trailer parsing of `git interpret-trailers --parse` as of git 2.39 (trailer.c and
// ignore_non_trailer in commit.c), byte for byte, because the ticket matcher must see exactly the trailers git
// shows. The conformance corpus in testdata/trailers and FuzzParseTrailers hold it to git's output. Character
// classes are git's own (sane_ctype): only ASCII letters and digits are alphanumeric and only space, \t, \n and
// \r are whitespace, so non-ASCII bytes and \v or \f never count as either.

// Trailer is one key/value of a message's trailer block; continuation lines are unfolded into Value as git --parse does.
type Trailer struct{ Key, Value string }

// TrailerOptions mirrors the git config that changes parsing. The zero value is git's defaults.
type TrailerOptions struct {
	Separators string   // trailer.separators; "" means ":"
	Configured []string // keys configured with trailer.<name>.key (count like git-generated ones for the 25% rule)
}

// commentChar is core.commentChar's default. git skips comment lines inside and after the trailer block.
const commentChar = '#'

// gitGeneratedPrefixes are the lines git itself writes (commit -s, cherry-pick -x). One of them lets a block
// that is only 25% trailers count as a trailer block. They are matched case-sensitively, space included.
var gitGeneratedPrefixes = []string{"Signed-off-by: ", "(cherry picked from commit "}

// cutLine is the scissors line of `git commit -v`; everything from it on is not part of the message.
const cutLine = "# ------------------------ >8 ------------------------\n"

// trailerConf is one configured trailer.<name>.key. Configured keys are modelled as trailer.<key>.key=<key>,
// so name and key are the same string.
type trailerConf struct{ name, key string }

type trailerParser struct {
	separators string
	conf       []trailerConf
}

// ParseTrailers returns the trailers of message's trailer block, in order, with keys as written except that a
// key matching a configured one is replaced by it, as git does. Lines of the block that are not trailers are
// left out. Like `git interpret-trailers`, a line starting with "---" and a whitespace character ends the
// message (the rest is taken for a patch), and so does the `git commit -v` scissors line. Input after a NUL
// byte is ignored, as git's C string handling ignores it.
func ParseTrailers(message string, opts TrailerOptions) []Trailer {
	if i := strings.IndexByte(message, 0); i >= 0 {
		message = message[:i]
	}
	p := newTrailerParser(opts)
	end := logMessageEnd(message)
	start := p.blockStart(message[:end])
	var out []Trailer
	for _, tr := range p.blockEntries(message[start:end]) {
		if tr[0] == commentChar {
			continue
		}
		sep := p.findSeparator(tr)
		if sep < 1 {
			continue
		}
		key, value := p.split(tr, sep)
		out = append(out, Trailer{Key: key, Value: unfold(value)})
	}
	return out
}

func newTrailerParser(opts TrailerOptions) *trailerParser {
	p := &trailerParser{separators: opts.Separators}
	if p.separators == "" {
		p.separators = ":"
	}
	// git keeps one entry per name (compared case-insensitively) in first-seen order; a later value of the
	// same name's key replaces the earlier one.
next:
	for _, k := range opts.Configured {
		if k == "" {
			continue
		}
		for i := range p.conf {
			if strings.EqualFold(p.conf[i].name, k) {
				p.conf[i].key = k
				continue next
			}
		}
		p.conf = append(p.conf, trailerConf{name: k, key: k})
	}
	return p
}

// logMessageEnd is where the log message proper ends: before a patch part ("---" divider), and before the
// trailing comments, blank lines, old "Conflicts:" block or scissors part that git ignores.
func logMessageEnd(msg string) int {
	end := patchStart(msg)
	return end - ignoredTail(msg, end)
}

// patchStart is the offset of the first line that is "---" followed by whitespace, or len(msg).
func patchStart(msg string) int {
	for s := 0; s < len(msg); s = nextLine(msg, s) {
		if strings.HasPrefix(msg[s:], "---") && s+3 < len(msg) && isSpace(msg[s+3]) {
			return s
		}
	}
	return len(msg)
}

// ignoredTail is how many bytes at the end of msg[:end] are not part of the log message (commit.c's
// ignore_non_trailer): a final run of comment and empty lines, possibly holding a "Conflicts:" block with its
// tab-indented paths, and anything from the scissors line on. Only lines that are exactly "\n" count as empty.
func ignoredTail(msg string, end int) int {
	cutoff := scissorsAt(msg, end)
	boc, inConflicts := 0, false
	for bol := 0; bol < cutoff; {
		next := end
		if i := strings.IndexByte(msg[bol:end], '\n'); i >= 0 {
			next = bol + i + 1
		}
		switch {
		case msg[bol] == commentChar || msg[bol] == '\n':
			// git records the run's start in a variable where 0 also means "no run yet", so a run that
			// starts on the first line only begins at its second line. Kept for identical results.
			if boc == 0 {
				boc = bol
			}
		case strings.HasPrefix(msg[bol:], "Conflicts:\n"):
			inConflicts = true
			if boc == 0 {
				boc = bol
			}
		case inConflicts && msg[bol] == '\t':
		case boc != 0:
			boc, inConflicts = 0, false
		}
		bol = next
	}
	if boc != 0 {
		return end - boc
	}
	return end - cutoff
}

// scissorsAt is the offset of the scissors line, or end when there is none before end. git searches the whole
// input and, when the scissors come after a "---" divider, loops forever (2.39.5); we ignore them instead.
func scissorsAt(msg string, end int) int {
	if strings.HasPrefix(msg, cutLine) {
		return 0
	}
	if i := strings.Index(msg, "\n"+cutLine); i >= 0 && i+1 <= end {
		return i + 1
	}
	return end
}

// blockStart finds the trailer block at the end of buf (trailer.c's find_trailer_start): the last paragraph
// after the title paragraph, when it is all trailers (continuation lines aside), or at least 25% trailers
// including a git-generated or configured one. It returns len(buf) when there is no block.
func (p *trailerParser) blockStart(buf string) int {
	// The first paragraph is the title and never holds trailers; comment lines do not end it.
	endOfTitle := 0
	for endOfTitle < len(buf) {
		if buf[endOfTitle] != commentChar && isBlankLine(buf[endOfTitle:]) {
			break
		}
		endOfTitle = nextLine(buf, endOfTitle)
	}

	onlySpaces := true
	recognized := false
	trailerLines, nonTrailerLines := 0, 0
	// Indented lines count as continuations of the trailer above them, or as non-trailers when the line
	// above is not a trailer; which one is known only once that line is reached.
	possibleContinuations := 0
	for l := lastLine(buf, len(buf)); l >= endOfTitle; l = lastLine(buf, l) {
		line := buf[l:]
		if line[0] == commentChar {
			nonTrailerLines += possibleContinuations
			possibleContinuations = 0
			continue
		}
		if isBlankLine(line) {
			if onlySpaces {
				continue
			}
			nonTrailerLines += possibleContinuations
			if recognized && trailerLines*3 >= nonTrailerLines {
				return nextLine(buf, l)
			}
			if trailerLines > 0 && nonTrailerLines == 0 {
				return nextLine(buf, l)
			}
			return len(buf)
		}
		onlySpaces = false

		if hasAnyPrefix(line, gitGeneratedPrefixes) {
			trailerLines++
			possibleContinuations = 0
			recognized = true
			continue
		}
		sep := p.findSeparator(line)
		switch {
		case sep >= 1 && !isSpace(line[0]):
			trailerLines++
			possibleContinuations = 0
			if !recognized && p.matchesConf(line, sep) {
				recognized = true
			}
		case isSpace(line[0]):
			possibleContinuations++
		default:
			nonTrailerLines += 1 + possibleContinuations
			possibleContinuations = 0
		}
	}
	return len(buf)
}

// blockEntries splits the block into entries: each line that does not start with whitespace, followed by the
// indented lines after it when it is a trailer (trailer.c's trailer_info_get). Lines keep their "\n".
func (p *trailerParser) blockEntries(block string) []string {
	var out []string
	last := -1
	for s := 0; s < len(block); {
		e := nextLine(block, s)
		line := block[s:e]
		s = e
		if last >= 0 && isSpace(line[0]) {
			out[last] += line
			continue
		}
		out = append(out, line)
		last = -1
		if p.findSeparator(line) >= 1 {
			last = len(out) - 1
		}
	}
	return out
}

// findSeparator returns the offset of the separator in a line of the form "<token><optional
// whitespace><separator>…" or "<separator>…", or -1. A token is letters, digits and '-'; the whitespace before
// the separator lets "Bug #42" work with '#' as a separator.
func (p *trailerParser) findSeparator(line string) int {
	whitespace := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		if strings.IndexByte(p.separators, c) >= 0 {
			return i
		}
		if !whitespace && (isAlnum(c) || c == '-') {
			continue
		}
		if i != 0 && (c == ' ' || c == '\t') {
			whitespace = true
			continue
		}
		break
	}
	return -1
}

// split cuts an entry at its separator into a trimmed key and value. A key that names a configured trailer
// (any case-insensitive prefix of its name or key, ignoring the key's final punctuation) becomes that
// trailer's key, as git prints it.
func (p *trailerParser) split(entry string, sep int) (key, value string) {
	key = trimSpace(entry[:sep])
	value = trimSpace(entry[sep+1:])
	n := len(key)
	for n > 0 && !isAlnum(key[n-1]) {
		n--
	}
	for _, c := range p.conf {
		if prefixFold(key, c.name, n) || prefixFold(key, c.key, n) {
			return c.key, value
		}
	}
	return key, value
}

// matchesConf reports whether a line's text before its separator names a configured trailer, which makes a
// 25% block count the way a Signed-off-by does.
func (p *trailerParser) matchesConf(line string, sep int) bool {
	for _, c := range p.conf {
		if prefixFold(line, c.name, sep) || prefixFold(line, c.key, sep) {
			return true
		}
	}
	return false
}

// unfold joins continuation lines with one space each, as --unfold does.
func unfold(v string) string {
	if strings.IndexByte(v, '\n') < 0 {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); {
		c := v[i]
		i++
		if c != '\n' {
			b.WriteByte(c)
			continue
		}
		for i < len(v) && isSpace(v[i]) {
			i++
		}
		b.WriteByte(' ')
	}
	return trimSpace(b.String())
}

// prefixFold is C's strncasecmp(a, b, n) == 0 on NUL-terminated strings: the first n bytes agree ignoring
// ASCII case, where a string that ends early only agrees with one that ends at the same place.
func prefixFold(a, b string, n int) bool {
	for i := 0; i < n; i++ {
		var ca, cb byte
		if i < len(a) {
			ca = a[i]
		}
		if i < len(b) {
			cb = b[i]
		}
		if lower(ca) != lower(cb) {
			return false
		}
		if ca == 0 {
			return true
		}
	}
	return true
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// nextLine is the offset just past the line starting at s.
func nextLine(buf string, s int) int {
	if i := strings.IndexByte(buf[s:], '\n'); i >= 0 {
		return s + i + 1
	}
	return len(buf)
}

// lastLine is the start of the last line of buf[:n] (a final "\n" belongs to that line), or -1 when n is 0.
func lastLine(buf string, n int) int {
	if n == 0 {
		return -1
	}
	for i := n - 2; i >= 0; i-- {
		if buf[i] == '\n' {
			return i + 1
		}
	}
	return 0
}

// isBlankLine reports whether the line starting s is whitespace up to its "\n" or the end.
func isBlankLine(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return true
		}
		if !isSpace(s[i]) {
			return false
		}
	}
	return true
}

func trimSpace(s string) string {
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
