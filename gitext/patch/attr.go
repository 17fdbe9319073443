package patch

import (
	"path"
	"regexp"
	"strings"
)

// The `diff` attribute, the one gitattributes(5) setting a patch depends on: it selects the diff driver (hunk
// function lines, binary or text). Only what attr.c does for that one attribute is here.

type attrState int

const (
	attrUnspecified attrState = iota
	attrSet
	attrUnset
	attrValueText
)

type attrValue struct {
	state attrState
	text  string
}

// attrRule is one line of an attributes file that says something about `diff`.
type attrRule struct {
	match func(rel string) bool // rel: the path relative to the file's folder
	value attrValue
}

// attrFile is the rules of one attributes file, in file order.
type attrFile struct {
	base  string // folder of the file, "" for the top, else "dir/"
	rules []attrRule
}

// attributes answers `git check-attr diff -- PATH` from the same files git reads, highest precedence first:
// $GIT_DIR/info/attributes, then .gitattributes from the path's own folder up to the top, then
// core.attributesFile. read returns a file's content (a worktree or tree file), or false when there is none.
type attributes struct {
	read     func(name string) ([]byte, bool)
	info     *attrFile
	global   *attrFile
	perDir   map[string]*attrFile
	disabled bool
}

func (a *attributes) diff(p string) attrValue {
	if a == nil || a.disabled {
		return attrValue{}
	}
	if a.perDir == nil {
		a.perDir = map[string]*attrFile{}
	}
	files := []*attrFile{a.info}
	dir := path.Dir(p)
	for {
		base := ""
		if dir != "." {
			base = dir + "/"
		}
		f, ok := a.perDir[base]
		if !ok {
			if data, found := a.read(base + ".gitattributes"); found {
				f = parseAttrFile(base, string(data))
			}
			a.perDir[base] = f
		}
		files = append(files, f)
		if dir == "." {
			break
		}
		dir = path.Dir(dir)
	}
	files = append(files, a.global)
	for _, f := range files {
		if f == nil || !strings.HasPrefix(p, f.base) {
			continue
		}
		rel := p[len(f.base):]
		for i := len(f.rules) - 1; i >= 0; i-- { // within a file the last matching line wins
			if f.rules[i].match(rel) {
				return f.rules[i].value
			}
		}
	}
	return attrValue{}
}

// parseAttrFile reads the lines of an attributes file that set, unset, unspecify or give a value to `diff`,
// directly or through the built-in `binary` macro (`-diff -merge -text`).
func parseAttrFile(base, text string) *attrFile {
	f := &attrFile{base: base}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		line = strings.TrimLeft(line, " \t")
		if line == "" || line[0] == '#' || strings.HasPrefix(line, "[attr]") {
			continue
		}
		pattern, rest := line, ""
		if i := strings.IndexAny(line, " \t"); i >= 0 {
			pattern, rest = line[:i], line[i+1:]
		}
		if strings.HasPrefix(pattern, `"`) {
			if uq, ok := unquoteC(line); ok {
				pattern, rest = uq.value, uq.rest
			}
		}
		var val *attrValue
		for _, tok := range strings.Fields(rest) {
			switch {
			case tok == "diff":
				val = &attrValue{state: attrSet}
			case tok == "-diff", tok == "binary":
				val = &attrValue{state: attrUnset}
			case tok == "!diff":
				val = &attrValue{state: attrUnspecified}
			case strings.HasPrefix(tok, "diff="):
				val = &attrValue{state: attrValueText, text: tok[len("diff="):]}
			}
		}
		if val == nil || strings.HasPrefix(pattern, "!") {
			continue // git refuses negative patterns in attributes files
		}
		if m := attrMatcher(pattern); m != nil {
			f.rules = append(f.rules, attrRule{match: m, value: *val})
		}
	}
	return f
}

type unquoted struct{ value, rest string }

// unquoteC reads a C-quoted pattern at the start of line (attr.c parse_attr_line with unquote_c_style).
func unquoteC(line string) (unquoted, bool) {
	var b strings.Builder
	for i := 1; i < len(line); i++ {
		c := line[i]
		switch c {
		case '"':
			return unquoted{b.String(), line[i+1:]}, true
		case '\\':
			if i+1 >= len(line) {
				return unquoted{}, false
			}
			i++
			switch e := line[i]; e {
			case 'a':
				b.WriteByte('\a')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'v':
				b.WriteByte('\v')
			case '0', '1', '2', '3':
				if i+2 >= len(line) {
					return unquoted{}, false
				}
				b.WriteByte((e-'0')<<6 | (line[i+1]-'0')<<3 | (line[i+2] - '0'))
				i += 2
			default:
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
		}
	}
	return unquoted{}, false
}

// attrMatcher is how attr.c matches a pattern: with no "/" but a trailing one it names a basename anywhere
// (fnmatch of the last component); otherwise the whole path relative to the file's folder (wildmatch with
// WM_PATHNAME, a leading "/" only anchoring). A pattern ending in "/" names folders, which never have a `diff`
// attribute of their own.
func attrMatcher(pattern string) func(string) bool {
	if strings.HasSuffix(pattern, "/") {
		return nil
	}
	re, err := regexp.Compile("^" + globToRegexp(strings.TrimPrefix(pattern, "/")) + "$")
	if err != nil {
		return nil
	}
	if !strings.Contains(pattern, "/") {
		return func(rel string) bool { return re.MatchString(path.Base(rel)) }
	}
	return re.MatchString
}

// globToRegexp translates wildmatch syntax with WM_PATHNAME: "*" and "?" stop at "/", "**/" spans folders.
func globToRegexp(g string) string {
	var b strings.Builder
	for i := 0; i < len(g); i++ {
		c := g[i]
		switch {
		case c == '*' && strings.HasPrefix(g[i:], "**/") && (i == 0 || g[i-1] == '/'):
			b.WriteString("(?:.*/)?")
			i += 2
		case c == '*' && strings.HasPrefix(g[i:], "**") && i+2 == len(g) && (i == 0 || g[i-1] == '/'):
			b.WriteString(".*")
			i++
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '[':
			j := i + 1
			if j < len(g) && (g[j] == '!' || g[j] == '^') {
				j++
			}
			if j < len(g) && g[j] == ']' {
				j++
			}
			for j < len(g) && g[j] != ']' {
				j++
			}
			if j >= len(g) {
				b.WriteString(`\[`)
				continue
			}
			class := g[i+1 : j]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i = j
		case c == '\\' && i+1 < len(g):
			i++
			b.WriteString(regexp.QuoteMeta(g[i : i+1]))
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return b.String()
}
