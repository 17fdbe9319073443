package github

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/github/githubtest"
	"github.com/git-bernstein/git-bernstein/internal/prsource"
)

const secretToken = "ghp_SECRET_abcdefghijklmnop"

// recorder is an httptest server that notes the Authorization header of every request.
type authLog struct {
	mu   sync.Mutex
	seen []string // "path auth"
}

func (l *authLog) note(r *http.Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seen = append(l.seen, r.URL.Path+" "+r.Header.Get("Authorization"))
}

func (l *authLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.seen...)
}

// The token goes to the API's own host only: a redirect to another host is followed without it, a redirect on
// the same host (GitHub's 301 for a renamed repository) keeps it.
func TestTokenStaysOnTheAPIHost(t *testing.T) {
	t.Parallel()
	payload := githubtest.Fixture(t, "pulls_17.json")
	var other authLog
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		other.note(r)
		jsonAnswer(w, 200, string(payload))
	}))
	defer elsewhere.Close()
	var api authLog
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		api.note(r)
		switch r.URL.Path {
		case "/repos/acme/app/pulls/17":
			http.Redirect(w, r, elsewhere.URL+"/repositories/1/pulls/17", http.StatusFound)
		case "/repos/acme/app/pulls/21":
			http.Redirect(w, r, "/repositories/1/pulls/21", http.StatusMovedPermanently)
		case "/repositories/1/pulls/21":
			w.Write(githubtest.Fixture(t, "pulls_21.json"))
		case "/repos/acme/app/pulls":
			jsonAnswer(w, 200, "[]")
		default:
			jsonAnswer(w, 200, "[]") // reviews
		}
	}))
	defer srv.Close()

	res := Fetch(context.Background(), newClient(t, srv.URL, secretToken), Query{Ticket: eng42(t), Numbers: []int{17, 21}, Commits: &discover.Commits{}})
	if got := numbers(res.PRs); !reflect.DeepEqual(got, []int{17, 21}) || len(res.Warnings) != 0 {
		t.Fatalf("PRs %v warnings %q: both redirects must be followed", got, res.Warnings)
	}
	for _, seen := range other.all() {
		if !strings.HasSuffix(seen, " ") {
			t.Errorf("the other host got a token: %q", seen)
		}
	}
	if len(other.all()) == 0 {
		t.Error("the cross-host redirect was not followed")
	}
	for _, seen := range api.all() {
		if !strings.HasSuffix(seen, " Bearer "+secretToken) {
			t.Errorf("the API host, same-host redirect included, must get the token: %q", seen)
		}
	}
}

// hostileAnswers are a gzip answer that inflates to gigabytes and an answer that never ends.
func hostileAnswers() []struct {
	name  string
	serve func(w http.ResponseWriter, r *http.Request)
} {
	chunk := bytes.Repeat([]byte("{},"), 1<<20/3) // 1 MiB of empty objects: typed decoding made each a PullRequest
	var member bytes.Buffer                       // one gzip member of it, about 3 KiB
	zw, _ := gzip.NewWriterLevel(&member, gzip.BestCompression)
	zw.Write(chunk)
	zw.Close()
	return []struct {
		name  string
		serve func(w http.ResponseWriter, r *http.Request)
	}{
		{"gzip bomb (2 MB inflating to 2 GiB)", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Encoding", "gzip")
			var first bytes.Buffer
			zw := gzip.NewWriter(&first)
			zw.Write([]byte("["))
			zw.Close()
			w.Write(first.Bytes())
			// Concatenated gzip members are one stream to a gzip reader.
			for i := 0; i < 2048 && r.Context().Err() == nil; i++ {
				w.Write(member.Bytes())
			}
		}},
		{"endless body", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte("["))
			for r.Context().Err() == nil {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		}},
	}
}

// A hostile server (hostileAnswers): each answer stops at the answer budget and says what happened.
func TestHostileAnswersAreBounded(t *testing.T) {
	t.Parallel()
	for _, tc := range hostileAnswers() {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(tc.serve))
			defer srv.Close()
			c := newClient(t, srv.URL, "")
			c.timeout = 20 * time.Second
			// The budget's own warning is the proof that the fetch stopped at 32 MiB; how long that took and what
			// it allocated are measured by BenchmarkHostileAnswers, not asserted here (a loaded machine makes them
			// flaky).
			res := Fetch(context.Background(), c, Query{Ticket: eng42(t), Numbers: []int{17}, Commits: tied()})
			if len(res.PRs) != 0 || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "passed 32 MiB in all (after decompression)") {
				t.Errorf("PRs %v warnings %q", numbers(res.PRs), res.Warnings)
			}
		})
	}
}

