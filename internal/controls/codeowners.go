package controls

import (
	"bufio"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// CodeOwnersName is the member that holds the CODEOWNERS file at a pull request's base commit, read from git
// (never from the API) by bundle --controls: git/codeowners/<base sha>.json.
func CodeOwnersName(baseSHA string) string { return "git/codeowners/" + baseSHA + ".json" }

// CodeOwnersPaths are where GitHub looks for CODEOWNERS, in the order it looks: the first found is used.
var CodeOwnersPaths = []string{".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS"}

// CodeOwnersDoc is git/codeowners/<sha>.json: {"v":1,"commit":<base sha>,"path":<where it was found, or null>,
// "content":<the file's text, or null when the commit has none>}.
type CodeOwnersDoc struct {
	V       int     `json:"v"`
	Commit  string  `json:"commit"`
	Path    *string `json:"path"`
	Content *string `json:"content"`
}

// codeOwners is a parsed CODEOWNERS: its rules in file order (the last match wins).
type codeOwners struct {
	rules []ownerRule
}

type ownerRule struct {
	line    int
	pattern string
	re      *regexp.Regexp
	owners  []string
}

func parseCodeOwners(text string) *codeOwners {
	co := &codeOwners{}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.Index(line, " #"); i >= 0 {
			line = line[:i]
		}
		fields := strings.Fields(line)
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		re, err := ownerPattern(fields[0])
		if err != nil {
			continue // GitHub skips a line it cannot read
		}
		co.rules = append(co.rules, ownerRule{line: n, pattern: fields[0], re: re, owners: fields[1:]})
	}
	return co
}

// ownerPattern turns a CODEOWNERS pattern (gitignore syntax, as GitHub documents it, without "!" and "[ ]")
// into a regular expression over slash-separated paths.
func ownerPattern(p string) (*regexp.Regexp, error) {
	anchored := strings.HasPrefix(p, "/") || strings.Contains(strings.TrimSuffix(p, "/"), "/")
	dir := strings.HasSuffix(p, "/")
	p = strings.Trim(p, "/")
	var b strings.Builder
	if anchored {
		b.WriteString("^")
	} else {
		b.WriteString("^(?:.*/)?")
	}
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '*' && i+1 < len(p) && p[i+1] == '*':
			b.WriteString(".*")
			i++
			if i+1 < len(p) && p[i+1] == '/' {
				b.WriteString("/?")
				i++
			}
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	last := p[strings.LastIndex(p, "/")+1:]
	switch {
	case dir:
		b.WriteString("/.*$")
	case strings.Contains(last, "*") && last != "**":
		// GitHub: docs/* owns docs/getting-started.md but not docs/build-app/troubleshooting.md.
		b.WriteString("$")
	default:
		b.WriteString("(?:/.*)?$")
	}
	return regexp.Compile(b.String())
}

// ownersOf is the last rule matching path; nil when none does (the path has no owner).
func (co *codeOwners) ownersOf(path string) *ownerRule {
	var last *ownerRule
	for i := range co.rules {
		if co.rules[i].re.MatchString(path) {
			last = &co.rules[i]
		}
	}
	return last
}

// codeOwnersAt reads git/codeowners/<sha>.json: the parsed file (nil when the commit has none), its path, or
// why it is not known.
func (a *audit) codeOwnersAt(sha string) (*codeOwners, string, string) {
	name := CodeOwnersName(sha)
	data, ok := a.in.Members[name]
	if !ok {
		return nil, "", fmt.Sprintf("CODEOWNERS at the base commit %s was not captured (%s; bundle --controls reads it from git when the clone has that commit)", short(sha), name)
	}
	var d CodeOwnersDoc
	if err := json.Unmarshal(data, &d); err != nil || d.V != 1 || d.Commit != sha {
		return nil, "", name + " does not read as a CODEOWNERS record of " + short(sha)
	}
	if d.Content == nil || d.Path == nil {
		return nil, "", ""
	}
	return parseCodeOwners(*d.Content), *d.Path, ""
}

// patchPaths reads git/diff.patch: for each commit part ("From <sha> …"), the paths its "diff --git" lines
// name (the new side).
func patchPaths(patch []byte) map[string][]string {
	out := map[string][]string{}
	cur := ""
	sc := bufio.NewScanner(strings.NewReader(string(patch)))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "From "); ok && len(rest) >= 40 && isHexString(rest[:40]) && strings.HasSuffix(rest, "Mon Sep 17 00:00:00 2001") {
			cur = rest[:40]
			continue
		}
		if rest, ok := strings.CutPrefix(line, "diff --git "); ok && cur != "" {
			if p := newSide(rest); p != "" {
				out[cur] = append(out[cur], p)
			}
		}
	}
	return out
}

// newSide is the b/ path of "a/x b/x", either side possibly C-quoted.
func newSide(s string) string {
	if strings.HasSuffix(s, `"`) {
		if i := strings.LastIndex(s[:len(s)-1], ` "`); i >= 0 {
			if q, err := strconv.Unquote(s[i+1:]); err == nil {
				return strings.TrimPrefix(q, "b/")
			}
		}
		return ""
	}
	if i := strings.LastIndex(s, " b/"); i >= 0 {
		return s[i+3:]
	}
	return ""
}

func isHexString(s string) bool {
	for _, r := range s {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') {
			return false
		}
	}
	return s != ""
}
