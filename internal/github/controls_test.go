package github

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/controls"
	"github.com/git-bernstein/git-bernstein/internal/github/githubtest"
	"github.com/git-bernstein/git-bernstein/internal/prsource"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

const (
	head17  = "a3c1e0f27b9d44e1b8f1c2d3e4f5a6b7c8d9e0f1"
	merge17 = "e5f6a7b8c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e"
)

func memberNames(ms []Member) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Name)
	}
	return out
}

func TestFetchControls(t *testing.T) {
	t.Parallel()
	srv := githubtest.New(t, "")
	tk, err := ticket.Parse("github", "#42")
	if err != nil {
		t.Fatal(err)
	}
	res := Fetch(context.Background(), newClient(t, srv.APIURL(), "ghp_testtoken123"), Query{Ticket: tk, Numbers: []int{17}, Controls: true})
	if len(res.Warnings) != 0 {
		t.Fatalf("warnings %q", res.Warnings)
	}
	if len(res.PRs) != 1 {
		t.Fatalf("pull requests %v", numbers(res.PRs))
	}
	want := []string{"pr/pr_17.check-runs." + head17 + ".json", "pr/pr_17.check-runs." + merge17 + ".json", "pr/pr_17.commits.json",
		"pr/pr_17.status." + head17 + ".json", "pr/pr_17.status." + merge17 + ".json", "pr/pr_17.timeline.json"}
	if got := memberNames(res.PRs[0].Controls); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("members of #17:\n got %q\nwant %q", got, want)
	}
	shared := []string{"pr/issue_42.events.json", "pr/issue_42.json", "pr/protection_main.json", "pr/rules_main.json"}
	if got := memberNames(res.Controls); strings.Join(got, " ") != strings.Join(shared, " ") {
		t.Errorf("shared members:\n got %q\nwant %q", got, shared)
	}
	for _, m := range append(res.PRs[0].Controls, res.Controls...) {
		if m.From.Arcname != m.Name || m.From.Source != prsource.Fetched || len(m.From.Requests) == 0 {
			t.Errorf("%s: source %+v", m.Name, m.From)
		}
		if !json.Valid(m.Data) {
			t.Errorf("%s is not JSON: %s", m.Name, m.Data)
		}
	}
	// Lists are GitHub's elements byte for byte, joined into one array.
	fixture := githubtest.Fixture(t, "api/repos/acme/app/pulls/17/commits.json")
	if got := res.PRs[0].Controls[2].Data; !bytes.Equal(bytes.TrimSpace(got), fixture) {
		t.Errorf("commits.json is not the fixture's bytes:\n%s", got)
	}
	// The protection needs admin rights: the 404 is recorded, not a warning.
	for _, m := range res.Controls {
		if m.Name == controls.ProtectionName("main") && string(m.Data) != `{"not_readable":404,"message":"Not Found"}`+"\n" {
			t.Errorf("protection: %s", m.Data)
		}
	}
	var paths []string
	for _, r := range srv.Requests() {
		paths = append(paths, r.Path)
		if r.Header.Get("Authorization") != "Bearer ghp_testtoken123" {
			t.Errorf("%s without the token", r.Path)
		}
	}
	for _, p := range []string{"/repos/acme/app/pulls/17/commits", "/repos/acme/app/issues/17/timeline", "/repos/acme/app/rules/branches/main",
		"/repos/acme/app/branches/main/protection", "/repos/acme/app/issues/42/events"} {
		if !strings.Contains(strings.Join(paths, " "), p) {
			t.Errorf("no request for %s", p)
		}
	}
}

// Without Query.Controls nothing more is asked.
func TestFetchNoControls(t *testing.T) {
	t.Parallel()
	srv := githubtest.New(t, "")
	res := Fetch(context.Background(), newClient(t, srv.APIURL(), ""), Query{Ticket: eng42(t), Numbers: []int{17}})
	if len(res.Controls) != 0 || len(res.PRs[0].Controls) != 0 {
		t.Fatalf("controls fetched without Query.Controls")
	}
	for _, r := range srv.Requests() {
		if strings.Contains(r.Path, "timeline") || strings.Contains(r.Path, "rules") {
			t.Errorf("asked for %s", r.Path)
		}
	}
}

// A rate limit while fetching the evidence stops the fetch with one warning; the pull request is kept.
func TestFetchControlsRateLimited(t *testing.T) {
	t.Parallel()
	srv := githubtest.New(t, "")
	srv.Handle("/repos/acme/app/issues/17/timeline", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Limit", "60")
		w.Header().Set("X-RateLimit-Reset", "1767229200")
		w.WriteHeader(http.StatusForbidden)
		w.Write([]byte(`{"message":"API rate limit exceeded","documentation_url":"https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting"}`))
	})
	res := Fetch(context.Background(), newClient(t, srv.APIURL(), ""), Query{Ticket: eng42(t), Numbers: []int{17}, Controls: true})
	if len(res.PRs) != 1 || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "rate limit") {
		t.Fatalf("PRs %v, warnings %q", numbers(res.PRs), res.Warnings)
	}
	if got := memberNames(res.PRs[0].Controls); len(got) != 1 || got[0] != controls.CommitsName(17) {
		t.Errorf("members %q: want only the commits fetched before the limit", got)
	}
}

