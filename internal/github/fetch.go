package github

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/prsource"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

// Query says which pull requests to look for.
type Query struct {
	Ticket ticket.Ticket
	// Numbers are asked for whatever else is found (--pr).
	Numbers []int
	// Commits are the ticket's commits: their merge and squash subjects name pull requests, and GitHub is asked
	// which pull requests hold the newest one.
	Commits *discover.Commits
	// SDD is the .sdd folder whose pr/ holds saved payloads, used for numbers the API gave nothing for.
	SDD string
	// Unavailable says, when there is no client, why GitHub cannot be asked and what to do.
	Unavailable error
	// Controls also fetches the change-control members (controls.go; doc.go, "Change-control evidence").
	Controls bool
}

// PR is one pull request with its payload as the API (or the offline copy) gave it.
type PR struct {
	Number  int
	Payload []byte
	Reviews []byte // nil when not fetched
	Offline string // the .sdd/pr file it came from; "" when it came from the API
	// PayloadFrom and ReviewsFrom say where Payload and Reviews came from, for pr/sources.json (package
	// prsource); their Arcname is left to the bundle.
	PayloadFrom, ReviewsFrom prsource.Member
	// Controls are its change-control members (Query.Controls), by name.
	Controls []Member
}

// Result is what Fetch found.
type Result struct {
	PRs      []PR // by number
	Landed   *int
	Missing  []int // numbers found but without a payload
	Warnings []string
	// Controls are the change-control members that belong to no one pull request: each base branch's rules
	// and protection, and the ticket's GitHub issue and its events (Query.Controls).
	Controls []Member
	// Stopped says the fetch was cut short by a failure every later request would share (offline, no answer
	// in time, rate limit): asking again later can give more.
	Stopped bool
}

// Fetch finds the ticket's pull requests and their payloads. c may be nil (no repository known): then only
// the offline copies are used. Nothing GitHub does makes Fetch fail; each problem is one warning line.
func Fetch(ctx context.Context, c *Client, q Query) *Result {
	res := &Result{}
	known := map[int]bool{}
	add := func(ns ...int) {
		for _, n := range ns {
			if n > 0 {
				known[n] = true
			}
		}
	}
	add(q.Numbers...)
	add(NumbersFromCommits(q.Commits)...)
	offline, warnings := ReadOffline(q.SDD, q.Ticket)
	res.Warnings = append(res.Warnings, warnings...)
	for n, cp := range offline {
		if cp.NamesTicket {
			add(n)
		}
	}

	got := map[int]*PR{}
	var stop *failure
	var stopReviewsOf int // the pull request whose reviews the stopping failure hit, if any
	searched := true
	var lines []pending
	var cacheNotes *notes // an edited cache entry, said before the other warnings
	if c != nil {
		// One deadline and one answer budget for every request of this fetch together.
		ctx, cancel := context.WithTimeout(withBudget(ctx, maxBody), c.timeout)
		defer cancel()
		ctx, cacheNotes = withNotes(ctx)
		search := []func() ([]int, error){
			func() ([]int, error) { return c.numbersForCommit(ctx, newestCommit(q.Commits)) },
			func() ([]int, error) { return c.numbersByHead(ctx, q.Ticket) },
		}
		if newestCommit(q.Commits) == "" {
			search = search[1:]
		}
		for _, find := range search {
			nums, err := find()
			add(nums...)
			if err != nil {
				f := c.classify(err, endpointList, 0)
				if f.stop {
					stop, searched = &f, false
					break
				}
				lines = append(lines, pending{search: true, f: f})
			}
		}
		for _, n := range slices.Sorted(maps.Keys(known)) {
			if stop != nil {
				break
			}
			payload, from, err := c.pull(ctx, n)
			if err != nil {
				f := c.classify(err, endpointPull, n)
				if f.stop {
					stop = &f
				} else {
					lines = append(lines, pending{numbers: []int{n}, f: f})
				}
				continue
			}
			pr := &PR{Number: n, Payload: payload, PayloadFrom: from}
			got[n] = pr
			if pr.Reviews, pr.ReviewsFrom, err = c.reviews(ctx, n); err != nil {
				f := c.classify(err, endpointReviews, n)
				if f.stop {
					stop, stopReviewsOf = &f, n
				} else {
					lines = append(lines, pending{reviewsOf: n, f: f})
				}
			}
			if q.Controls && stop == nil {
				stop = c.fetchControls(ctx, q, pr, res)
			}
		}
		if q.Controls && stop == nil {
			stop = c.fetchSharedControls(ctx, q, got, res)
		}
	}

	// The offline copies stand in for whatever the API did not give.
	fromAPI := map[int]bool{}
	for n := range got {
		fromAPI[n] = true
	}
	for _, n := range slices.Sorted(maps.Keys(known)) {
		if got[n] == nil && offline[n] != nil {
			cp := offline[n]
			got[n] = &PR{Number: n, Payload: cp.Payload, Reviews: cp.Reviews, Offline: cp.Path,
				PayloadFrom: prsource.FromOffline("", cp.Name), ReviewsFrom: prsource.FromOffline("", cp.ReviewsName)}
		}
	}

	var notFromAPI []int
	for _, n := range slices.Sorted(maps.Keys(known)) {
		if !fromAPI[n] {
			notFromAPI = append(notFromAPI, n)
		}
		if got[n] == nil {
			res.Missing = append(res.Missing, n)
		}
	}
	switch {
	case stop != nil:
		res.Stopped = true
		lines = append(lines, pending{numbers: notFromAPI, reviewsOf: stopReviewsOf, search: !searched, f: *stop})
	case c == nil && q.Unavailable != nil && (len(res.Missing) > 0 || !errors.Is(q.Unavailable, ErrNoRemote)):
		lines = append(lines, pending{numbers: notFromAPI, f: failure{what: q.Unavailable.Error()}})
	}
	if cacheNotes != nil {
		res.Warnings = append(res.Warnings, cacheNotes.all()...)
	}
	for _, p := range lines {
		res.Warnings = append(res.Warnings, p.render(q.Ticket, got))
	}
	if c != nil && len(c.token) >= minTokenLen {
		for i, w := range res.Warnings {
			res.Warnings[i] = strings.ReplaceAll(w, c.token, "REDACTED")
		}
	}

	for _, n := range slices.Sorted(maps.Keys(known)) {
		if got[n] != nil {
			res.PRs = append(res.PRs, *got[n])
		}
	}
	res.Landed = Landed(res.PRs)
	return res
}

