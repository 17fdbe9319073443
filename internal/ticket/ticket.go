// Package ticket says whether a piece of text names a tracker ticket.
//
// Upstream Bernstein matched ticket ids as substrings, so ENG-42 also picked up ENG-420's commits and files and
// leaked another ticket's evidence into the bundle. We match the id as a token instead: the id, compared
// case-insensitively, with no letter, digit or underscore directly before or after it.
package ticket

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Ticket is a tracker-scoped ticket id.
type Ticket struct {
	Tracker string
	// ID is the id as the user gave it, without a GitHub "#" prefix.
	ID string
	// numeric is set for GitHub issue numbers, which are named by #N, owner/repo#N and URLs ending in /N.
	numeric bool
	// repo is "owner/name" of this repository, when known: owner/repo#N and issue URLs count only for it.
	repo string
}

// InRepo scopes a GitHub number to this repository ("owner/name", from the remote or bernstein.githubRepo):
// owner/repo#N and github.com/owner/repo/issues/N then count only when they name it (keybase/client#11366 is not
// this repository's 11366). Plain #N always counts. A ticket whose repository is unknown (no GitHub remote, no
// bernstein.githubRepo) cannot tell another repository's references from its own, and counts them all.
func (t Ticket) InRepo(ownerName string) Ticket {
	t.repo = ownerName
	return t
}

// Parse checks a ticket id from the command line. An empty id, or one with whitespace or control characters, is
// refused: it could never be matched as a token and would tie unrelated history to the ticket.
func Parse(tracker, id string) (Ticket, error) {
	if id == "" {
		return Ticket{}, fmt.Errorf("ticket id is empty: give one such as ENG-42")
	}
	if !utf8.ValidString(id) {
		return Ticket{}, fmt.Errorf("ticket id %q is not valid UTF-8", id)
	}
	for _, r := range id {
		if unicode.IsSpace(r) {
			return Ticket{}, fmt.Errorf("ticket id %q contains whitespace: give a single id such as ENG-42", id)
		}
		if unicode.IsControl(r) {
			return Ticket{}, fmt.Errorf("ticket id %q contains a control character", id)
		}
	}
	t := Ticket{Tracker: tracker, ID: id}
	if tracker == "github" {
		num := strings.TrimPrefix(id, "#")
		if num != "" && isDigits(num) {
			t.ID, t.numeric = num, true
		}
	}
	if t.ID == "" || t.ID == "#" {
		return Ticket{}, fmt.Errorf("ticket id %q is empty after its # prefix", id)
	}
	return t, nil
}

// Numeric says whether the ticket is a GitHub issue or pull request number.
func (t Ticket) Numeric() bool { return t.numeric }

// NamedIn says whether text names the ticket.
func (t Ticket) NamedIn(text string) bool {
	if t.numeric {
		return t.numberNamedIn(text)
	}
	return tokenIn(text, t.ID)
}

// NamedInRef says whether a branch or ref name names the ticket. Branch names rarely carry "#", so for a GitHub
// number a bare number also counts there, but only in the forms people use for issues: a path component that is
// the number or starts with it and a dash or underscore (123, 123-fix, fix/123-crash, pr/123), or that is
// issue-123, issues-123, gh-123, bug-123 (optionally followed by -slug). A number inside a version (test-1.19,
// go-crypto-1.1.5) or at the end of a word (optimize-1) is not an issue.
func (t Ticket) NamedInRef(name string) bool {
	return t.NamedIn(name) || (t.numeric && issueLikeIn(name, t.ID))
}

// issueLikeIn finds number id in a ref name in one of the issue-like forms NamedInRef lists.
func issueLikeIn(name, id string) bool {
	for _, part := range strings.Split(name, "/") {
		lower := strings.ToLower(part)
		for _, prefix := range []string{"", "issue-", "issue_", "issues-", "issues_", "gh-", "gh_", "bug-", "bug_"} {
			rest, ok := strings.CutPrefix(lower, prefix)
			if !ok {
				continue
			}
			if after, ok := strings.CutPrefix(rest, id); ok && (after == "" || after[0] == '-' || after[0] == '_') {
				return true
			}
		}
	}
	return false
}

// numberNamedIn finds #N or an issue/pull URL ending in /N. #N counts only where GitHub links it (RefStartsAt:
// not PKCS#1). A reference that names a repository (owner/repo#N,
// github.com/owner/repo/issues/N) counts only when that repository is the ticket's (InRepo).
func (t Ticket) numberNamedIn(text string) bool {
	for _, pre := range []string{"#", "/issues/", "/pull/", "/pulls/"} {
		for i := 0; ; {
			j := strings.Index(text[i:], pre+t.ID)
			if j < 0 {
				break
			}
			at := i + j
			end := at + len(pre) + len(t.ID)
			if pre == "#" && !RefStartsAt(text, at) {
				i = at + 1
				continue
			}
			if !wordRuneAt(text, end) && !versionAfter(text, end) && t.sameRepo(repoBefore(text, at, pre != "#")) {
				return true
			}
			i = at + 1
		}
	}
	return false
}

// RefStartsAt says whether the '#' at text[hash] can start a GitHub reference (#N, owner/repo#N). GitHub links
// #N only when no letter or digit stands directly before the '#': PKCS#1, C#2 and word#3 name no issue, while
// owner/repo#N, whose repository name ends in one, does. '_' counts as a letter here, as in the token rule
// (StandsAlone): a_#1 is an identifier, not a reference, and GitHub does not link it in plain text either
// (GitHub's renderer treats a leading "_" as Markdown emphasis, which commit messages do not have).
func RefStartsAt(text string, hash int) bool {
	if !wordRuneBefore(text, hash) {
		return true
	}
	return strings.Contains(repoBefore(text, hash, false), "/") // "owner/repo"; "" or "?" when none is written
}