// BenchmarkHostileAnswers measures what TestHostileAnswersAreBounded does not assert: how long a fetch takes to
// stop at the 32 MiB budget against each hostile answer, and what it allocates (B/op: a small multiple of the
// budget, about 75 MiB here in December 2026, not the gigabytes offered).
func BenchmarkHostileAnswers(b *testing.B) {
	for _, tc := range hostileAnswers() {
		b.Run(tc.name, func(b *testing.B) {
			srv := httptest.NewServer(http.HandlerFunc(tc.serve))
			defer srv.Close()
			c := newClient(b, srv.URL, "")
			c.timeout = 20 * time.Second
			tk := eng42(b)
			b.ReportAllocs()
			for b.Loop() {
				res := Fetch(context.Background(), c, Query{Ticket: tk, Numbers: []int{17}, Commits: tied()})
				if len(res.Warnings) != 1 {
					b.Fatalf("warnings %q", res.Warnings)
				}
			}
		})
	}
}

// The whole fetch keeps to one deadline, however many requests a slow server makes it wait for.
func TestFetchKeepsOneDeadline(t *testing.T) {
	t.Parallel()
	var served atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		time.Sleep(100 * time.Millisecond) // each answer is slow, none too slow on its own
		if strings.HasSuffix(r.URL.Path, "/reviews") || strings.HasSuffix(r.URL.Path, "/pulls") {
			jsonAnswer(w, 200, "[]")
			return
		}
		var n int
		fmt.Sscanf(r.URL.Path, "/repos/acme/app/pulls/%d", &n)
		jsonAnswer(w, 200, fmt.Sprintf(`{"number":%d}`, n))
	}))
	defer srv.Close()
	c := newClient(t, srv.URL, "")
	c.timeout = 700 * time.Millisecond
	nums := make([]int, 40)
	for i := range nums {
		nums[i] = i + 1
	}
	res := Fetch(context.Background(), c, Query{Ticket: eng42(t), Numbers: nums, Commits: &discover.Commits{}})
	// 40 answers of 100 ms each do not fit in 700 ms: the fetch gave up before asking for them all.
	if n := served.Load(); n >= int32(len(nums)) {
		t.Errorf("the server answered %d requests: the 700ms budget did not stop the fetch", n)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "gave no answer within 700ms") {
		t.Errorf("warnings %q", res.Warnings)
	}
}

// An answer that repeats the token is not used: not packed, and the warning does not repeat the token either.
func TestEchoedTokenIsNotPacked(t *testing.T) {
	t.Parallel()
	srv := githubtest.New(t, "")
	srv.Handle("/repos/acme/app/pulls/17", func(w http.ResponseWriter, r *http.Request) {
		jsonAnswer(w, 200, `{"number":17,"title":"debug","headers":{"authorization":"`+r.Header.Get("Authorization")+`"}}`)
	})
	res := Fetch(context.Background(), newClient(t, srv.APIURL(), secretToken), Query{Ticket: eng42(t), Commits: tied()})
	if got := numbers(res.PRs); !reflect.DeepEqual(got, []int{21}) {
		t.Errorf("PRs %v, want only 21 (17's answer held the token)", got)
	}
	for _, pr := range res.PRs {
		if bytes.Contains(pr.Payload, []byte(secretToken)) || bytes.Contains(pr.Reviews, []byte(secretToken)) {
			t.Errorf("the token is in #%d's payload", pr.Number)
		}
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "pull request #17: GitHub's answer repeats the token, so it was not used or packed") ||
		strings.Contains(res.Warnings[0], secretToken) {
		t.Errorf("warnings %q", res.Warnings)
	}
}

