package github

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"

	gh "github.com/google/go-github/v62/github"

	"github.com/git-bernstein/git-bernstein/internal/controls"
	"github.com/git-bernstein/git-bernstein/internal/prsource"
)

// Member is one change-control member for the bundle's pr/ section (package controls names them; doc.go,
// "Change-control evidence", describes each): its arcname, its bytes as GitHub sent them (the pages of a list
// joined into one array), and where they came from.
type Member struct {
	Name string
	Data []byte
	From prsource.Member
}

// maxPages stops a server whose Link headers never end (a timeline of 10,000 events is 100 pages).
const maxPages = 100

// eachPage fetches path and every page its Link headers name, within maxPages and the client's answer budget,
// handing each body to use in page order; the requests made are returned for the member's provenance.
func (c *Client) eachPage(ctx context.Context, path string, use func(page int, body []byte) error) ([]prsource.Request, error) {
	var from []prsource.Request
	sep := "?"
	if strings.ContainsRune(path, '?') {
		sep = "&"
	}
	page := 1
	for i := 0; i < maxPages; i++ {
		p := fmt.Sprintf("%s%sper_page=%d", path, sep, maxPerPage)
		if page > 1 {
			p += fmt.Sprintf("&page=%d", page)
		}
		body, resp, err := c.getRaw(ctx, p)
		if err != nil {
			return nil, err
		}
		from = append(from, c.sourceOf(resp))
		if err := use(page, body); err != nil {
			return nil, err
		}
		if resp.NextPage == 0 || resp.NextPage <= page {
			break
		}
		page = resp.NextPage
	}
	return from, nil
}

// joinArray is elements as one JSON array, each byte for byte as sent.
func joinArray(elements []json.RawMessage) []byte {
	var buf bytes.Buffer
	buf.WriteByte('[')
	for i, it := range elements {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(it)
	}
	buf.WriteByte(']')
	return buf.Bytes()
}

// list fetches every page of a list endpoint (reviews, commits, timelines, events) and joins the elements, each
// byte for byte as sent, into one array, so that a member is one document a reader can load, not a stream of
// pages; it also says where each page came from.
func (c *Client) list(ctx context.Context, path, what string) ([]byte, prsource.Member, error) {
	var all []json.RawMessage
	from, err := c.eachPage(ctx, path, func(page int, body []byte) error {
		return eachElement(body, fmt.Sprintf("%s, page %d", what, page), func(raw json.RawMessage) error {
			all = append(all, raw)
			return nil
		})
	})
	if err != nil {
		return nil, prsource.Member{}, err
	}
	return append(joinArray(all), '\n'), prsource.FromRequests("", from), nil
}

// object fetches one JSON object as sent.
func (c *Client) object(ctx context.Context, path, what string) ([]byte, prsource.Member, error) {
	body, resp, err := c.getRaw(ctx, path)
	if err != nil {
		return nil, prsource.Member{}, err
	}
	var v map[string]json.RawMessage
	if json.Unmarshal(body, &v) != nil {
		return nil, prsource.Member{}, &errNotList{what: what, why: "not a JSON object"}
	}
	return body, prsource.FromRequests("", []prsource.Request{c.sourceOf(resp)}), nil
}

// pagedObject fetches every page of an endpoint that answers an object holding one paged array (the check runs
// of a commit: {"total_count":…,"check_runs":[…]}; the combined status: {…,"statuses":[…]}), following the
// Link header as list does, within the same page cap and answer budget. One page is kept byte for byte as sent;
// several are joined into one object: the first page's members, with key's array replaced by the elements of
// every page, each byte for byte as sent, in page order (the members then in sorted order).
func (c *Client) pagedObject(ctx context.Context, path, key, what string) ([]byte, prsource.Member, error) {
	var first map[string]json.RawMessage
	var firstBody []byte
	var all []json.RawMessage
	from, err := c.eachPage(ctx, path, func(page int, body []byte) error {
		var obj map[string]json.RawMessage
		if json.Unmarshal(body, &obj) != nil {
			return &errNotList{what: fmt.Sprintf("%s, page %d", what, page), why: "not a JSON object"}
		}
		arr, ok := obj[key]
		if !ok {
			arr = json.RawMessage("[]")
		}
		if err := eachElement(arr, fmt.Sprintf("%s, page %d (%s)", what, page, key), func(raw json.RawMessage) error {
			all = append(all, raw)
			return nil
		}); err != nil {
			return err
		}
		if first == nil {
			first, firstBody = obj, body
		}
		return nil
	})
	if err != nil {
		return nil, prsource.Member{}, err
	}
	if len(from) == 1 {
		return firstBody, prsource.FromRequests("", from), nil
	}
	first[key] = joinArray(all)
	joined, err := json.Marshal(first)
	if err != nil {
		return nil, prsource.Member{}, err
	}
	return append(joined, '\n'), prsource.FromRequests("", from), nil
}

