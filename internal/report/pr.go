package report

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/git-bernstein/git-bernstein/internal/plural"
	"github.com/git-bernstein/git-bernstein/internal/prsource"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// prView is a pull request as GitHub's REST API returned it (pr/pr_N.json), with its reviews
// (pr/pr_N.reviews.json) when the bundle has them.
type prView struct {
	Name      string
	Number    string
	Title     string
	State     string
	URL       string
	Author    string
	Merged    string
	MergedBy  string
	Body      string
	Reviews   []reviewRow
	Approvals string
	Problem   string // set when the payload could not be read as a pull request; Raw is shown instead
	Raw       string
	// Source and ReviewsSource say where the payload and the reviews came from (pr/sources.json, as the
	// verifier read it); the Warn ones are set when that is not GitHub, or not known.
	Source, ReviewsSource         string
	SourceWarn, ReviewsSourceWarn bool
	HasReviews                    bool
}

// sourceOf says where the pr/ member name came from, from the verifier's pr-sources check, and whether that
// deserves a warning: an offline copy, or a bundle that does not say.
func sourceOf(r *verify.Report, name, createdAt string) (string, bool) {
	for _, m := range r.PRSources {
		if m.Arcname == name {
			return m.Describe(createdAt), m.Source == prsource.Offline
		}
	}
	for _, c := range r.Checks {
		if c.Check == verify.CheckPRSources {
			if c.Status == verify.Fail {
				return "unknown: " + prsource.Arcname + " does not hold up (the pr-sources check above)", true
			}
			return "not recorded: the bundle has no " + prsource.Arcname + ", so this may be GitHub's answer or an offline copy from .sdd/pr", true
		}
	}
	return "not recorded", true
}

type reviewRow struct {
	Reviewer, State, When, Body string
}

// ghPull is the part of GitHub's pull request payload the page shows.
type ghPull struct {
	Number   int     `json:"number"`
	Title    string  `json:"title"`
	State    string  `json:"state"`
	HTMLURL  string  `json:"html_url"`
	Body     string  `json:"body"`
	User     *ghUser `json:"user"`
	Merged   bool    `json:"merged"`
	MergedAt string  `json:"merged_at"`
	MergedBy *ghUser `json:"merged_by"`
}

type ghUser struct {
	Login string `json:"login"`
}

type ghReview struct {
	User        *ghUser `json:"user"`
	State       string  `json:"state"`
	SubmittedAt string  `json:"submitted_at"`
	Body        string  `json:"body"`
}

func login(u *ghUser) string {
	if u == nil || u.Login == "" {
		return "(unknown)"
	}
	return u.Login
}

func prFrom(mb, reviews *Member) prView {
	v := prView{Name: mb.Name}
	var pr ghPull
	if mb.Truncated {
		v.Problem, v.Raw = fmt.Sprintf("%s is %s, more than is shown", mb.Name, sizeText(mb.Size)), mb.Text()
		return v
	}
	if err := json.Unmarshal(mb.Head, &pr); err != nil {
		v.Problem, v.Raw = fmt.Sprintf("not a GitHub pull request payload (%v)", err), mb.Text()
		return v
	}
	v.Number, v.Title, v.State, v.URL, v.Body = fmt.Sprint(pr.Number), pr.Title, pr.State, pr.HTMLURL, pr.Body
	v.Author = login(pr.User)
	switch {
	case pr.Merged || pr.MergedAt != "":
		v.Merged = "merged " + pr.MergedAt
		v.MergedBy = login(pr.MergedBy)
	default:
		v.Merged = "not merged"
	}
	if reviews == nil {
		v.Approvals = "no reviews in the bundle"
		return v
	}
	var rs []ghReview
	if err := json.Unmarshal(reviews.Head, &rs); err != nil {
		v.Approvals = fmt.Sprintf("%s could not be read (%v)", reviews.Name, err)
		return v
	}
	// A reviewer's latest review is their standing verdict, as GitHub counts approvals.
	latest := map[string]string{}
	var order []string
	for _, r := range rs {
		who := login(r.User)
		v.Reviews = append(v.Reviews, reviewRow{Reviewer: who, State: r.State, When: r.SubmittedAt, Body: r.Body})
		if r.State == "COMMENTED" || r.State == "PENDING" {
			continue
		}
		if _, ok := latest[who]; !ok {
			order = append(order, who)
		}
		latest[who] = r.State
	}
	var approved []string
	for _, who := range order {
		if latest[who] == "APPROVED" {
			approved = append(approved, who)
		}
	}
	v.Approvals = plural.Count(len(approved), "approval")
	if len(approved) > 0 {
		v.Approvals += ": " + strings.Join(approved, ", ")
	}
	return v
}
