package commitsjson

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/jsonout"
)

// TestParseReadsWhatIsWritten: every field the writer's types have is read back, the optional ones absent too.
func TestParseReadsWhatIsWritten(t *testing.T) {
	id := "0123456789012345678901234567890123456789"
	full := &Commits{Tracker: "jira", TicketID: "ENG-42", Commits: []string{"a"}, Details: []CommitDetail{{
		SHA: "a", Parents: []string{"b"}, Author: Person{"Ada", "ada@example.com", "2026-01-01T00:00:00Z"},
		Committer: Person{"Cy", "cy@example.com", "2026-01-01T00:00:00+01:00"}, Subject: "s", MatchedBy: []string{"message"},
		PatchID: &id, CherryPickedFrom: []string{}, LandedOn: &LandedOn{Branches: []string{"main", "3.3"}, Tags: []string{"3.3.0"},
			FirstTagsByBranch: map[string][]string{"main": {}, "3.3": {"3.3.0"}}},
	}}, Discovery: &Discovery{Rules: 1, Sources: []string{"trailer"}, TrailerKeys: []string{"Refs"}, TrailerConfigured: []string{},
		GitHubRepo: "acme/app", BaseBranch: BaseBranch{Ref: "refs/heads/main", SHA: "b"}, DiffSettings: "x\n",
		Tips: map[string]string{"HEAD": "a", "refs/heads/main": "a"}, Shallow: []string{}}}
	// A commit message that is not UTF-8 (Latin-1, say) is written with U+FFFD for each bad byte, and read.
	latin1 := &Commits{Tracker: "github", TicketID: "1", Commits: []string{"a"}, Details: []CommitDetail{{SHA: "a", Parents: []string{},
		Subject: "Caf\xe9 ENG-1", MatchedBy: []string{"message"}}}}
	for _, doc := range []*Commits{full, {Tracker: "github", TicketID: "1", Commits: []string{}, Details: []CommitDetail{}}, latin1} {
		b, err := jsonout.Bytes(doc)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Parse(b)
		if err != nil {
			t.Fatalf("%v\n%s", err, b)
		}
		if doc == latin1 {
			doc.Details[0].Subject = "Caf\uFFFD ENG-1"
		}
		if !reflect.DeepEqual(got, doc) {
			t.Errorf("read back\n%#v\nwant\n%#v", got, doc)
		}
	}
}

// TestParseIsStrict: what encoding/json would read in its own way is refused, with where it is.
func TestParseIsStrict(t *testing.T) {
	detail := `{"sha":"a","parents":[],"author":{"name":"","email":"","date":""},"committer":{"name":"","email":"","date":""},"subject":"","matched_by":[]`
	for _, tc := range []struct{ name, doc, want string }{
		{"duplicate key", `{"tracker":"g","ticket_id":"1","commits":[],"commits":["a"]}`, `duplicate member "commits"`},
		{"duplicate sha key", `{"tracker":"g","ticket_id":"1","commits":["a"],"details":[` + detail + `,"sha":"b"}]}`, `duplicate member "sha"`},
		{"other case", `{"tracker":"g","ticket_id":"1","commits":["a"],"details":[` + strings.Replace(detail, `"sha"`, `"SHA"`, 1) + `}]}`, `details[0]: "sha" is missing`},
		{"unknown member", `{"tracker":"g","ticket_id":"1","commits":[],"extra":1}`, `unknown member "extra"`},
		{"missing commits", `{"tracker":"g","ticket_id":"1"}`, `"commits" is missing`},
		{"null list", `{"tracker":"g","ticket_id":"1","commits":null}`, `"commits" must be a list of strings, got null`},
		{"first tags not a map", `{"tracker":"g","ticket_id":"1","commits":["a"],"details":[` + detail + `,"landed_on":{"branches":[],"tags":[],"first_tags_by_branch":[]}}]}`, `"first_tags_by_branch" must be an object or null`},
		{"first tags not strings", `{"tracker":"g","ticket_id":"1","commits":["a"],"details":[` + detail + `,"landed_on":{"branches":["main"],"tags":[],"first_tags_by_branch":{"main":[1]}}}]}`, `first_tags_by_branch: main[0] must be a string`},
		{"trailing data", `{"tracker":"g","ticket_id":"1","commits":[]} {}`, `data after the JSON value`},
		{"case twin", `{"tracker":"g","ticket_id":"1","commits":["a"],"details":[` + detail + `,"SHA":"b"}]}`, `members "sha" and "SHA" differ only in letter case`},
		{"lone surrogate", `{"tracker":"g","ticket_id":"1","commits":["a"],"details":[` + strings.Replace(detail, `"subject":""`, `"subject":"\ud800"`, 1) + `}]}`, `lone surrogate`},
	} {
		_, err := Parse([]byte(tc.doc))
		if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want ErrMalformed with %q", tc.name, err, tc.want)
		}
	}
}

// TestParseUpstream: upstream's document, three members, is read.
func TestParseUpstream(t *testing.T) {
	got, err := Parse([]byte(`{"commits": ["a"], "ticket_id": "ENG-42", "tracker": "github"}` + "\n"))
	if err != nil || got.Details != nil || got.Discovery != nil || len(got.Commits) != 1 {
		t.Fatalf("%+v %v", got, err)
	}
}

// FuzzParse: any input is read or refused without panicking, and what is read is written back to a document
// that reads the same.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"commits": ["a"], "ticket_id": "ENG-42", "tracker": "github"}`))
	f.Add([]byte(`{"tracker":"g","ticket_id":"1","commits":[],"details":[{"sha":"a","parents":[],"author":{"name":"","email":"","date":""},` +
		`"committer":{"name":"","email":"","date":""},"subject":"","matched_by":[],"patch_id":null,"landed_on":{"branches":[],"tags":[]}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := Parse(data)
		if err != nil {
			return
		}
		b, err := jsonout.Bytes(doc)
		if err != nil {
			t.Fatal(err)
		}
		again, err := Parse(b)
		if err != nil {
			t.Fatalf("%v\n%s", err, b)
		}
		if !reflect.DeepEqual(again, doc) {
			t.Fatalf("read back differs:\n%#v\n%#v", again, doc)
		}
	})
}
