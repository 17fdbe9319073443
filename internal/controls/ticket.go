package controls

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// interval is a time the ticket was open; until is zero while it still is.
type interval struct{ from, until time.Time }

// lifecycle reads the ticket's GitHub issue and its events: when it was open.
func (a *audit) lifecycle() ([]interval, int, string, string) {
	if a.commits == nil {
		return nil, 0, "git/commits.json is not in the bundle", ""
	}
	n, err := strconv.Atoi(strings.TrimPrefix(a.commits.TicketID, "#"))
	if a.commits.Tracker != "github" || err != nil || n <= 0 {
		if iv, from := a.recordedLifecycle(); iv != nil {
			return iv, 0, "", from
		}
		return nil, 0, fmt.Sprintf("the lifecycle of %s ticket %s is not in the bundle (GitHub issues are captured with bundle --controls; other trackers need ticket.opened and ticket.closed records under audit/ or lineage/)", a.commits.Tracker, a.commits.TicketID), ""
	}
	var is ghIssue
	if why := a.read(IssueName(n), &is); why != "" {
		if iv, from := a.recordedLifecycle(); iv != nil {
			return iv, n, "", from
		}
		return nil, n, why, ""
	}
	var events []ghEvent
	if why := a.read(IssueEventsName(n), &events); why != "" {
		return nil, n, why, ""
	}
	created, err := time.Parse(time.RFC3339, is.CreatedAt)
	if err != nil {
		return nil, n, IssueName(n) + " has no created_at", ""
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
	return out, n, "", "GitHub issue #" + strconv.Itoa(n)
}

// recordedLifecycle reads the ticket's lifecycle from the bundle's tracker records (JSON lines under audit/, or
// directly in lineage/, such as tracker_audit.jsonl): {"event":"ticket.opened"|"ticket.closed"|
// "ticket.reopened","ticket_id":…,"ts":RFC 3339}. They are .sdd files an agent or a person wrote, signed by the
// bundler, not the tracker's own answer: the outcome says where the times came from. nil when none names the
// ticket or no record opens it.
func (a *audit) recordedLifecycle() ([]interval, string) {
	type rec struct {
		Event    string `json:"event"`
		TicketID string `json:"ticket_id"`
		TS       string `json:"ts"`
	}
	var names []string
	for name := range a.in.Members {
		if recordsMember(name) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	var evs []ghEvent
	var from []string
	for _, name := range names {
		used := false
		for _, line := range strings.Split(string(a.in.Members[name]), "\n") {
			var r rec
			if json.Unmarshal([]byte(line), &r) != nil || r.TicketID != a.commits.TicketID {
				continue
			}
			ev, ok := strings.CutPrefix(r.Event, "ticket.")
			if !ok || (ev != "opened" && ev != "closed" && ev != "reopened") {
				continue
			}
			evs = append(evs, ghEvent{Event: ev, CreatedAt: r.TS})
			used = true
		}
		if used {
			from = append(from, name)
		}
	}
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].CreatedAt < evs[j].CreatedAt })
	var out []interval
	var open *interval
	for _, e := range evs {
		t, err := time.Parse(time.RFC3339, e.CreatedAt)
		if err != nil {
			continue
		}
		switch {
		case (e.Event == "opened" || e.Event == "reopened") && open == nil:
			open = &interval{from: t}
		case e.Event == "closed" && open != nil:
			open.until = t
			out = append(out, *open)
			open = nil
		}
	}
	if open != nil {
		out = append(out, *open)
	}
	if len(out) == 0 {
		return nil, ""
	}
	return out, "the tracker records in " + strings.Join(from, ", ") + ", written in .sdd, not the tracker's own answer"
}

// recordsMember is a JSON-lines member that may hold tracker records: under audit/, or directly in lineage/.
func recordsMember(name string) bool {
	if strings.HasPrefix(name, "audit/") {
		return true
	}
	rest, ok := strings.CutPrefix(name, "lineage/")
	return ok && !strings.Contains(rest, "/") && strings.HasSuffix(rest, ".jsonl")
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
	iv, n, why, source := a.lifecycle()
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
				t.What = fmt.Sprintf("%s at %s, while ticket %s was not open (%s)", t.What, t.When, ticketName(a, n), describe(iv))
				o.Evidence = append(o.Evidence, t)
				bad = append(bad, t.What)
			}
		}
		switch {
		case len(bad) > 0:
			o.Status, o.Detail = Exception, fmt.Sprintf("%d of %d times fall outside the ticket's open time (%s)", len(bad), len(s.times), source)
		case len(unread) > 0:
			o.Status, o.Detail = Unknown, "no time for "+strings.Join(unread, ", ")
		default:
			what := "every commit and the merge fall"
			if s.pr == 0 {
				what = "the commit falls"
			}
			o.Status, o.Detail = Pass, fmt.Sprintf("%s while ticket %s was open (%s; %s)", what, ticketName(a, n), describe(iv), source)
		}
		out = append(out, o)
	}
	return out
}

func ticketName(a *audit, n int) string {
	if n > 0 {
		return "#" + strconv.Itoa(n)
	}
	return a.commits.TicketID
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
