package github

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/fifotest"
	"github.com/git-bernstein/git-bernstein/internal/github/githubtest"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

var acme = Repo{Owner: "acme", Name: "app"}

func eng42(t testing.TB) ticket.Ticket {
	tk, err := ticket.Parse("jira", "ENG-42")
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

func newClient(t testing.TB, apiURL, token string) *Client {
	t.Helper()
	c, err := NewClient(acme, Config{APIURL: apiURL, Token: token, Timeout: 5 * time.Second, RetryDelay: -1, UserAgent: "git-bernstein/test",
		Now: func() time.Time { return time.Date(2026, 1, 1, 0, 30, 0, 0, time.UTC) }})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// tied is what FindCommits returns for a ticket merged through pull request 17.
func tied() *discover.Commits {
	return &discover.Commits{Commits: []string{"1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222"},
		Details: []discover.CommitDetail{
			{SHA: "1111111111111111111111111111111111111111", Parents: []string{"0000000000000000000000000000000000000000"}, Subject: "Add login form"},
			{SHA: "2222222222222222222222222222222222222222", Parents: []string{"0000000000000000000000000000000000000000", "1111111111111111111111111111111111111111"},
				Subject: "Merge pull request #17 from acme/ENG-42-login"},
		}}
}

func TestFetchFromServer(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, prefix, token string
	}{
		{"public API, no token", "", ""},
		{"public API, token", "", "ghp_testtoken123"},
		{"GitHub Enterprise /api/v3/", "/api/v3", "ghp_testtoken123"},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := githubtest.New(t, c.prefix)
			res := Fetch(context.Background(), newClient(t, srv.APIURL(), c.token), Query{Ticket: eng42(t), Commits: tied()})
			if len(res.Warnings) != 0 || len(res.Missing) != 0 {
				t.Fatalf("warnings %q, missing %v", res.Warnings, res.Missing)
			}
			// 17 from the merge commit and the commit search, 21 by its head branch; 18 (ENG-420-reset) is not ours.
			if got := numbers(res.PRs); !reflect.DeepEqual(got, []int{17, 21}) {
				t.Fatalf("pull requests %v, want [17 21]", got)
			}
			if !bytes.Equal(res.PRs[0].Payload, githubtest.Fixture(t, "pulls_17.json")) {
				t.Error("pull request 17's payload is not the API's bytes")
			}
			if res.Landed == nil || *res.Landed != 17 {
				t.Errorf("landed %v, want 17 (merged; 21 is newer but unmerged)", res.Landed)
			}
			// Reviews: both pages, each element byte for byte.
			var got []json.RawMessage
			if err := json.Unmarshal(res.PRs[0].Reviews, &got); err != nil {
				t.Fatal(err)
			}
			var want []json.RawMessage
			for _, page := range []string{"pulls_17_reviews_1.json", "pulls_17_reviews_2.json"} {
				var items []json.RawMessage
				json.Unmarshal(githubtest.Fixture(t, page), &items)
				want = append(want, items...)
			}
			if len(got) != 3 || !reflect.DeepEqual(got, want) {
				t.Errorf("reviews %s, want the 3 reviews of both pages", res.PRs[0].Reviews)
			}
			if string(res.PRs[1].Reviews) != "[]\n" {
				t.Errorf("reviews of 21 %q", res.PRs[1].Reviews)
			}

			paths := map[string]int{}
			for _, r := range srv.Requests() {
				paths[r.Method+" "+r.Path+"?"+r.Query]++
				if r.Header.Get("Accept") != "application/vnd.github+json" || r.Header.Get("X-GitHub-Api-Version") != "2022-11-28" {
					t.Errorf("%s: Accept %q, X-GitHub-Api-Version %q", r.Path, r.Header.Get("Accept"), r.Header.Get("X-GitHub-Api-Version"))
				}
				if auth := r.Header.Get("Authorization"); (c.token == "" && auth != "") || (c.token != "" && auth != "Bearer "+c.token) {
					t.Errorf("%s: Authorization %q with token %q", r.Path, auth, c.token)
				}
				if r.Header.Get("User-Agent") != "git-bernstein/test" {
					t.Errorf("User-Agent %q", r.Header.Get("User-Agent"))
				}
			}
			wantPaths := map[string]int{
				"GET /repos/acme/app/commits/2222222222222222222222222222222222222222/pulls?per_page=100": 1,
				"GET /repos/acme/app/pulls?direction=desc&per_page=100&sort=updated&state=all":            1,
				"GET /repos/acme/app/pulls/17?":                            1,
				"GET /repos/acme/app/pulls/17/reviews?per_page=100":        1,
				"GET /repos/acme/app/pulls/17/reviews?per_page=100&page=2": 1,
				"GET /repos/acme/app/pulls/21?":                            1,
				"GET /repos/acme/app/pulls/21/reviews?per_page=100":        1,
			}
			if !reflect.DeepEqual(paths, wantPaths) {
				t.Errorf("requests\n%v\nwant\n%v", paths, wantPaths)
			}
		})
	}
}