// notReadable is the member written for an answer GitHub refused with 403 or 404 (branch protection needs a
// token with administration read access): {"not_readable":<status>,"message":<GitHub's message>}. nil when err
// is anything else (a rate limit is a 403 too, but go-github reports it as a RateLimitError).
func (c *Client) notReadable(err error) ([]byte, prsource.Member) {
	var er *gh.ErrorResponse
	if !errors.As(err, &er) || er.Response == nil || (er.Response.StatusCode != http.StatusForbidden && er.Response.StatusCode != http.StatusNotFound) {
		return nil, prsource.Member{}
	}
	var rl *gh.RateLimitError
	var arl *gh.AbuseRateLimitError
	if errors.As(err, &rl) || errors.As(err, &arl) {
		return nil, prsource.Member{}
	}
	doc, _ := json.Marshal(struct {
		NotReadable int    `json:"not_readable"`
		Message     string `json:"message"`
	}{er.Response.StatusCode, er.Message})
	return append(doc, '\n'), prsource.FromRequests("", []prsource.Request{c.sourceOf(&gh.Response{Response: er.Response})})
}

// pullShape is what the change-control requests need from a pull request payload.
type pullShape struct {
	Head struct {
		SHA string `json:"sha"`
	} `json:"head"`
	Base struct {
		Ref string `json:"ref"`
	} `json:"base"`
	MergeCommitSHA *string `json:"merge_commit_sha"`
}

// controlsOf fetches pull request n's change-control members: its commits, its timeline, and the check runs
// and combined status of its head and merge commit. Branches are returned for Branch to fetch once each.
func (c *Client) controlsOf(ctx context.Context, n int, payload []byte) ([]Member, string, error) {
	var p pullShape
	if err := json.Unmarshal(payload, &p); err != nil {
		return nil, "", err
	}
	var out []Member
	add := func(name string, data []byte, from prsource.Member, err error) error {
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		from.Arcname = name
		out = append(out, Member{Name: name, Data: data, From: from})
		return nil
	}
	repo := c.repoPath()
	d, f, err := c.list(ctx, fmt.Sprintf("%s/pulls/%d/commits", repo, n), fmt.Sprintf("the commits of #%d", n))
	if err := add(controls.CommitsName(n), d, f, err); err != nil {
		return out, p.Base.Ref, err
	}
	d, f, err = c.list(ctx, fmt.Sprintf("%s/issues/%d/timeline", repo, n), fmt.Sprintf("the timeline of #%d", n))
	if err := add(controls.TimelineName(n), d, f, err); err != nil {
		return out, p.Base.Ref, err
	}
	shas := []string{p.Head.SHA}
	if p.MergeCommitSHA != nil && *p.MergeCommitSHA != "" && *p.MergeCommitSHA != p.Head.SHA {
		shas = append(shas, *p.MergeCommitSHA)
	}
	for _, sha := range shas {
		if !controls.IsObjectID(sha) {
			continue
		}
		d, f, err = c.pagedObject(ctx, fmt.Sprintf("%s/commits/%s/check-runs", repo, sha), "check_runs", "the check runs of "+sha)
		if err := add(controls.CheckRunsName(n, sha), d, f, err); err != nil {
			return out, p.Base.Ref, err
		}
		d, f, err = c.pagedObject(ctx, fmt.Sprintf("%s/commits/%s/status", repo, sha), "statuses", "the status of "+sha)
		if err := add(controls.StatusName(n, sha), d, f, err); err != nil {
			return out, p.Base.Ref, err
		}
	}
	return out, p.Base.Ref, nil
}

// branchControls fetches a base branch's rules and, when the token may read it, its protection.
func (c *Client) branchControls(ctx context.Context, branch string) ([]Member, error) {
	var out []Member
	esc := url.PathEscape(branch)
	d, f, err := c.list(ctx, fmt.Sprintf("%s/rules/branches/%s", c.repoPath(), esc), "the rules of "+branch)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", controls.RulesName(branch), err)
	}
	f.Arcname = controls.RulesName(branch)
	out = append(out, Member{Name: f.Arcname, Data: d, From: f})
	d, f, err = c.object(ctx, fmt.Sprintf("%s/branches/%s/protection", c.repoPath(), esc), "the protection of "+branch)
	if err != nil {
		if d, f = c.notReadable(err); d == nil {
			return out, fmt.Errorf("%s: %w", controls.ProtectionName(branch), err)
		}
	}
	f.Arcname = controls.ProtectionName(branch)
	out = append(out, Member{Name: f.Arcname, Data: d, From: f})
	return out, nil
}

// issueControls fetches the ticket's own GitHub issue and its events (created, closed, reopened).
func (c *Client) issueControls(ctx context.Context, n int) ([]Member, error) {
	var out []Member
	d, f, err := c.object(ctx, fmt.Sprintf("%s/issues/%d", c.repoPath(), n), fmt.Sprintf("issue #%d", n))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", controls.IssueName(n), err)
	}
	f.Arcname = controls.IssueName(n)
	out = append(out, Member{Name: f.Arcname, Data: d, From: f})
	d, f, err = c.list(ctx, fmt.Sprintf("%s/issues/%d/events", c.repoPath(), n), fmt.Sprintf("the events of issue #%d", n))
	if err != nil {
		return out, fmt.Errorf("%s: %w", controls.IssueEventsName(n), err)
	}
	f.Arcname = controls.IssueEventsName(n)
	out = append(out, Member{Name: f.Arcname, Data: d, From: f})
	return out, nil
}

