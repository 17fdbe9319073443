package landing

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// How many branches and tags a summary shows before "and N more".
const (
	MaxBranches = 3
	MaxTags     = 4
)

// List is a shortened list: what to show and how many were left out.
type List struct {
	Shown []string
	More  int
}

// String is the list as a person reads it: "a, b and 3 more".
func (l List) String() string {
	s := strings.Join(l.Shown, ", ")
	if l.More > 0 {
		s += " and " + strconv.Itoa(l.More) + " more"
	}
	return s
}

// Branches shortens the branches a commit is on (as `git branch -a --contains` names them: main,
// remotes/origin/main). base is the base branch's full ref name (refs/heads/main, refs/remotes/origin/trunk),
// "" when unknown.
func Branches(names []string, base string) List {
	listed := make(map[string]bool, len(names))
	for _, n := range names {
		listed[n] = true
	}
	var lines []string
	for _, n := range names {
		if local, ok := twinOf(n); ok && listed[local] {
			continue
		}
		lines = append(lines, n)
	}
	forms := baseForms(base)
	// Each name's sort key is worked out once: parsing the version (a regular expression) in the comparison
	// did it for every comparison, a third of a warm `commits` on Kafka (54 commits, some on 70 branches).
	type keyed struct {
		name    string
		base    bool
		v       version
		version bool
	}
	keys := make([]keyed, len(lines))
	for i, n := range lines {
		v, ok := parseVersion(branchTail(n))
		keys[i] = keyed{n, forms[n], v, ok}
	}
	slices.SortStableFunc(keys, func(a, b keyed) int {
		if c := cmpBool(b.base, a.base); c != 0 {
			return c
		}
		if c := cmpBool(b.version, a.version); c != 0 {
			return c
		}
		if a.version {
			if c := a.v.compare(b.v); c != 0 {
				return c
			}
		}
		return strings.Compare(a.name, b.name)
	})
	for i, k := range keys {
		lines[i] = k.name
	}
	return cut(lines, MaxBranches, 0) // a twin left out is the same line, not one more
}

// Tags shortens a commit's first tags to the earliest release of each version line.
func Tags(tags []string) List {
	best := map[string]version{}
	var lines []string
	var other []string
	for _, t := range tags {
		v, ok := parseVersion(t)
		if !ok {
			other = append(other, t)
			continue
		}
		key := v.line()
		if cur, seen := best[key]; !seen {
			lines = append(lines, key)
			best[key] = v
		} else if v.earlierRelease(cur) {
			best[key] = v
		}
	}
	slices.SortFunc(lines, func(a, b string) int { return best[a].compare(best[b]) })
	slices.Sort(other)
	var shown []string
	for _, l := range lines {
		shown = append(shown, best[l].tag)
	}
	shown = append(shown, other...)
	return cut(shown, MaxTags, len(tags)-len(shown))
}

// cut keeps the first max items; hidden counts items already folded away (other tags of a shown line).
func cut(items []string, max, hidden int) List {
	if len(items) > max {
		hidden += len(items) - max
		items = items[:max]
	}
	return List{Shown: items, More: hidden}
}

// twinOf gives the local branch a remote-tracking one mirrors: remotes/origin/main -> main.
func twinOf(n string) (string, bool) {
	rest, ok := strings.CutPrefix(n, "remotes/")
	if !ok {
		return "", false
	}
	_, local, ok := strings.Cut(rest, "/")
	return local, ok && local != ""
}

// baseForms are the names the base branch is listed under: refs/heads/main as main and remotes/<r>/main;
// refs/remotes/origin/trunk as remotes/origin/trunk and its local twin trunk.
func baseForms(ref string) map[string]bool {
	forms := map[string]bool{}
	if s, ok := strings.CutPrefix(ref, "refs/heads/"); ok {
		forms[s] = true
	} else if s, ok := strings.CutPrefix(ref, "refs/remotes/"); ok {
		forms["remotes/"+s] = true
		if _, local, ok := strings.Cut(s, "/"); ok {
			forms[local] = true
		}
	} else if ref != "" {
		forms[ref] = true
	}
	return forms
}