func numbers(prs []PR) []int {
	var out []int
	for _, p := range prs {
		out = append(out, p.Number)
	}
	return out
}

// closedPort returns a local address nothing listens on, so connecting is refused at once.
func closedPort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/"
}

func jsonAnswer(w http.ResponseWriter, code int, body string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	fmt.Fprint(w, body)
}

func TestFetchFailures(t *testing.T) {
	t.Parallel()
	// Lists answer empty unless the case says otherwise, so pull request 17 (from --pr) is the one that fails.
	lists := func(w http.ResponseWriter, r *http.Request) bool {
		if strings.HasSuffix(r.URL.Path, "/pulls") {
			jsonAnswer(w, 200, "[]")
			return true
		}
		return false
	}
	cases := []struct {
		name     string
		handler  http.HandlerFunc // nil: a refused connection
		token    string
		timeout  time.Duration
		want     []string // substrings of the one warning
		requests int32    // -1: don't check
	}{
		{name: "refused", want: []string{"pull request #17 and the search for pull requests of ENG-42: cannot reach GitHub at http://127.0.0.1:", "(connection refused)", "--no-pr"}, requests: -1},
		{name: "timeout", timeout: 150 * time.Millisecond, handler: func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}, want: []string{"pull request #17 and the search", "gave no answer within 150ms", "check the network"}, requests: 1},
		{name: "timeout in the body", timeout: 150 * time.Millisecond, handler: func(w http.ResponseWriter, r *http.Request) {
			if lists(w, r) {
				return
			}
			w.Header().Set("Content-Length", "1000")
			fmt.Fprint(w, `{"number":17,`)
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}, want: []string{"pull request #17: GitHub at", "gave no answer within 150ms"}, requests: 2},
		{name: "401 with a token", token: "ghp_badtoken", handler: func(w http.ResponseWriter, r *http.Request) {
			jsonAnswer(w, 401, `{"message":"Bad credentials","documentation_url":"https://docs.github.com/rest","status":"401"}`)
		}, want: []string{"pull request #17", "GitHub refused the token (401 Bad credentials)", "set GITHUB_TOKEN"}, requests: 1},
		{name: "401 without a token", handler: func(w http.ResponseWriter, r *http.Request) {
			jsonAnswer(w, 401, `{"message":"Requires authentication","documentation_url":"https://docs.github.com/rest"}`)
		}, want: []string{"GitHub asks for credentials (401 Requires authentication)", "set GITHUB_TOKEN to a token that can read acme/app"}, requests: 1},
		{name: "403 primary rate limit", handler: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-RateLimit-Limit", "60")
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.Header().Set("X-RateLimit-Reset", "1767229200") // 2026-01-01 01:00:00 UTC
			jsonAnswer(w, 403, `{"message":"API rate limit exceeded for 192.0.2.1.","documentation_url":"https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting"}`)
		}, want: []string{"rate limit is used up (60 requests an hour; it resets at 2026-01-01 01:00:00 UTC, in 30m0s)", "set GITHUB_TOKEN for a higher limit"}, requests: 1},
		{name: "403 secondary rate limit", handler: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "60")
			jsonAnswer(w, 403, `{"message":"You have exceeded a secondary rate limit.","documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"}`)
		}, want: []string{"secondary rate limit was hit (retry after 1m0s)", "wait and run bundle again"}, requests: 1},
		{name: "429", handler: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "120")
			jsonAnswer(w, 429, `{"message":"Too Many Requests"}`)
		}, want: []string{"rate limit is used up (it resets at 2026-01-01 00:32:00 UTC, in 2m0s)"}, requests: 1},
		{name: "403 forbidden", token: "ghp_x1234", handler: func(w http.ResponseWriter, r *http.Request) {
			jsonAnswer(w, 403, `{"message":"Resource protected by organization SAML enforcement."}`)
		}, want: []string{"GitHub denied access to acme/app (403 Resource protected", "SSO"}, requests: 1},
		{name: "404 pull request", handler: func(w http.ResponseWriter, r *http.Request) {
			if !lists(w, r) {
				githubtest.NotFound(w)
			}
		}, want: []string{"pull request #17: acme/app has no pull request #17 (404 Not Found)", "if acme/app is private, set GITHUB_TOKEN"}, requests: 2},
		{name: "404 repository", handler: func(w http.ResponseWriter, r *http.Request) { githubtest.NotFound(w) },
			want: []string{"pull request #17 and the search for pull requests of ENG-42: GitHub does not know the repository acme/app"}, requests: 1},
		{name: "5xx twice", handler: func(w http.ResponseWriter, r *http.Request) {
			if !lists(w, r) {
				jsonAnswer(w, 502, `{"message":"Server Error"}`)
			}
		}, want: []string{"pull request #17: GitHub failed twice (502 Server Error)", "run bundle again later"}, requests: 3},
		{name: "HTML instead of JSON", handler: func(w http.ResponseWriter, r *http.Request) {
			if !lists(w, r) {
				w.Header().Set("Content-Type", "text/html")
				fmt.Fprint(w, "<!DOCTYPE html><html><body>Sign in</body></html>")
			}
		}, want: []string{"pull request #17: the answer for #17 is not that pull request's JSON (not a JSON object)", "/api/v3"}, requests: 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			apiURL := closedPort(t)
			var n atomic.Int32
			if c.handler != nil {
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					n.Add(1)
					c.handler(w, r)
				}))
				defer srv.Close()
				apiURL = srv.URL
			}
			cl := newClient(t, apiURL, c.token)
			if c.timeout > 0 {
				cl.timeout = c.timeout
			}
			res := Fetch(context.Background(), cl, Query{Ticket: eng42(t), Numbers: []int{17}, Commits: &discover.Commits{}})
			if len(res.Warnings) != 1 {
				t.Fatalf("warnings %q, want one", res.Warnings)
			}
			for _, w := range c.want {
				if !strings.Contains(res.Warnings[0], w) {
					t.Errorf("warning %q\nlacks %q", res.Warnings[0], w)
				}
			}
			if len(res.PRs) != 0 || !reflect.DeepEqual(res.Missing, []int{17}) || res.Landed != nil {
				t.Errorf("PRs %v, missing %v, landed %v", numbers(res.PRs), res.Missing, res.Landed)
			}
			if c.requests >= 0 && n.Load() != c.requests {
				t.Errorf("%d requests, want %d", n.Load(), c.requests)
			}
		})
	}
}

