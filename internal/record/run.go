package record

import (
	"fmt"
	"strings"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/lineage"
	"github.com/git-bernstein/git-bernstein/internal/plural"
)

// Request is what git bernstein record and the post-merge hook ask for: Options with what is still to be made
// of the settings (Options.Finder, LineageKey and Author are made here).
type Request struct {
	Options
	// TicketPattern (bernstein.ticketPattern, "" the default), Tracker, TrailerKeys and Trailers make the Finder
	// (NewFinder); Projects are bernstein.projects' values (ParseProjects).
	TicketPattern, Tracker string
	TrailerKeys            []string
	Trailers               gitext.TrailerOptions
	Projects               []string
	// TrackerDefaulted says bernstein.tracker was not set: tickets that look like Jira or Linear keys get a
	// warning that they were filed under github.
	TrackerDefaulted bool
	// Config and Getenv are git's configuration and the run's environment: the notes' author (Identity) and,
	// with LineageV2, the lineage store's key (lineage.ResolveKey).
	Config *gitext.Config
	Getenv func(string) string
}

// Run makes the finder, the lineage key and the author from req, records (Record), and returns the report
// with the warnings about the tickets found: keys filed under github for want of a tracker, and several
// project keys with bernstein.projects unset.
func Run(req Request) (rep *Report, warnings []string, err error) {
	finder, err := NewFinder(req.TicketPattern, req.Tracker, req.TrailerKeys, req.Trailers)
	if err != nil {
		return nil, nil, err
	}
	if finder.Projects, err = ParseProjects(req.Projects); err != nil {
		return nil, nil, err
	}
	opts := req.Options
	opts.Finder = finder
	if opts.LineageV2 {
		// The checkpoint each bundle carries is taken of a store that verifies under the writers' key.
		if opts.LineageKey, err = lineage.ResolveKey("", req.Getenv); err != nil {
			return nil, nil, err
		}
	}
	opts.Author = Identity(req.Config, req.Getenv)
	rep, err = Record(opts)
	if err != nil {
		return rep, nil, err
	}
	if req.TrackerDefaulted && LooksLikeKeys(rep.Tickets) {
		warnings = append(warnings, fmt.Sprintf("tickets such as %s look like Jira or Linear keys, but bernstein.tracker "+
			"is not set, so they are filed under 'github': run `git config bernstein.tracker jira` (or linear) so "+
			"bundles and notes name the right tracker", rep.Tickets[0].ID))
	}
	// With tracker github the tickets are numbers, and ids of the pattern beside them are noise rather than
	// projects to name: the warning is for key-based trackers, or when every id found is a key.
	if len(finder.Projects) == 0 && (req.Tracker != "github" || LooksLikeKeys(rep.Tickets)) {
		if w := severalKeys(Keys(rep.Tickets)); w != "" {
			warnings = append(warnings, w)
		}
	}
	return rep, warnings, nil
}

// severalKeys is the warning for ids of several project keys found with bernstein.projects unset: some are
// likely no project (KIP-848 is a Kafka Improvement Proposal, KAKFA-17173 a typo), and each is bundled.
func severalKeys(keys []KeyCount) string {
	if len(keys) < 2 {
		return ""
	}
	var list []string
	for _, k := range keys {
		list = append(list, fmt.Sprintf("%s (%s)", k.Key, plural.Count(k.Tickets, "ticket")))
	}
	return fmt.Sprintf("tickets of %d project keys were found: %s; if not all are projects of your tracker, name "+
		"those that are, so that record and the hook bundle only their tickets: `git config bernstein.projects \"%s\"` "+
		"(more keys separated by spaces)", len(keys), strings.Join(list, ", "), keys[0].Key)
}
