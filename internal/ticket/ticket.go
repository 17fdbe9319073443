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
// number a bare token also counts there (issue/123-crash, 123-fix).
func (t Ticket) NamedInRef(name string) bool {
	return t.NamedIn(name) || (t.numeric && tokenIn(name, t.ID))
}

// numberNamedIn finds #N (also owner/repo#N) or an issue/pull URL ending in /N.
func (t Ticket) numberNamedIn(text string) bool {
	for _, pre := range []string{"#", "/issues/", "/pull/", "/pulls/"} {
		for i := 0; ; {
			j := strings.Index(text[i:], pre+t.ID)
			if j < 0 {
				break
			}
			end := i + j + len(pre) + len(t.ID)
			if !wordRuneAt(text, end) {
				return true
			}
			i += j + 1
		}
	}
	return false
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
func StandsAlone(text string, start, end int) bool {
	return !wordRuneBefore(text, start) && !wordRuneAt(text, end)
}

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