func TestFetchRetriesOnceAfterServerError(t *testing.T) {
	t.Parallel()
	srv := githubtest.New(t, "")
	var calls atomic.Int32
	srv.Handle("/repos/acme/app/pulls/17", func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			jsonAnswer(w, 503, `{"message":"Service Unavailable"}`)
			return
		}
		w.Write(githubtest.Fixture(t, "pulls_17.json"))
	})
	res := Fetch(context.Background(), newClient(t, srv.APIURL(), ""), Query{Ticket: eng42(t), Numbers: []int{17}})
	if len(res.Warnings) != 0 || len(res.PRs) != 2 || calls.Load() != 2 {
		t.Fatalf("warnings %q, PRs %v, %d calls", res.Warnings, numbers(res.PRs), calls.Load())
	}
}

func TestFetchNeverLeaksTheToken(t *testing.T) {
	t.Parallel()
	const token = "ghp_SECRET_abcdefghijklmnop"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// A hostile or broken server that repeats what it was sent.
		jsonAnswer(w, 400, fmt.Sprintf(`{"message":"bad header %s"}`, r.Header.Get("Authorization")))
	}))
	defer srv.Close()
	res := Fetch(context.Background(), newClient(t, srv.URL, token), Query{Ticket: eng42(t), Numbers: []int{17}})
	if len(res.Warnings) == 0 {
		t.Fatal("no warning")
	}
	for _, w := range res.Warnings {
		if strings.Contains(w, token) || !strings.Contains(w, "REDACTED") {
			t.Errorf("warning %q", w)
		}
	}
}