// pending is a warning waiting for the offline copies to be known, so it can say which ones stood in.
type pending struct {
	numbers   []int // pull requests the API gave no payload for
	reviewsOf int   // a pull request whose reviews the API did not give
	search    bool  // the API search for more pull requests did not run or failed
	f         failure
}

func (p pending) render(tk ticket.Ticket, got map[int]*PR) string {
	var subject []string
	switch len(p.numbers) {
	case 0:
	case 1:
		subject = append(subject, fmt.Sprintf("pull request #%d", p.numbers[0]))
	default:
		subject = append(subject, "pull requests "+hashList(p.numbers))
	}
	if p.reviewsOf > 0 {
		subject = append(subject, fmt.Sprintf("the reviews of pull request #%d", p.reviewsOf))
	}
	if p.search || len(subject) == 0 {
		subject = append(subject, "the search for pull requests of "+tk.ID)
	}
	line := strings.Join(subject, " and ") + ": " + p.f.what
	var stoodIn []string
	for _, n := range p.numbers {
		if pr := got[n]; pr != nil && pr.Offline != "" {
			stoodIn = append(stoodIn, fmt.Sprintf("%s for #%d", pr.Offline, n))
		}
	}
	if len(stoodIn) > 0 {
		line += "; used the offline copy " + strings.Join(stoodIn, ", ")
	}
	if p.f.todo != "" {
		line += "; " + p.f.todo
	}
	return line
}

// hashListMax is how many pull request numbers a warning names before "and N more": a long-lived ticket in a
// busy repository names dozens, and one line of sixty numbers says no more than the first few and the count.
const hashListMax = 8

func hashList(ns []int) string {
	shown := ns[:min(len(ns), hashListMax)]
	s := make([]string, len(shown))
	for i, n := range shown {
		s[i] = fmt.Sprintf("#%d", n)
	}
	if more := len(ns) - len(shown); more > 0 {
		return strings.Join(s, ", ") + " and " + strconv.Itoa(more) + " more"
	}
	return strings.Join(s, ", ")
}

// newestCommit is the last tied commit: commits are listed parents before children.
func newestCommit(commits *discover.Commits) string {
	if commits == nil || len(commits.Commits) == 0 {
		return ""
	}
	return commits.Commits[len(commits.Commits)-1]
}
