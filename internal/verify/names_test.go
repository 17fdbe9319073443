package verify

import (
	"strings"
	"testing"
)

func TestNameClashes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		names []string
		want  []string // substrings of each warning, in order
	}{
		{[]string{"traces/a.jsonl", "traces/b.jsonl"}, nil},
		{[]string{"traces/Login.jsonl", "traces/login.jsonl"}, []string{"letter case"}},
		{[]string{"traces/caf\u00e9.jsonl", "traces/cafe\u0301.jsonl"}, []string{"Unicode normalization (NFC/NFD)"}},
		{[]string{"traces/CAF\u00c9.jsonl", "traces/cafe\u0301.jsonl"}, []string{"letter case and Unicode normalization"}},
		{[]string{"audit/CON"}, []string{"reserved device name"}},
		{[]string{"audit/con.txt"}, []string{"reserved device name"}},
		{[]string{"audit/LPT9.log"}, []string{"reserved device name"}},
		{[]string{"audit/COM\u00b9"}, []string{"reserved device name"}},
		{[]string{"audit/console.txt", "audit/COM10", "audit/lpt"}, nil},
		{[]string{"a.txt:ads"}, []string{"alternate data stream"}},
		{[]string{"traces/trail."}, []string{"ends with a dot or space"}},
		{[]string{"traces/trail /x"}, []string{"ends with a dot or space"}},
		{[]string{`q?.txt`}, []string{`contains "?"`}},
		// Issue 25, 13, folded: a file and a folder of one name on macOS and Windows.
		{[]string{"transcripts/A", "transcripts/a/b"}, []string{`"transcripts/A" and "transcripts/a/b": on a case-insensitive`}},
		{[]string{"transcripts/a/b", "transcripts/A"}, []string{`"transcripts/A" and "transcripts/a/b": on a case-insensitive`}},
		{[]string{"transcripts/caf\u00e9", "transcripts/cafe\u0301/x"}, []string{"one is a file where the other needs a folder"}},
		{[]string{"transcripts/a", "transcripts/ab/c", "transcripts/A.b/c"}, nil},
	} {
		n := newNameClashes()
		for _, name := range tc.names {
			n.add(name)
		}
		got := n.warnings()
		if len(got) != len(tc.want) {
			t.Errorf("%q: warnings %q, want %d", tc.names, got, len(tc.want))
			continue
		}
		for i, w := range tc.want {
			if !strings.Contains(got[i], w) {
				t.Errorf("%q: warning %q lacks %q", tc.names, got[i], w)
			}
		}
	}
}