// branchTail is the last part of a branch name, where release lines put their version (release/3.2, 3.2).
func branchTail(n string) string {
	return n[strings.LastIndex(n, "/")+1:]
}

// parseVersion reads a release name: an optional prefix of letters, '_' and '-', an optional 'v',
// MAJOR.MINOR[.PATCH] (1 to 9 digits each), then an optional pre-release: '-' or '.', a name (rc, alpha, beta, a,
// b, pre, preview or m, any case), '.' or '-', up to 9 digits (-rc1, .beta2, -alpha, rc1). It accepts exactly
// what versionPattern in the tests does; it is written out because the regexp's backtracking cost a tenth of a
// warm run on a history with thousands of tags.
func parseVersion(s string) (version, bool) {
	v := version{tag: s}
	i := 0
	for i < len(s) && (isLetter(s[i]) || s[i] == '_' || s[i] == '-') {
		i++
	}
	if i == len(s) || !isDigit(s[i]) {
		return version{}, false
	}
	v.prefix = s[:i]
	if strings.HasSuffix(v.prefix, "v") {
		v.prefix = v.prefix[:i-1] // the shortest prefix: the 'v' is the version's
	}
	var ok bool
	if v.major, i, ok = digits(s, i, 1); !ok || i == len(s) || s[i] != '.' {
		return version{}, false
	}
	if v.minor, i, ok = digits(s, i+1, 1); !ok {
		return version{}, false
	}
	if i+1 < len(s) && s[i] == '.' && isDigit(s[i+1]) {
		if v.patch, i, ok = digits(s, i+1, 1); !ok {
			return version{}, false
		}
	}
	if i == len(s) {
		return v, true
	}
	if s[i] == '-' || s[i] == '.' {
		i++
	}
	j := i
	for j < len(s) && isLetter(s[j]) {
		j++
	}
	name := strings.ToLower(s[i:j])
	switch name {
	case "rc", "alpha", "beta", "a", "b", "pre", "preview", "m":
	default:
		return version{}, false
	}
	v.preName = name
	if j < len(s) && (s[j] == '.' || s[j] == '-') {
		j++
	}
	if v.pre, j, ok = digits(s, j, 0); !ok || j != len(s) {
		return version{}, false
	}
	return v, true
}

// digits reads the run of ASCII digits at s[i:], of at least least and at most 9 digits, and where it ends.
func digits(s string, i, least int) (n, end int, ok bool) {
	end = i
	for end < len(s) && isDigit(s[end]) {
		end++
	}
	if end-i < least || end-i > 9 {
		return 0, end, false
	}
	n, _ = strconv.Atoi(s[i:end])
	return n, end, true
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

type version struct {
	tag                      string
	prefix                   string
	major, minor, patch, pre int
	preName                  string // "" for a final release
}

func (v version) line() string { return v.prefix + strconv.Itoa(v.major) + "." + strconv.Itoa(v.minor) }

// earlierRelease: a final release before any pre-release, then the lower version.
func (v version) earlierRelease(w version) bool {
	if c := cmpBool(v.preName == "", w.preName == ""); c != 0 {
		return c > 0
	}
	return v.compare(w) < 0
}

// compare orders versions as releases follow each other: a pre-release before its final release.
func (v version) compare(w version) int {
	return cmp.Or(strings.Compare(v.prefix, w.prefix), cmp.Compare(v.major, w.major),
		cmp.Compare(v.minor, w.minor), cmp.Compare(v.patch, w.patch),
		cmpBool(v.preName == "", w.preName == ""), strings.Compare(v.preName, w.preName),
		cmp.Compare(v.pre, w.pre), strings.Compare(v.tag, w.tag))
}

// cmpBool orders true after false.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}