// A 401 asking for a one-time password is an authentication problem, said as one.
func TestOTPRequiredIsAnAuthenticationProblem(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-GitHub-OTP", "required; app")
		jsonAnswer(w, 401, `{"message":"Must specify two-factor authentication OTP code.","documentation_url":"https://docs.github.com/rest"}`)
	}))
	defer srv.Close()
	res := Fetch(context.Background(), newClient(t, srv.URL, "hunter2-password"), Query{Ticket: eng42(t), Numbers: []int{17}, Commits: &discover.Commits{}})
	if len(res.Warnings) != 1 {
		t.Fatalf("warnings %q", res.Warnings)
	}
	w := res.Warnings[0]
	for _, want := range []string{"GitHub asks for a one-time password", "not a token", "personal access token"} {
		if !strings.Contains(w, want) {
			t.Errorf("warning %q lacks %q", w, want)
		}
	}
	for _, bad := range []string{"cannot reach", "[]", srv.URL + "/repos"} {
		if strings.Contains(w, bad) {
			t.Errorf("warning %q says %q", w, bad)
		}
	}
}

// Answers are kept with their ETags: the second run asks If-None-Match, gets 304s (free of rate limit) and
// packs the same bytes. The cache never holds the token.
func TestETagCache(t *testing.T) {
	t.Parallel()
	srv := githubtest.New(t, "")
	var mu sync.Mutex
	notModified := 0
	for _, p := range []string{"/repos/acme/app/pulls/17", "/repos/acme/app/pulls/21", "/repos/acme/app/pulls"} {
		name := map[string]string{"/repos/acme/app/pulls/17": "pulls_17.json", "/repos/acme/app/pulls/21": "pulls_21.json", "/repos/acme/app/pulls": "pulls_list.json"}[p]
		srv.Handle(p, func(w http.ResponseWriter, r *http.Request) {
			etag := `"` + name + `"`
			if r.Header.Get("If-None-Match") == etag {
				mu.Lock()
				notModified++
				mu.Unlock()
				w.Header().Set("ETag", etag)
				w.WriteHeader(http.StatusNotModified)
				return
			}
			w.Header().Set("ETag", etag)
			jsonAnswer(w, 200, string(githubtest.Fixture(t, name)))
		})
	}
	dir := filepath.Join(t.TempDir(), "github-cache")
	fetch := func() *Result {
		c, err := NewClient(acme, Config{APIURL: srv.APIURL(), Token: secretToken, Timeout: 5 * time.Second, RetryDelay: -1, CacheDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		return Fetch(context.Background(), c, Query{Ticket: eng42(t), Commits: tied()})
	}
	first, second := fetch(), fetch()
	if len(first.Warnings)+len(second.Warnings) != 0 || !reflect.DeepEqual(numbers(second.PRs), []int{17, 21}) {
		t.Fatalf("warnings %q %q, PRs %v", first.Warnings, second.Warnings, numbers(second.PRs))
	}
	for i := range first.PRs {
		if !bytes.Equal(first.PRs[i].Payload, second.PRs[i].Payload) {
			t.Errorf("#%d: the cached payload differs", first.PRs[i].Number)
		}
	}
	if notModified != 3 {
		t.Errorf("%d answers were 304, want 3 (two pulls and the list)", notModified)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 3 {
		t.Errorf("%d cache entries, want 3", len(ents))
	}
	for _, e := range ents {
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		if bytes.Contains(b, []byte(secretToken)) {
			t.Errorf("cache entry %s holds the token", e.Name())
		}
		if info, _ := e.Info(); info.Mode().Perm() != 0o600 {
			t.Errorf("cache entry %s has mode %v", e.Name(), info.Mode())
		}
	}
}

// An edited cache entry is never packed as GitHub's answer (issue 25, item 8): the body's sha256 is kept beside
// its ETag, and a body that no longer has it is removed and fetched again without If-None-Match, so a server
// that answers 304 for the ETag cannot vouch for the edited bytes. Each answer says where it came from.
func TestEditedCacheEntryIsFetchedAgain(t *testing.T) {
	t.Parallel()
	srv := githubtest.New(t, "")
	var mu sync.Mutex
	var conditional []string
	srv.Handle("/repos/acme/app/pulls/17", func(w http.ResponseWriter, r *http.Request) {
		const etag = `"pr17-v1"`
		w.Header().Set("ETag", etag)
		if inm := r.Header.Get("If-None-Match"); inm != "" {
			mu.Lock()
			conditional = append(conditional, inm)
			mu.Unlock()
			if inm == etag {
				w.WriteHeader(http.StatusNotModified)
				return
			}
		}
		jsonAnswer(w, 200, string(githubtest.Fixture(t, "pulls_17.json")))
	})
	dir := filepath.Join(t.TempDir(), "github-cache")
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	fetch := func() *Result {
		c, err := NewClient(acme, Config{APIURL: srv.APIURL(), Timeout: 5 * time.Second, RetryDelay: -1, CacheDir: dir,
			Now: func() time.Time { return clock }})
		if err != nil {
			t.Fatal(err)
		}
		return Fetch(context.Background(), c, Query{Ticket: eng42(t), Numbers: []int{17}})
	}
	pr17 := func(res *Result) PR {
		for _, pr := range res.PRs {
			if pr.Number == 17 {
				return pr
			}
		}
		t.Fatalf("no #17: %q", res.Warnings)
		return PR{}
	}

	first := pr17(fetch())
	if from := first.PayloadFrom; from.Source != prsource.Fetched || len(from.Requests) != 1 || from.Requests[0].ETag == nil ||
		*from.Requests[0].ETag != `"pr17-v1"` || from.Requests[0].URL != srv.URL+"/repos/acme/app/pulls/17" {
		t.Errorf("first fetch: source %+v", from)
	}
	clock = clock.Add(3 * time.Hour)
	second := pr17(fetch())
	if from := second.PayloadFrom; from.Source != prsource.Cache || from.Requests[0].CachedAt == nil || *from.Requests[0].CachedAt != "2026-01-01T00:00:00Z" {
		t.Errorf("after a 304: source %+v, want cache, cached at 2026-01-01T00:00:00Z", from)
	}

	// Edit the cached body (same length, so only the digest can tell).
	entry := (&cache{dir: dir}).path(srv.URL + "/repos/acme/app/pulls/17")
	raw, err := os.ReadFile(entry)
	if err != nil {
		t.Fatal(err)
	}
	edited := bytes.Replace(raw, []byte(`"merged":true`), []byte(`"merged":null`), 1)
	if bytes.Equal(edited, raw) {
		t.Fatal("the fixture has no \"merged\":true to edit")
	}
	if err := os.WriteFile(entry, edited, 0o600); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	conditional = nil
	mu.Unlock()
	res := fetch()
	third := pr17(res)
	if !bytes.Equal(third.Payload, githubtest.Fixture(t, "pulls_17.json")) {
		t.Error("the edited cached body was used, not GitHub's answer")
	}
	if len(conditional) != 0 {
		t.Errorf("asked If-None-Match %q for an edited entry: a 304 would vouch for the edit", conditional)
	}
	if third.PayloadFrom.Source != prsource.Fetched {
		t.Errorf("source %q, want fetched", third.PayloadFrom.Source)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "its body does not have the sha256 stored beside its ETag") ||
		!strings.Contains(res.Warnings[0], entry) {
		t.Errorf("warnings %q", res.Warnings)
	}
	// The fresh answer was cached again, intact: the next run is a 304 again.
	if fourth := pr17(fetch()); fourth.PayloadFrom.Source != prsource.Cache || !bytes.Equal(fourth.Payload, third.Payload) {
		t.Errorf("after refetching: source %q", fourth.PayloadFrom.Source)
	}
}

// A server cannot pass its answer off as one from the cache: the headers the cache marks its answers with are
// removed from every answer a server sends.
func TestServerCannotClaimTheCache(t *testing.T) {
	t.Parallel()
	srv := githubtest.New(t, "")
	srv.Handle("/repos/acme/app/pulls/17", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set(headerCache, "hit")
		w.Header().Set(headerCachedAt, "2020-01-01T00:00:00Z")
		jsonAnswer(w, 200, string(githubtest.Fixture(t, "pulls_17.json")))
	})
	c, err := NewClient(acme, Config{APIURL: srv.APIURL(), Timeout: 5 * time.Second, RetryDelay: -1, CacheDir: filepath.Join(t.TempDir(), "cache")})
	if err != nil {
		t.Fatal(err)
	}
	res := Fetch(context.Background(), c, Query{Ticket: eng42(t), Numbers: []int{17}})
	if len(res.PRs) == 0 {
		t.Fatalf("no pull request: %q", res.Warnings)
	}
	if from := res.PRs[0].PayloadFrom; from.Source != prsource.Fetched || from.Requests[0].CachedAt != nil {
		t.Errorf("a server's 200 recorded as %+v", from)
	}
}
