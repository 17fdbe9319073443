package manifest

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

const goodEntry = `{"arcname":"git/commits.json","size_bytes":12,"sha256":"` +
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" + `","section":"git"}`

func doc(replace ...string) string {
	d := `{"schema_version":1,"created_at":"2026-01-02T03:04:05Z","bernstein_version":"v1","tracker":"github",` +
		`"ticket_id":"ENG-42","files":[` + goodEntry + `],"pr_number":null,"commits":["abc"]}`
	for i := 0; i < len(replace); i += 2 {
		if !strings.Contains(d, replace[i]) {
			panic("doc: no " + replace[i])
		}
		d = strings.Replace(d, replace[i], replace[i+1], 1)
	}
	return d
}

func TestParseGood(t *testing.T) {
	t.Parallel()
	m, err := Parse([]byte(doc(`"pr_number":null`, `"pr_number":7`)))
	if err != nil {
		t.Fatal(err)
	}
	seven := 7
	want := &Manifest{SchemaVersion: 1, CreatedAt: "2026-01-02T03:04:05Z", BernsteinVersion: "v1", Tracker: "github",
		TicketID: "ENG-42", PRNumber: &seven, Commits: []string{"abc"},
		Files: []Entry{{Arcname: "git/commits.json", SizeBytes: 12, SHA256: strings.Repeat("0123456789abcdef", 4), Section: "git"}}}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("got %+v\nwant %+v", m, want)
	}
	// What Marshal writes, Parse reads back unchanged.
	out, err := want.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(out)
	if err != nil || !reflect.DeepEqual(back, want) {
		t.Fatalf("round trip: %v\n%+v", err, back)
	}
}

func TestParseRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, doc, want string
		schema          bool // ErrUnsupportedSchema rather than ErrMalformed
	}{
		{"schema 2", doc(`"schema_version":1`, `"schema_version":2,"new_field":true`), "newer", true},
		{"schema 0", doc(`"schema_version":1`, `"schema_version":0`), "only 1", true},
		{"schema string", doc(`"schema_version":1`, `"schema_version":"1"`), "schema_version must be an integer", false},
		{"schema float", doc(`"schema_version":1`, `"schema_version":1.0`), "without fraction", false},
		{"schema exponent", doc(`"schema_version":1`, `"schema_version":1e0`), "without fraction", false},
		{"schema missing", doc(`"schema_version":1,`, ``), `"schema_version" is missing`, false},
		{"duplicate top key", doc(`"tracker":"github"`, `"tracker":"github","tracker":"jira"`), `duplicate member "tracker"`, false},
		{"duplicate escaped key", doc(`"tracker":"github"`, `"tracker":"github","tr\u0061cker":"jira"`), `duplicate member "tracker"`, false},
		{"duplicate nested key", doc(`"section":"git"`, `"section":"git","section":"pr"`), `duplicate member "section"`, false},
		{"duplicate schema_version", doc(`"schema_version":1`, `"schema_version":1,"schema_version":2`), "duplicate", false},
		{"unknown field", doc(`"commits":["abc"]`, `"commits":["abc"],"extra":1`), `unknown field "extra"`, false},
		{"unknown entry field", doc(`"section":"git"`, `"section":"git","mode":420`), `unknown field "mode"`, false},
		{"missing field", doc(`"tracker":"github",`, ``), `"tracker" is missing`, false},
		{"missing pr_number", doc(`,"pr_number":null`, ``), `"pr_number" is missing`, false},
		{"wrong type", doc(`"ticket_id":"ENG-42"`, `"ticket_id":42`), `"ticket_id" must be a string`, false},
		{"size string", doc(`"size_bytes":12`, `"size_bytes":"12"`), "size_bytes must be an integer", false},
		{"size negative", doc(`"size_bytes":12`, `"size_bytes":-1`), "negative", false},
		{"size huge", doc(`"size_bytes":12`, `"size_bytes":9007199254740993`), "out of range", false},
		{"pr float", doc(`"pr_number":null`, `"pr_number":1.5`), "without fraction", false},
		{"commits not strings", doc(`"commits":["abc"]`, `"commits":[1]`), "commits[0] must be a string", false},
		{"files null", doc(`"files":[`+goodEntry+`]`, `"files":null`), `"files" must be a list`, false},
		{"upper hex", doc(`0123456789abcdef0123`, `0123456789ABCDEF0123`), "lower-case hex", false},
		{"short hex", doc(`0123456789abcdef0123`, `0123`), "lower-case hex", false},
		{"dotdot arcname", doc(`git/commits.json`, `../commits.json`), `contains ".."`, false},
		{"absolute arcname", doc(`git/commits.json`, `/etc/passwd`), "absolute", false},
		{"backslash arcname", doc(`git/commits.json`, `git\\commits.json`), "backslash", false},
		{"NUL arcname", doc(`git/commits.json`, `git/\u0000x`), "NUL", false},
		{"manifest listed", doc(`git/commits.json`, `manifest.json`), "never listed", false},
		{"duplicate arcname", doc(`[`+goodEntry+`]`, `[`+goodEntry+`,`+goodEntry+`]`), "also files[0]", false},
		{"lone surrogate", doc(`"ENG-42"`, `"ENG-\ud800"`), "lone surrogate", false},
		{"bad utf8", doc(`"ENG-42"`, "\"ENG-\xff\""), "UTF-8", false},
		{"trailing data", doc() + `{}`, "after the JSON value", false},
		{"trailing comma", doc(`"commits":["abc"]`, `"commits":["abc",]`), "invalid character", false},
		{"not an object", `[1]`, "want a JSON object", false},
		{"empty", ``, "empty document", false},
		{"deep", strings.Repeat("[", 100) + strings.Repeat("]", 100), "nested", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.doc))
			if err == nil {
				t.Fatalf("accepted %s", tt.doc)
			}
			wantErr := ErrMalformed
			if tt.schema {
				wantErr = ErrUnsupportedSchema
			}
			if !errors.Is(err, wantErr) {
				t.Errorf("error %v is not %v", err, wantErr)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q lacks %q", err, tt.want)
			}
		})
	}
}

func TestCheckName(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"git/commits.json", "a", "transcripts/agent-1.jsonl", "a..b/c", "ünïcode/x"} {
		if err := CheckName(ok); err != nil {
			t.Errorf("CheckName(%q) = %v", ok, err)
		}
	}
	for _, bad := range []string{"", "/abs", "../x", "a/../b", "a/..", "..", "a\\b", "a\x00b", "C:/x", "c:x", "./a", "a//b", "a/", "a/.", "a\nb", "a\x7fb", "a\u0085b", "\xff"} {
		if err := CheckName(bad); err == nil {
			t.Errorf("CheckName(%q) accepted", bad)
		}
	}
}
