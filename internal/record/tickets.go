// Package record turns a range of commits into noted bundles: it finds the tickets the range names, builds each
// ticket's bundle with the full discovery of its commits, and records the bundle's digests in a git note on the
// range's tip. The post-merge hook and CI both come through here.
package record

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/mergesubject"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

// DefaultPattern recognises Jira- and Linear-style keys (ENG-42), case-sensitively so that ordinary words with
// a dash and a number are not taken for tickets.
const DefaultPattern = ticket.KeyPattern

// notTickets are prefixes the default pattern matches in ordinary technical prose (UTF-8, SHA-256, ISO-8601,
// RFC-7797, CVE-2024-…): never tickets, and a merge that mentions them must not bundle them.
var notTickets = map[string]bool{"UTF": true, "SHA": true, "ISO": true, "RFC": true, "CVE": true}

// githubRef is #123 in a trailer value (Fixes: #12, Refs: acme/app#12), for tracker github; it counts where GitHub
// links it (ticket.RefStartsAt: not PKCS#1).
var githubRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`#([0-9]+)`) })

// launchpadRef is a Launchpad bug in a trailer value (Closes-Bug: #2161868, Related-Bug: 2059809): six or seven
// digits, with or without "#". Launchpad's ids have that shape; other numbers in messages are not bugs.
var launchpadRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`#?([0-9]{6,7})`) })

// Finder says which tickets a commit names.
type Finder struct {
	pattern   *regexp.Regexp
	fold      *regexp.Regexp // the pattern ignoring case, for branch names
	isDefault bool
	Tracker   string
	// TrailerKeys are the trailer keys whose values may name GitHub issues by #N (matched case-insensitively).
	TrailerKeys []string
	Trailers    gitext.TrailerOptions
	// Projects are the keys (bernstein.projects, ParseProjects) whose ids the pattern finds, in messages and in
	// branch names; nil is every key. The tracker's own shapes (#123, Launchpad bugs) are not keys.
	Projects []string
}

// NewFinder compiles pattern (DefaultPattern when empty) for tracker. For tracker launchpad with no pattern,
// tickets are the Launchpad bugs named in ticket trailers (Closes-Bug: #2161868) only: the default pattern is a
// Jira key, and a bare number in prose is no bug.
func NewFinder(pattern, tracker string, trailerKeys []string, trailers gitext.TrailerOptions) (*Finder, error) {
	isDefault := pattern == ""
	if isDefault && tracker == "launchpad" {
		return &Finder{isDefault: true, Tracker: tracker, TrailerKeys: trailerKeys, Trailers: trailers}, nil
	}
	if isDefault {
		pattern = DefaultPattern
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, fmt.Errorf("bernstein.ticketPattern %q is not a regular expression: %w", pattern, err)
	}
	fold, _ := regexp.Compile("(?i)(?:" + pattern + ")")
	return &Finder{pattern: re, fold: fold, isDefault: isDefault, Tracker: tracker, TrailerKeys: trailerKeys, Trailers: trailers}, nil
}

// Found is a ticket the range names, and where: "message of 1a2b3c4", "trailer Fixes of …", "branch bugfix/x".
type Found struct {
	ID    string
	Where []string
}

// Tickets returns the tickets commits name, sorted by id. Ids that differ only in case are one ticket (ticket
// matching ignores case), spelled as a message or trailer spelled it, else upper-cased: teams and Linear write
// keys lower-case in branch names (bugfix/eng-42-crash), while the key itself is upper-case.
func (f *Finder) Tickets(commits []*gitext.Commit) []Found {
	byKey := map[string]*Found{}
	fromText := map[string]bool{}
	add := func(id, where string, text bool) {
		key := strings.ToUpper(id)
		fd, ok := byKey[key]
		if !ok {
			fd = &Found{ID: id}
			byKey[key] = fd
		}
		if text && !fromText[key] {
			fd.ID, fromText[key] = id, true
		} else if !text && !fromText[key] {
			fd.ID = strings.ToUpper(id)
		}
		for _, w := range fd.Where {
			if w == where {
				return
			}
		}
		fd.Where = append(fd.Where, where)
	}
	keys := map[string]bool{}
	for _, k := range f.TrailerKeys {
		keys[strings.ToLower(k)] = true
	}
	for _, c := range commits {
		short := c.Hash.String()[:7]
		if f.pattern != nil {
			for _, id := range f.matches(f.pattern, c.Message) {
				add(id, "message of "+short, true)
			}
		}
		for _, t := range gitext.ParseTrailers(c.Message, f.Trailers) {
			if !keys[strings.ToLower(t.Key)] {
				continue
			}
			for _, id := range f.trailerIDs(t.Value) {
				add(id, "trailer "+t.Key+" of "+short, true)
			}
		}
		if len(c.ParentHashes) > 1 {
			subject, _, _ := strings.Cut(strings.TrimLeft(c.Message, "\n"), "\n")
			if n := mergesubject.PullRequestNumber(subject); n != "" && f.Tracker == "github" {
				add(n, "pull request merge "+short, true)
			}
			if f.fold != nil {
				for _, b := range mergesubject.Branches(subject) {
					for _, id := range f.matches(f.fold, b) {
						add(id, "branch "+b, false)
					}
				}
			}
		}
	}
	out := make([]Found, 0, len(byKey))
	for _, fd := range byKey {
		out = append(out, *fd)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// trailerIDs are the tickets a ticket trailer's value names in the tracker's own id shape: #N for github, a
// six- or seven-digit bug (with or without #) for launchpad. Ids of the pattern are found in the message scan.
func (f *Finder) trailerIDs(value string) []string {
	var re *regexp.Regexp
	switch f.Tracker {
	case "github":
		re = githubRef()
	case "launchpad":
		re = launchpadRef()
	default:
		return nil
	}
	var out []string
	for _, m := range re.FindAllStringSubmatchIndex(value, -1) {
		if !ticket.EndsAlone(value, m[3]) || (f.Tracker == "launchpad" && !ticket.StandsAlone(value, m[0], m[1])) ||
			(f.Tracker == "github" && !ticket.RefStartsAt(value, m[0])) { // PKCS#1 is no reference (GitHub's rule)
			continue
		}
		out = append(out, value[m[2]:m[3]])
	}
	return out
}

// LooksLikeKeys says whether every ticket found has the shape of a Jira or Linear key (ENG-42): then a tracker
// left at its default (github) is probably not the one the team uses.
func LooksLikeKeys(found []Found) bool {
	for _, f := range found {
		if !ticket.LooksLikeKey(f.ID) {
			return false
		}
	}
	return len(found) > 0
}

// matches returns re's matches in text that stand as whole tokens (no letter, digit or _ directly around them),
// the rule ticket matching uses everywhere, so ENG-42a and xENG-42 name nothing; with Projects, only the ids of
// those keys.
func (f *Finder) matches(re *regexp.Regexp, text string) []string {
	var out []string
	for _, m := range re.FindAllStringIndex(text, -1) {
		if !ticket.StandsAlone(text, m[0], m[1]) {
			continue
		}
		id := text[m[0]:m[1]]
		if !InProjects(id, f.Projects) {
			continue
		}
		if f.isDefault {
			prefix, _, _ := strings.Cut(id, "-")
			if notTickets[strings.ToUpper(prefix)] {
				continue
			}
		}
		out = append(out, id)
	}
	return out
}