// repoBefore returns the "owner/repo" written directly before text[at:] ("acme/app#12", ".../acme/app/issues/12"),
// or "" when none is. For a URL every form names a repository, so "" there means one that cannot be read.
func repoBefore(text string, at int, url bool) string {
	head := text[:at]
	name := trailingRepoChars(head)
	if name == "" {
		if url {
			return "?"
		}
		return ""
	}
	head = head[:len(head)-len(name)]
	if !strings.HasSuffix(head, "/") {
		if url {
			return "?"
		}
		return ""
	}
	owner := trailingRepoChars(head[:len(head)-1])
	if owner == "" {
		return "?"
	}
	return owner + "/" + name
}

// trailingRepoChars is the longest suffix of s made of characters GitHub allows in owner and repository names.
func trailingRepoChars(s string) string {
	i := len(s)
	for i > 0 {
		c := s[i-1]
		if c == '-' || c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			i--
			continue
		}
		break
	}
	return s[i:]
}

// sameRepo says whether a reference naming repo (from repoBefore) may count: a plain #N names none and always
// counts; a named repository counts only when it is the ticket's.
func (t Ticket) sameRepo(repo string) bool {
	if repo == "" || t.repo == "" {
		return true
	}
	return strings.EqualFold(repo, t.repo)
}

// tokenIn reports whether id occurs in text, case-insensitively, with no word rune on either side.
func tokenIn(text, id string) bool {
	if id == "" || len(text) < len(id) {
		return false
	}
	lt, lid := strings.ToLower(text), strings.ToLower(id)
	// Lower-casing can change byte lengths for some scripts; fall back to a rune-wise scan then.
	if len(lt) != len(text) || len(lid) != len(id) {
		return tokenInFold(text, id)
	}
	for i := 0; ; {
		j := strings.Index(lt[i:], lid)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(lid)
		if StandsAlone(text, start, end) {
			return true
		}
		i = start + 1
	}
}

func tokenInFold(text, id string) bool {
	n := utf8.RuneCountInString(id)
	for start := 0; start < len(text); {
		// take n runes from start
		end := start
		for k := 0; k < n && end < len(text); k++ {
			_, sz := utf8.DecodeRuneInString(text[end:])
			end += sz
		}
		if strings.EqualFold(text[start:end], id) && StandsAlone(text, start, end) {
			return true
		}
		_, sz := utf8.DecodeRuneInString(text[start:])
		start += sz
	}
	return false
}

// IsWordRune is the token rule's notion of a word character: a letter, a digit or '_'. An id names a ticket only
// with no word character directly before or after it; the ticket index splits messages into words the same way.
func IsWordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// StandsAlone says whether text[start:end] is a whole token: no word character directly before start or at end.
// This is the one token rule, for every place that finds ids in text (a ticket's own id here, a pattern's
// matches in record).
//
// A token that is part of a version number is not a ticket either: followed by "." and a digit (lang-3.2 is not
// LANG-3), or, for one that starts with a digit, preceded by a digit and "." (1.19 does not name #19).
func StandsAlone(text string, start, end int) bool {
	return !wordRuneBefore(text, start) && !wordRuneAt(text, end) && !versionAfter(text, end) && !versionBefore(text, start)
}

// versionAfter says whether text[end:] continues a version: "." and a digit.
func versionAfter(text string, end int) bool {
	return end+1 < len(text) && text[end] == '.' && isDigit(text[end+1])
}

// versionBefore says whether a token starting with a digit at start follows a digit and ".".
func versionBefore(text string, start int) bool {
	return start >= 2 && start < len(text) && isDigit(text[start]) && text[start-1] == '.' && isDigit(text[start-2])
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// EndsAlone says whether no word character follows text[:end]: the token rule's right side alone, for forms that
// bring their own left boundary (#123).
func EndsAlone(text string, end int) bool { return !wordRuneAt(text, end) }

// Same says whether two ids written by people or tools name one ticket: equal ignoring letter case and a
// leading '#' (a GitHub number is written both ways).
func Same(a, b string) bool {
	return strings.EqualFold(strings.TrimPrefix(a, "#"), strings.TrimPrefix(b, "#"))
}

func wordRuneBefore(s string, i int) bool {
	if i == 0 {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return IsWordRune(r)
}

func wordRuneAt(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return IsWordRune(r)
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// Prefilter returns a cheap test that is true for every text the ticket could be named in (and for some it is
// not): the id occurs in it, ignoring case. History walks use it to skip the exact rules for almost every commit.
func (t Ticket) Prefilter() func(string) bool {
	id := t.ID
	last := id[len(id)-1]
	if last >= 0x80 || ('a' <= last|0x20 && last|0x20 <= 'z') {
		lid := strings.ToLower(id)
		return func(s string) bool { return strings.Contains(strings.ToLower(s), lid) }
	}
	// The id ends in a byte that has no case (a digit, '-', …): find it, then compare what precedes it.
	return func(s string) bool {
		for i := 0; i < len(s); {
			j := strings.IndexByte(s[i:], last)
			if j < 0 {
				return false
			}
			end := i + j + 1
			if start := end - len(id); start >= 0 && strings.EqualFold(s[start:end], id) {
				return true
			}
			i = end
		}
		return false
	}
}
