package strictjson

import (
	"encoding/json"
	"strings"
	"testing"
)

type card struct {
	AgentID string `json:"agent_id"`
	Kid     string `json:"kid"`
	Keys    []struct {
		X string `json:"x"`
	} `json:"keys"`
	Extra json.RawMessage `json:"extra"`
	Inner
}

type Inner struct {
	Note string `json:"note"`
}

// Every way encoding/json would read a document differently from a reader of exact names is refused, naming
// the member; documents without them decode as json.Unmarshal decodes them.
func TestUnmarshal(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		doc, err string // err "" when the document is read
		known    bool
	}{
		{doc: `{"agent_id":"coder","kid":"k","keys":[{"x":"1"}],"other":{"AGENT_ID":1},"note":"n"}`},
		{doc: `{"agent_id":"coder","AGENT_ID":"steward"}`, err: `$: members "agent_id" and "AGENT_ID" differ only in letter case`},
		{doc: `{"AGENT_ID":"steward"}`, err: `$.AGENT_ID: member names are exact: write "agent_id"`},
		{doc: `{"Agent_Id":"steward"}`, err: `$.Agent_Id: member names are exact: write "agent_id"`},
		{doc: "{\"\u212Aid\":\"k2\"}", err: `member names are exact: write "kid"`},                     // KELVIN SIGN folds to k
		{doc: "{\"kid\":\"k\",\"\u212Aid\":\"k2\"}", err: `differ only in letter case`},                // and is a twin of kid
		{doc: `{"kid":"a","kid":"b"}`, err: `$: duplicate member "kid"`},                               // last wins in encoding/json
		{doc: `{"kid":"a","k\u0069d":"b"}`, err: `$: duplicate member "kid"`},                          // after unescaping
		{doc: `{"keys":[{"x":"1"},{"X":"2"}]}`, err: `$.keys[1].X: member names are exact: write "x"`}, // at any depth
		{doc: `{"keys":[{"x":"1","X":"2"}]}`, err: `$.keys[0]: members "x" and "X" differ only in letter case`},
		{doc: `{"other":{"a":1,"A":2}}`, err: `$.other: members "a" and "A"`},      // in members no field reads too
		{doc: `{"NOTE":"n"}`, err: `$.NOTE: member names are exact: write "note"`}, // embedded fields
		{doc: `{"extra":{"a":1,"a":2}}`, err: `$.extra: duplicate member "a"`},     // raw members are still JSON read once
		{doc: `{"kid":"\ud800"}`, err: `a lone surrogate escape at offset 8`},
		{doc: `{"kid":"\udc00\ud800"}`, err: `a lone surrogate escape at offset 8`},
		{doc: `{"kid":"\ud800\u0041"}`, err: `a lone surrogate escape`},
		{doc: `{"kid":"a\\ud800"}`},                                       // an escaped backslash, then text
		{doc: `{"kid":"\ud83d\ude00 \u00e9 \"\ud800"}`, err: `offset 30`}, // a pair, then a lone one
		{doc: `{"kid":"\ud83d\ude00","note":"\uFFFD �"}`},                 // U+FFFD itself is a character
		{doc: `{"kid":"k"} {"kid":"l"}`, err: `data after the JSON value`},
		{doc: `{"kid":"k"}` + "\n"},
		{doc: "\xff", err: `not valid UTF-8`},
		{doc: strings.Repeat("[", 18) + strings.Repeat("]", 18), err: `nested more than 16 levels`},
		{doc: `{"kid":"k","other":1}`, known: true, err: `$.other: unknown member`},
		{doc: `{"kid":"k","keys":[{"x":"1","y":2}]}`, known: true, err: `$.keys[0].y: unknown member`},
		{doc: `{"kid":"k","keys":[{"x":"1"}],"extra":{"anything":1}}`, known: true},
	} {
		var v card
		var err error
		if c.known {
			err = UnmarshalKnown([]byte(c.doc), &v)
		} else {
			err = Unmarshal([]byte(c.doc), &v)
		}
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.doc, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want one saying %q", c.doc, err, c.err)
		}
	}
}
