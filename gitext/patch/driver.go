package patch

import (
	"regexp"
	"strings"
)

// funcFinder finds the function line a hunk header shows (xemit.c def_ff when regs is nil, else
// xdiff-interface.c ff_regexp with a driver's funcname expressions).
type funcFinder struct {
	regs []ffReg
}

type ffReg struct {
	re     *regexp.Regexp
	negate bool
}

// find reports the function text of line, or false when the line is not a function line.
func (f funcFinder) find(line string) (string, bool) {
	if f.regs == nil {
		if line == "" || !isFuncStart(line[0]) {
			return "", false
		}
		return trimSpaceRight(line[:min(len(line), funcLineMax)]), true
	}
	// ff_regexp leaves out the line's "\n" (or "\r\n") before matching.
	if strings.HasSuffix(line, "\n") {
		line = line[:len(line)-1]
		line = strings.TrimSuffix(line, "\r")
	}
	for _, r := range f.regs {
		m := r.re.FindStringSubmatchIndex(line)
		if m == nil {
			continue
		}
		if r.negate {
			return "", false
		}
		s, e := m[0], m[1]
		if len(m) >= 4 && m[2] >= 0 {
			s, e = m[2], m[3]
		}
		text := line[s:e]
		return trimSpaceRight(text[:min(len(text), funcLineMax)]), true
	}
	return "", false
}

func isFuncStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$'
}

func trimSpaceRight(s string) string {
	for len(s) > 0 && isSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

// compileFuncname turns a funcname value (expressions one a line, "!" negating one) into a finder. Go's POSIX
// mode gives the leftmost-longest match regcomp(REG_EXTENDED) gives; an expression Go cannot compile leaves the
// driver without a funcname, where git would stop with an error.
func compileFuncname(pattern string, icase bool) (funcFinder, bool) {
	var f funcFinder
	for _, expr := range strings.Split(pattern, "\n") {
		neg := strings.HasPrefix(expr, "!")
		if neg {
			expr = expr[1:]
		}
		if icase {
			expr = "(?i)" + expr
		}
		re, err := regexp.CompilePOSIX(expr)
		if err != nil {
			return funcFinder{}, false
		}
		f.regs = append(f.regs, ffReg{re: re, negate: neg})
	}
	return f, true
}

// driver is what a file's `diff` attribute selects (userdiff.c userdiff_find_by_path): the function-line
// finder, and whether the content is binary (1), text (0) or sniffed (-1).
type driver struct {
	ff     funcFinder
	binary int
}

var defaultDriver = driver{binary: -1}

// drivers resolves `diff` attribute values to drivers: `diff` set means text, `-diff` (and the `binary`
// macro) binary, a name the driver of that name from `diff.<name>.xfuncname` / `diff.<name>.binary` in the
// config, else git's built-in one, else the default.
type drivers struct {
	config func(name, key string) (string, bool)
	cache  map[string]driver
}

func (d *drivers) lookup(value attrValue) driver {
	switch value.state {
	case attrSet:
		return driver{binary: 0}
	case attrUnset:
		return driver{binary: 1}
	case attrUnspecified:
		return defaultDriver
	}
	name := value.text
	if drv, ok := d.cache[name]; ok {
		return drv
	}
	drv, found := driver{binary: -1}, false
	for _, b := range builtinDrivers {
		if b.name == name {
			drv.ff, _ = compileFuncname(b.pattern, b.icase)
			found = true
			break
		}
	}
	if d.config != nil {
		if v, ok := d.config(name, "xfuncname"); ok {
			drv.ff, _ = compileFuncname(v, false)
			found = true
		} else if v, ok := d.config(name, "funcname"); ok {
			drv.ff, _ = compileFuncname(basicToExtended(v), false)
			found = true
		}
		if v, ok := d.config(name, "binary"); ok {
			found = true
			switch strings.ToLower(v) {
			case "auto":
				drv.binary = -1
			case "true", "yes", "on", "1", "":
				drv.binary = 1
			default:
				drv.binary = 0
			}
		}
	}
	if !found {
		drv = defaultDriver // an unknown driver name falls back to "default" (diff_filespec_load_driver)
	}
	if d.cache == nil {
		d.cache = map[string]driver{}
	}
	d.cache[name] = drv
	return drv
}

// basicToExtended rewrites a POSIX basic expression (`diff.<driver>.funcname`) as an extended one: in a BRE
// `\(`, `\)`, `\{`, `\}`, `\|`, `\+` and `\?` are the operators and the bare characters are literals.
func basicToExtended(bre string) string {
	var b strings.Builder
	for i := 0; i < len(bre); i++ {
		c := bre[i]
		switch {
		case c == '\\' && i+1 < len(bre) && strings.IndexByte("(){}|+?", bre[i+1]) >= 0:
			b.WriteByte(bre[i+1])
			i++
		case strings.IndexByte("(){}|+?", c) >= 0:
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