func TestFetchOffline(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "pr")
	os.MkdirAll(dir, 0o755)
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("pr_17.json", string(githubtest.Fixture(t, "pulls_17.json")))
	write("pr_17.reviews.json", `[{"id":803,"state":"APPROVED"}]`)
	write("named.json", `{"number":30,"title":"x","head":{"ref":"eng-42-more"},"created_at":"2026-02-01T00:00:00Z"}`)
	write("other.json", `{"number":31,"title":"ENG-420 other","head":{"ref":"ENG-420"}}`)
	write("broken.json", `not json`)
	os.Symlink(filepath.Join(dir, "named.json"), filepath.Join(dir, "link.json"))

	// GitHub unreachable: 17 (named by the merge commit) and 30 (naming the ticket) come from .sdd/pr; 31 not.
	res := Fetch(context.Background(), newClient(t, closedPort(t), ""), Query{Ticket: eng42(t), Commits: tied(), SDD: filepath.Dir(dir)})
	if got := numbers(res.PRs); !reflect.DeepEqual(got, []int{17, 30}) {
		t.Fatalf("PRs %v, want [17 30]; warnings %q", got, res.Warnings)
	}
	if !bytes.Equal(res.PRs[0].Payload, githubtest.Fixture(t, "pulls_17.json")) || string(res.PRs[0].Reviews) != `[{"id":803,"state":"APPROVED"}]` {
		t.Error("offline copy not taken byte for byte")
	}
	if res.PRs[0].Offline != filepath.Join(dir, "pr_17.json") || res.Landed == nil || *res.Landed != 17 || len(res.Missing) != 0 {
		t.Errorf("offline %q landed %v missing %v", res.PRs[0].Offline, res.Landed, res.Missing)
	}
	if len(res.Warnings) != 2 || !strings.Contains(res.Warnings[0], "broken.json skipped") ||
		!strings.Contains(res.Warnings[1], "pull requests #17, #30 and the search for pull requests of ENG-42: cannot reach GitHub") ||
		!strings.Contains(res.Warnings[1], "used the offline copy "+filepath.Join(dir, "pr_17.json")+" for #17, ") {
		t.Errorf("warnings %q", res.Warnings)
	}

	// The API wins where it answers: 17 from the server, 30 from .sdd/pr since the server has no #30.
	srv := githubtest.New(t, "")
	res = Fetch(context.Background(), newClient(t, srv.APIURL(), ""), Query{Ticket: eng42(t), Commits: tied(), SDD: filepath.Dir(dir)})
	if got := numbers(res.PRs); !reflect.DeepEqual(got, []int{17, 21, 30}) || res.PRs[0].Offline != "" || res.PRs[2].Offline == "" {
		t.Fatalf("PRs %v warnings %q", got, res.Warnings)
	}
	if len(res.Warnings) != 2 || !strings.Contains(res.Warnings[1], "pull request #30: acme/app has no pull request #30 (404 Not Found); used the offline copy") {
		t.Errorf("warnings %q", res.Warnings)
	}

	// No repository known (no remote): quiet, offline copies only; 31 is used because it was asked for.
	res = Fetch(context.Background(), nil, Query{Ticket: eng42(t), Numbers: []int{31}, SDD: filepath.Dir(dir), Unavailable: ErrNoRemote})
	if got := numbers(res.PRs); !reflect.DeepEqual(got, []int{17, 30, 31}) {
		t.Fatalf("PRs %v", got)
	}
	if len(res.Warnings) != 1 { // broken.json only
		t.Errorf("warnings %q", res.Warnings)
	}
}

