package discover

import (
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

// List is Find with, for the lines, the changes and the base branch; a key-shaped id under the default
// tracker is warned about first, and only when the tracker was not chosen.
func TestList(t *testing.T) {
	t.Parallel()
	s := newScenario(t)
	repo, err := gitext.Discover(s.r.Dir, s.r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	tk, err := ticket.Parse("github", "ENG-42")
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Ticket: tk, Sources: AllSources, TrailerKeys: DefaultTrailerKeys, PatchIDsToGroup: true}
	l, err := List(repo, opts, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Details) != 9 || len(l.Changes) != 9 || l.Base != "refs/heads/main" || len(l.Warnings) != 0 {
		t.Errorf("lines: %d details, %d changes, base %q, warnings %q; want 9, 9, refs/heads/main, none",
			len(l.Details), len(l.Changes), l.Base, l.Warnings)
	}
	opts.TrackerDefaulted = true
	if l, err = List(repo, opts, false); err != nil {
		t.Fatal(err)
	}
	if l.Changes != nil || l.Base != "" || len(l.Details) != 9 {
		t.Errorf("JSON: changes %v, base %q; want neither", l.Changes, l.Base)
	}
	if len(l.Warnings) != 1 || !strings.HasPrefix(l.Warnings[0], "ENG-42 looks like a Jira or Linear key, but bernstein.tracker is not set") {
		t.Errorf("warnings under the default tracker: %q", l.Warnings)
	}
	num, _ := ticket.Parse("github", "#17")
	if l, err = List(repo, Options{Ticket: num, Sources: AllSources, TrackerDefaulted: true}, true); err != nil ||
		len(l.Warnings) != 0 {
		t.Errorf("a number under the default tracker: %q %v; want no warning", l.Warnings, err)
	}
}