func sortedMembers(ms []Member) []Member {
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].Name < ms[j].Name })
	return ms
}

// fetchControls adds pull request pr's change-control members; a failure is a warning naming the member, and
// one that every later request would share stops the fetch (returned).
func (c *Client) fetchControls(ctx context.Context, q Query, pr *PR, res *Result) *failure {
	ms, _, err := c.controlsOf(ctx, pr.Number, pr.Payload)
	pr.Controls = sortedMembers(ms)
	if err != nil {
		return c.controlsFailure(err, fmt.Sprintf("the change-control evidence of pull request #%d", pr.Number), res)
	}
	return nil
}

// fetchSharedControls adds each base branch's rules and protection, and the ticket's issue and events.
func (c *Client) fetchSharedControls(ctx context.Context, q Query, got map[int]*PR, res *Result) *failure {
	seen := map[string]bool{}
	var branches []string
	for _, pr := range got {
		var p pullShape
		if json.Unmarshal(pr.Payload, &p) == nil && p.Base.Ref != "" && !seen[p.Base.Ref] {
			seen[p.Base.Ref] = true
			branches = append(branches, p.Base.Ref)
		}
	}
	sort.Strings(branches)
	for _, b := range branches {
		ms, err := c.branchControls(ctx, b)
		res.Controls = append(res.Controls, ms...)
		if err != nil {
			if f := c.controlsFailure(err, "the rules of branch "+b, res); f != nil {
				return f
			}
		}
	}
	if q.Ticket.Numeric() {
		var n int
		if _, err := fmt.Sscanf(q.Ticket.ID, "%d", &n); err == nil && n > 0 {
			ms, err := c.issueControls(ctx, n)
			res.Controls = append(res.Controls, ms...)
			if err != nil {
				if f := c.controlsFailure(err, fmt.Sprintf("issue #%d (the ticket)", n), res); f != nil {
					return f
				}
			}
		}
	}
	res.Controls = sortedMembers(res.Controls)
	return nil
}

// controlsFailure classifies a failed change-control request: a stopping failure is returned, any other is a
// warning line, so a bundle is never stopped by evidence GitHub would not give.
func (c *Client) controlsFailure(err error, what string, res *Result) *failure {
	var er *gh.ErrorResponse
	if errors.As(err, &er) && er.Response != nil && er.Response.StatusCode == http.StatusNotFound {
		res.Warnings = append(res.Warnings, what+": GitHub answered 404 ("+er.Message+"); the controls that need it will say unknown")
		return nil
	}
	f := c.classify(err, endpointList, 0)
	if f.stop {
		return &f
	}
	line := what + ": " + f.what + "; the controls that need it will say unknown"
	res.Warnings = append(res.Warnings, line)
	return nil
}

// maxTeams bounds the teams whose members one bundle asks for (a monorepo's CODEOWNERS may name hundreds).
const maxTeams = 20

// TeamMembers fetches the members of the CODEOWNERS teams (org, slug) that require_codeowners needs
// (controls.TeamName): every page of GET /orgs/{org}/teams/{slug}/members, or {"not_readable":…} when GitHub
// answers 403 or 404 (the token may not read the organisation's teams, or the team is secret). It has the
// client's own deadline and answer budget; a failure is a warning, one every later request would share stops
// it (stopped: asking again later can give more).
func (c *Client) TeamMembers(ctx context.Context, teams [][2]string) (ms []Member, warnings []string, stopped bool) {
	ctx, cancel := context.WithTimeout(withBudget(ctx, maxBody), c.timeout)
	defer cancel()
	var out []Member
	if len(teams) > maxTeams {
		warnings = append(warnings, fmt.Sprintf("CODEOWNERS names %d teams: the members of the first %d are captured, the "+
			"others' owners will say unknown", len(teams), maxTeams))
		teams = teams[:maxTeams]
	}
	for _, t := range teams {
		name := controls.TeamName(t[0], t[1])
		d, f, err := c.list(ctx, fmt.Sprintf("orgs/%s/teams/%s/members", url.PathEscape(strings.ToLower(t[0])),
			url.PathEscape(strings.ToLower(t[1]))), "the members of team @"+t[0]+"/"+t[1])
		if err != nil {
			if d, f = c.notReadable(err); d == nil {
				fl := c.classify(err, endpointList, 0)
				warnings = append(warnings, fmt.Sprintf("%s: %s; the controls that need it will say unknown", name, fl.what))
				if fl.stop {
					stopped = true
					break
				}
				continue
			}
		}
		f.Arcname = name
		out = append(out, Member{Name: name, Data: d, From: f})
	}
	if len(c.token) >= minTokenLen {
		for i, w := range warnings {
			warnings[i] = strings.ReplaceAll(w, c.token, "REDACTED")
		}
	}
	return out, warnings, stopped
}