// The offline copies are read without following a symlink: a symlinked .sdd or .sdd/pr is skipped with a
// warning, and so is a FIFO or a symlink in place of a payload, without waiting.
func TestOfflineCopiesNeverFollowSymlinks(t *testing.T) {
	t.Parallel()
	payload := `{"number":30,"title":"ENG-42 elsewhere","head":{"ref":"x"}}`
	for _, tc := range []struct {
		name string
		lay  func(t *testing.T, sdd, outside string)
		want string // substring of the one warning; "" for none
	}{
		{".sdd is a symlink", func(t *testing.T, sdd, outside string) {
			if err := os.Symlink(outside, sdd); err != nil {
				t.Fatal(err)
			}
		}, ".sdd is a symbolic link"},
		{".sdd/pr is a symlink", func(t *testing.T, sdd, outside string) {
			os.MkdirAll(sdd, 0o755)
			if err := os.Symlink(filepath.Join(outside, "pr"), filepath.Join(sdd, "pr")); err != nil {
				t.Fatal(err)
			}
		}, "/pr is a symbolic link"},
		{"a payload is a symlink or a FIFO", func(t *testing.T, sdd, outside string) {
			os.MkdirAll(filepath.Join(sdd, "pr"), 0o755)
			os.Symlink(filepath.Join(outside, "pr", "pr_30.json"), filepath.Join(sdd, "pr", "pr_30.json"))
			if err := fifotest.Make(filepath.Join(sdd, "pr", "pr_31.json"), 0o644); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			outside := t.TempDir()
			os.MkdirAll(filepath.Join(outside, "pr"), 0o755)
			os.WriteFile(filepath.Join(outside, "pr", "pr_30.json"), []byte(payload), 0o644)
			sdd := filepath.Join(t.TempDir(), ".sdd")
			tc.lay(t, sdd, outside)
			done := make(chan *Result, 1)
			go func() {
				done <- Fetch(context.Background(), nil, Query{Ticket: eng42(t), SDD: sdd, Unavailable: ErrNoRemote})
			}()
			var res *Result
			select {
			case res = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("reading the offline copies hangs")
			}
			if len(res.PRs) != 0 {
				t.Errorf("read through a symlink: %v", numbers(res.PRs))
			}
			if tc.want == "" && len(res.Warnings) != 0 || tc.want != "" && (len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], tc.want)) {
				t.Errorf("warnings %q, want one with %q", res.Warnings, tc.want)
			}
		})
	}
}

func TestFetchWithoutRepository(t *testing.T) {
	t.Parallel()
	tk := eng42(t)
	res := Fetch(context.Background(), nil, Query{Ticket: tk, Unavailable: ErrNoRemote})
	if len(res.Warnings) != 0 || len(res.PRs) != 0 || res.Landed != nil {
		t.Errorf("a repository without remote: %+v", res)
	}
	res = Fetch(context.Background(), nil, Query{Ticket: tk, Numbers: []int{5}, Unavailable: ErrNoRemote})
	if len(res.Warnings) != 1 || !strings.HasPrefix(res.Warnings[0], "pull request #5: no GitHub repository known") {
		t.Errorf("warnings %q", res.Warnings)
	}
	other := fmt.Errorf("origin is on gitlab.com, not GitHub: give --github-repo and --github-api-url, or pass --no-pr")
	res = Fetch(context.Background(), nil, Query{Ticket: tk, Unavailable: other})
	if len(res.Warnings) != 1 || res.Warnings[0] != "the search for pull requests of ENG-42: "+other.Error() {
		t.Errorf("warnings %q", res.Warnings)
	}
}

