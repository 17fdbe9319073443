package controls

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// interval is a time the ticket was open; until is zero while it still is.
type interval struct{ from, until time.Time }

// lifecycle reads the ticket's GitHub issue and its events: when it was open.
func (a *audit) lifecycle() ([]interval, int, string) {
	if a.commits == nil {
		return nil, 0, "git/commits.json is not in the bundle"
	}
	if a.commits.Tracker != "github" {
		return nil, 0, fmt.Sprintf("the ticket's lifecycle is not captured for tracker %q (GitHub issues only, with --tracker github)", a.commits.Tracker)
	}
	n, err := strconv.Atoi(strings.TrimPrefix(a.commits.TicketID, "#"))
	if err != nil || n <= 0 {
		return nil, 0, fmt.Sprintf("ticket %q is not a GitHub issue number", a.commits.TicketID)
	}
	var is ghIssue
	if why := a.read(IssueName(n), &is); why != "" {
		return nil, n, why
	}
	var events []ghEvent
	if why := a.read(IssueEventsName(n), &events); why != "" {
		return nil, n, why
	}
	created, err := time.Parse(time.RFC3339, is.CreatedAt)
	if err != nil {
		return nil, n, IssueName(n) + " has no created_at"
	}
	var out []interval
	open := &interval{from: created}
	for _, e := range events {
		t, err := time.Parse(time.RFC3339, e.CreatedAt)
		if err != nil {
			continue
		}
		switch e.Event {
		case "closed":
			if open != nil {
				open.until = t
				out = append(out, *open)
				open = nil
			}
		case "reopened":
			if open == nil {
				open = &interval{from: t}
			}
		}
	}
	if open != nil {
		out = append(out, *open)
	}
	return out, n, ""
}

func openAt(iv []interval, at string) (bool, bool) {
	t, err := time.Parse(time.RFC3339, at)
	if err != nil {
		return false, false
	}
	for _, i := range iv {
		if !t.Before(i.from) && (i.until.IsZero() || !t.After(i.until)) {
			return true, true
		}
	}
	return false, true
}

func (a *audit) ticketOpen() []Outcome {
	iv, n, why := a.lifecycle()
	type subj struct {
		subject string
		pr      int
		commit  string
		times   []Evidence
	}
	var subjects []subj
	inPR := map[string]bool{}
	for _, p := range a.merged() {
		s := subj{subject: p.subject(), pr: p.n}
		s.times = append(s.times, Evidence{Member: fmt.Sprintf("pr/pr_%d.json", p.n), Pointer: "/merged_at", Who: p.p.MergedBy.name(), Commit: p.mergeSHA(), When: p.mergedAt(), What: "the merge"})
		for i, c := range p.commits {
			inPR[c.SHA] = true
			s.times = append(s.times, Evidence{Member: CommitsName(p.n), Pointer: pointer(i, "commit", "author", "date"), Who: c.Commit.Author.Name, Commit: c.SHA, When: c.Commit.Author.Date, What: "commit " + short(c.SHA)})
		}
		subjects = append(subjects, s)
	}
	for _, c := range a.tied() {
		if inPR[c.d.SHA] || len(c.d.Parents) > 1 {
			continue
		}
		if arr := a.arrivalOf(c); arr != nil {
			continue
		}
		subjects = append(subjects, subj{subject: "commit " + c.d.SHA, commit: c.d.SHA, times: []Evidence{{Member: "git/commits.json",
			Pointer: pointer("details", c.i, "author", "date"), Who: c.d.Author.Name, Commit: c.d.SHA, When: c.d.Author.Date, What: "commit " + short(c.d.SHA)}}})
	}
	var out []Outcome
	for _, s := range subjects {
		o := Outcome{Control: TicketOpen, Subject: s.subject, PR: s.pr, Commit: s.commit}
		if why != "" {
			o.Status, o.Detail = Unknown, why
			out = append(out, o)
			continue
		}
		var bad, unread []string
		for _, t := range s.times {
			ok, read := openAt(iv, t.When)
			switch {
			case !read:
				unread = append(unread, t.What)
			case !ok:
				t.What = fmt.Sprintf("%s at %s, while ticket #%d was not open (%s)", t.What, t.When, n, describe(iv))
				o.Evidence = append(o.Evidence, t)
				bad = append(bad, t.What)
			}
		}
		switch {
		case len(bad) > 0:
			o.Status, o.Detail = Exception, fmt.Sprintf("%d of %d times fall outside ticket #%d's open time", len(bad), len(s.times), n)
		case len(unread) > 0:
			o.Status, o.Detail = Unknown, "no time for "+strings.Join(unread, ", ")
		default:
			what := "every commit and the merge fall"
			if s.pr == 0 {
				what = "the commit falls"
			}
			o.Status, o.Detail = Pass, fmt.Sprintf("%s while ticket #%d was open (%s)", what, n, describe(iv))
		}
		out = append(out, o)
	}
	return out
}

func describe(iv []interval) string {
	var parts []string
	for _, i := range iv {
		u := "still open"
		if !i.until.IsZero() {
			u = i.until.UTC().Format(time.RFC3339)
		}
		parts = append(parts, "open "+i.from.UTC().Format(time.RFC3339)+" to "+u)
	}
	if len(parts) == 0 {
		return "never open"
	}
	return strings.Join(parts, ", ")
}