// Check runs and statuses come in pages (Link header, as GitHub documents for both): every page is read and
// the runs joined into one object; the required check on page 2 is kept.
func TestFetchControlsCheckRunsPaged(t *testing.T) {
	t.Parallel()
	srv := githubtest.New(t, "")
	paged := func(key string, total int, item func(i int) string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			page := r.URL.Query().Get("page")
			if r.URL.Query().Get("per_page") != "100" {
				t.Errorf("%s asked without per_page=100", r.URL)
			}
			from, to := 0, 100
			link := fmt.Sprintf(`<%s%s?per_page=100&page=2>; rel="next", <%s%s?per_page=100&page=2>; rel="last"`,
				srv.URL, r.URL.Path, srv.URL, r.URL.Path)
			if page == "2" {
				from, to = 100, total
				link = fmt.Sprintf(`<%s%s?per_page=100&page=1>; rel="prev", <%s%s?per_page=100&page=1>; rel="first"`,
					srv.URL, r.URL.Path, srv.URL, r.URL.Path)
			}
			var items []string
			for i := from; i < to; i++ {
				items = append(items, item(i))
			}
			w.Header().Set("Link", link)
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"total_count":%d,%q:[%s],"sha":%q}`, total, key, strings.Join(items, ","), head17)
		}
	}
	srv.Handle("/repos/acme/app/commits/"+head17+"/check-runs", paged("check_runs", 150, func(i int) string {
		name := fmt.Sprintf("lint-%d", i)
		if i == 120 {
			name = "build"
		}
		return fmt.Sprintf(`{"id":%d,"name":%q,"status":"completed","conclusion":"success","head_sha":%q}`, 9000+i, name, head17)
	}))
	srv.Handle("/repos/acme/app/commits/"+head17+"/status", paged("statuses", 101, func(i int) string {
		return fmt.Sprintf(`{"id":%d,"context":"ci/%d","state":"success"}`, 8000+i, i)
	}))
	res := Fetch(context.Background(), newClient(t, srv.APIURL(), ""), Query{Ticket: issue42(t), Numbers: []int{17}, Controls: true})
	if len(res.Warnings) != 0 {
		t.Fatalf("warnings %q", res.Warnings)
	}
	got := map[string]Member{}
	for _, m := range res.PRs[0].Controls {
		got[m.Name] = m
	}
	var runs struct {
		TotalCount int               `json:"total_count"`
		CheckRuns  []json.RawMessage `json:"check_runs"`
		SHA        string            `json:"sha"`
	}
	m := got[controls.CheckRunsName(17, head17)]
	if err := json.Unmarshal(m.Data, &runs); err != nil || runs.TotalCount != 150 || len(runs.CheckRuns) != 150 || runs.SHA != head17 {
		t.Fatalf("check runs: %v, total %d, %d runs, sha %q", err, runs.TotalCount, len(runs.CheckRuns), runs.SHA)
	}
	if !bytes.Contains(runs.CheckRuns[120], []byte(`"name":"build"`)) {
		t.Errorf("run 120 is %s", runs.CheckRuns[120])
	}
	if len(m.From.Requests) != 2 {
		t.Errorf("sources of the check runs: %+v", m.From.Requests)
	}
	var st struct {
		Statuses []json.RawMessage `json:"statuses"`
	}
	if err := json.Unmarshal(got[controls.StatusName(17, head17)].Data, &st); err != nil || len(st.Statuses) != 101 {
		t.Errorf("statuses: %v, %d", err, len(st.Statuses))
	}
}

// A page whose array is not one (a hostile or broken server) is a warning, not a member.
func TestFetchControlsCheckRunsNotAList(t *testing.T) {
	t.Parallel()
	srv := githubtest.New(t, "")
	srv.Handle("/repos/acme/app/commits/"+head17+"/check-runs", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"total_count":1,"check_runs":{"name":"build"}}`)
	})
	res := Fetch(context.Background(), newClient(t, srv.APIURL(), ""), Query{Ticket: issue42(t), Numbers: []int{17}, Controls: true})
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "check runs of "+head17) {
		t.Fatalf("warnings %q", res.Warnings)
	}
}

func issue42(t *testing.T) ticket.Ticket {
	tk, err := ticket.Parse("github", "#42")
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

// The members of CODEOWNERS teams: a team the token may read is its members, a 403 or 404 is recorded as not
// readable, and a rate limit stops the rest with a warning.
func TestTeamMembers(t *testing.T) {
	t.Parallel()
	srv := githubtest.New(t, "")
	srv.Handle("/orgs/acme/teams/payments/members", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `[{"login":"rita","id":2,"type":"User"}]`)
	})
	srv.Handle("/orgs/acme/teams/secret/members", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, `{"message":"Resource not accessible by integration"}`)
	})
	srv.Handle("/orgs/acme/teams/limited/members", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Limit", "60")
		w.Header().Set("X-RateLimit-Reset", "1767229200")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, `{"message":"API rate limit exceeded"}`)
	})
	c := newClient(t, srv.APIURL(), "")
	ms, warnings, stopped := c.TeamMembers(context.Background(), [][2]string{{"Acme", "Payments"}, {"acme", "secret"}, {"acme", "limited"}, {"acme", "never"}})
	if !stopped {
		t.Errorf("a rate limit did not stop the team requests")
	}
	if len(ms) != 2 || ms[0].Name != "pr/team_acme_payments.json" || ms[1].Name != "pr/team_acme_secret.json" {
		t.Fatalf("members %q", memberNames(ms))
	}
	if !bytes.Contains(ms[0].Data, []byte(`"login":"rita"`)) || ms[0].From.Arcname != ms[0].Name {
		t.Errorf("payments: %s %+v", ms[0].Data, ms[0].From)
	}
	if string(ms[1].Data) != `{"not_readable":403,"message":"Resource not accessible by integration"}`+"\n" {
		t.Errorf("secret: %s", ms[1].Data)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "pr/team_acme_limited.json: GitHub's API rate limit is used up") {
		t.Errorf("warnings %q", warnings)
	}
	for _, r := range srv.Requests() {
		if strings.Contains(r.Path, "/never/") {
			t.Errorf("asked for %s after the rate limit", r.Path)
		}
	}
}