// A warning about many pull requests names the first few and counts the rest (sixty numbers on the hook's one
// line on a monorepo said no more).
func TestFetchWithoutRepositoryNamesFewPullRequests(t *testing.T) {
	t.Parallel()
	var numbers []int
	for n := 1; n <= 60; n++ {
		numbers = append(numbers, 100+n)
	}
	res := Fetch(context.Background(), nil, Query{Ticket: eng42(t), Numbers: numbers, Unavailable: ErrNoRemote})
	want := "pull requests #101, #102, #103, #104, #105, #106, #107, #108 and 52 more: no GitHub repository known"
	if len(res.Warnings) != 1 || !strings.HasPrefix(res.Warnings[0], want) {
		t.Errorf("warnings %q, want one starting %q", res.Warnings, want)
	}
	for _, tc := range []struct {
		ns   []int
		want string
	}{
		{[]int{17, 30}, "#17, #30"},
		{[]int{1, 2, 3, 4, 5, 6, 7, 8}, "#1, #2, #3, #4, #5, #6, #7, #8"},
		{[]int{1, 2, 3, 4, 5, 6, 7, 8, 9}, "#1, #2, #3, #4, #5, #6, #7, #8 and 1 more"},
	} {
		if got := hashList(tc.ns); got != tc.want {
			t.Errorf("hashList(%v) = %q, want %q", tc.ns, got, tc.want)
		}
	}
}

func TestNumbersFromCommits(t *testing.T) {
	t.Parallel()
	c := &discover.Commits{Details: []discover.CommitDetail{
		{Parents: []string{"a"}, Subject: "Add login (#12)"},
		{Parents: []string{"a"}, Subject: "Add login (#13) and more"},
		{Parents: []string{"a"}, Subject: "Merge pull request #14 from acme/x"}, // not a merge: one parent
		{Parents: []string{"a", "b"}, Subject: "Merge pull request #15 from acme/ENG-42-x"},
		{Parents: []string{"a", "b"}, Subject: "Merge branch 'ENG-42' (#16)"},
		{Parents: []string{"a"}, Subject: "Fix ENG-42 (#0)"},
	}}
	if got := NumbersFromCommits(c); !reflect.DeepEqual(got, []int{12, 15}) {
		t.Errorf("NumbersFromCommits = %v, want [12 15]", got)
	}
}

func TestLanded(t *testing.T) {
	t.Parallel()
	pr := func(n int, merged, created string) PR {
		m, c := "null", "null"
		if merged != "" {
			m = `"` + merged + `"`
		}
		if created != "" {
			c = `"` + created + `"`
		}
		return PR{Number: n, Payload: []byte(fmt.Sprintf(`{"number":%d,"merged_at":%s,"created_at":%s}`, n, m, c))}
	}
	cases := []struct {
		name string
		prs  []PR
		want int // 0: nil
	}{
		{"none", nil, 0},
		{"latest merged wins over newer unmerged", []PR{pr(3, "2026-01-02T00:00:00Z", "2026-01-01T00:00:00Z"), pr(4, "", "2026-01-05T00:00:00Z")}, 3},
		{"two merged: the later", []PR{pr(3, "2026-01-03T00:00:00Z", ""), pr(2, "2026-01-04T00:00:00Z", "")}, 2},
		{"none merged: newest created", []PR{pr(9, "", "2026-01-01T00:00:00Z"), pr(5, "", "2026-01-02T00:00:00Z")}, 5},
		{"same created: higher number", []PR{pr(5, "", "2026-01-02T00:00:00Z"), pr(6, "", "2026-01-02T00:00:00Z")}, 6},
		{"no times: higher number", []PR{pr(7, "", ""), pr(8, "", "")}, 8},
	}
	for _, c := range cases {
		got := Landed(c.prs)
		if (got == nil) != (c.want == 0) || (got != nil && *got != c.want) {
			t.Errorf("%s: Landed = %v, want %d", c.name, got, c.want)
		}
	}
}

func TestNewClientURL(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"":                                DefaultAPIURL,
		"https://api.github.com":          "https://api.github.com/",
		"https://ghe.example.com/api/v3":  "https://ghe.example.com/api/v3/",
		"https://ghe.example.com/api/v3/": "https://ghe.example.com/api/v3/",
		"ftp://x/":                        "",
		"not a url":                       "",
		"https://user:pw@ghe.example.com": "",
	} {
		c, err := NewClient(acme, Config{APIURL: in})
		switch {
		case want == "" && err == nil:
			t.Errorf("NewClient(%q) accepted", in)
		case want == "" && strings.Contains(err.Error(), "pw@"):
			t.Errorf("NewClient(%q): %v repeats the password", in, err)
		case want != "" && (err != nil || c.APIURL() != want):
			t.Errorf("NewClient(%q) = %v, %v; want %s", in, c, err, want)
		}
	}
}
