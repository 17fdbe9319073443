package prsource

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func sample() *Sources {
	etag, at := `W/"abc"`, "2026-01-01T00:00:00Z"
	return &Sources{Members: []Member{
		FromOffline("pr/pr_7.reviews.json", "pr_7.reviews.json"),
		FromRequests("pr/pr_17.reviews.json", []Request{
			{URL: "https://api.github.com/repos/acme/app/pulls/17/reviews?per_page=100", Source: Cache, ETag: &etag, CachedAt: &at},
			{URL: "https://api.github.com/repositories/1/pulls/17/reviews?per_page=100&page=2", Source: Fetched}}),
		FromRequests("pr/pr_17.json", []Request{{URL: "https://api.github.com/repos/acme/app/pulls/17", Source: Fetched, ETag: &etag}}),
	}}
}

// What Marshal writes, Parse reads back, sorted by arcname.
func TestRoundTrip(t *testing.T) {
	b, err := sample().Marshal()
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(b)
	if err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	var names []string
	for _, m := range s.Members {
		names = append(names, m.Arcname+"="+m.Source)
	}
	want := []string{"pr/pr_17.json=fetched", "pr/pr_17.reviews.json=cache", "pr/pr_7.reviews.json=offline"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("members %q, want %q", names, want)
	}
	if got := s.Members[1].Describe("2026-01-01T03:00:00Z"); !strings.Contains(got, `ETag W/"abc", cached at 2026-01-01T00:00:00Z, 3 h before the bundle was made`) {
		t.Errorf("describe: %s", got)
	}
	if got := s.Members[2].Describe(""); got != "offline copy from .sdd/pr/pr_7.reviews.json, not from GitHub" {
		t.Errorf("describe: %s", got)
	}
}

// Parse reads strictly: each departure from v 1 is named, a newer v is ErrUnsupported.
func TestParseIsStrict(t *testing.T) {
	one := `{"arcname":"pr/pr_7.json","source":"offline","path":".sdd/pr/pr_7.json","requests":[]}`
	good := `{"v":1,"members":[` + one + `]}`
	if _, err := Parse([]byte(good)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, doc, want string }{
		{"duplicate key", `{"v":1,"v":1,"members":[]}`, "duplicate member"},
		{"duplicate key inside", strings.Replace(good, `"source":"offline"`, `"source":"fetched","source":"offline"`, 1), "duplicate member"},
		{"unknown member", `{"v":1,"members":[],"x":1}`, "unknown member"},
		{"missing member", `{"v":1}`, `"members" is missing`},
		{"v as string", `{"v":"1","members":[]}`, `"v" must be an integer`},
		{"v 1.0", `{"v":1.0,"members":[]}`, `only 1 exists`},
		{"bad source", strings.Replace(good, `"offline"`, `"github"`, 1), "not fetched, cache or offline"},
		{"offline elsewhere", strings.Replace(good, `.sdd/pr/pr_7.json`, `/home/x/pr_7.json`, 1), "must be .sdd/pr/"},
		{"not pr/", strings.Replace(good, `"pr/pr_7.json"`, `"git/diff.patch"`, 1), "not another member of pr/"},
		{"itself", strings.Replace(good, `"pr/pr_7.json"`, `"pr/sources.json"`, 1), "not another member of pr/"},
		{"twice", `{"v":1,"members":[` + one + `,` + one + `]}`, "is also members[0]"},
		{"fetched without requests", `{"v":1,"members":[{"arcname":"pr/pr_7.json","source":"fetched","path":null,"requests":[]}]}`, "there are none"},
		{"cache without etag", `{"v":1,"members":[{"arcname":"pr/pr_7.json","source":"cache","path":null,"requests":[{"url":"https://h/x","source":"cache","etag":null,"cached_at":"2026-01-01T00:00:00Z"}]}]}`, "names the ETag"},
		{"cache claimed, all fetched", `{"v":1,"members":[{"arcname":"pr/pr_7.json","source":"cache","path":null,"requests":[{"url":"https://h/x","source":"fetched","etag":null,"cached_at":null}]}]}`, "none of its requests"},
		{"url with user", `{"v":1,"members":[{"arcname":"pr/pr_7.json","source":"fetched","path":null,"requests":[{"url":"https://u:p@h/x","source":"fetched","etag":null,"cached_at":null}]}]}`, "without user information"},
		{"trailing data", good + "{}", "data after"},
	} {
		_, err := Parse([]byte(c.doc))
		if err == nil || !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrMalformed with %q", c.name, err, c.want)
		}
	}
	if _, err := Parse([]byte(`{"v":2,"members":[],"more":true}`)); !errors.Is(err, ErrUnsupported) {
		t.Errorf("v 2: %v, want ErrUnsupported", err)
	}
}
