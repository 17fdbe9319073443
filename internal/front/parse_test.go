package front

import (
	"reflect"
	"testing"
)

// The front takes only the lines whose every word it knows; anything else goes to git-bernstein-full whole.
func TestParse(t *testing.T) {
	t.Parallel()
	str := func(s string) *string { return &s }
	for _, tc := range []struct {
		args []string
		want *request // nil: handed over
	}{
		{[]string{"commits", "ENG-42"}, &request{ticket: "ENG-42"}},
		{[]string{"commits", "--json", "ENG-42"}, &request{ticket: "ENG-42", json: true}},
		{[]string{"commits", "--tracker", "jira", "--match=trailer", "ENG-42"},
			&request{ticket: "ENG-42", tracker: str("jira"), match: str("trailer")}},
		{[]string{"commits", "--tracker=", "ENG-42"}, &request{ticket: "ENG-42", tracker: str("")}},
		{[]string{"commits", "--trailer", "Task", "--trailer=Bug", "7"},
			&request{ticket: "7", trailers: []string{"Task", "Bug"}}},
		{[]string{"commits", "#7"}, &request{ticket: "#7"}},
		{[]string{"commits"}, nil},
		{[]string{"commits", "ENG-42", "--json"}, nil}, // a flag after the ticket
		{[]string{"commits", "ENG-42", "ENG-43"}, nil},
		{[]string{"commits", ""}, nil},
		{[]string{"commits", "--help"}, nil},
		{[]string{"commits", "-h", "ENG-42"}, nil},
		{[]string{"commits", "-json", "ENG-42"}, nil}, // urfave's single-dash form: its rules decide
		{[]string{"commits", "--json=false", "ENG-42"}, nil},
		{[]string{"commits", "--json", "--json", "ENG-42"}, nil},
		{[]string{"commits", "--tracker", "a", "--tracker", "b", "ENG-42"}, nil},
		{[]string{"commits", "--match", "x", "--match", "y", "ENG-42"}, nil},
		{[]string{"commits", "--trailer", "A,B", "ENG-42"}, nil}, // a slice flag's separator
		{[]string{"commits", "--tracker"}, nil},
		{[]string{"commits", "--", "ENG-42"}, nil},
		{[]string{"commits", "--repo", ".", "ENG-42"}, nil},
		{[]string{"bundle", "ENG-42"}, nil},
		{[]string{"--version"}, nil},
		{[]string{"help", "commits"}, nil},
	} {
		got, ok := parse(append([]string{"git-bernstein"}, tc.args...))
		if ok != (tc.want != nil) || ok && !reflect.DeepEqual(got, *tc.want) {
			t.Errorf("%q: %+v %v, want %+v", tc.args, got, ok, tc.want)
		}
	}
}

// The configuration cache keeps what a `commits` run reads and nothing else: a key it keeps by mistake is a
// copy of configuration nobody needs (a credential among them), one it misses hands every run over.
func TestCachedKey(t *testing.T) {
	t.Parallel()
	for key, want := range map[string]bool{
		"bernstein.tracker": true, "bernstein.baseBranch": true, "trailer.Story.key": true,
		"trailer.separators": true, "diff.renames": true, "diff.renamelimit": true, "core.abbrev": true,
		"core.attributesfile": true, "remote.origin.url": true, "remote.my.fork.url": true,
		"remote.origin.pushurl": false, "remote.origin.fetch": false, "core.hookspath": false,
		"core.sshcommand": false, "user.name": false, "credential.helper": false, "http.extraheader": false,
		"url.https://x/.insteadof": false,
	} {
		if got := cachedKey(key); got != want {
			t.Errorf("cachedKey(%q) = %v, want %v", key, got, want)
		}
	}
}
