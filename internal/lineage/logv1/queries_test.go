package logv1

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// History is one artefact's entries oldest first and the forks among them; Agents and UnresolvedForks count
// what lineage verify reports.
func TestHistory(t *testing.T) {
	t.Parallel()
	w := newWriter(t, "agent:a", "agent:b")
	first := w.add("agent:a", "src/x.go", "x1")
	w.add("agent:a", "src/y.go", "y1")
	left := w.add("agent:a", "src/x.go", "x2", first)
	right := w.add("agent:b", "src/x.go", "x3", first) // a second child of first: a fork no merge joins
	log := Parse(w.log)
	entries, forks := History(log, "src/x.go")
	var hashes []string
	for _, e := range entries {
		hashes = append(hashes, e.Hash)
	}
	if want := []string{first, left, right}; !slices.Equal(hashes, want) {
		t.Errorf("History entries = %v, want %v", hashes, want)
	}
	if len(forks) != 1 || forks[0].ParentID != first || forks[0].Resolved {
		t.Errorf("History forks = %+v, want one unresolved fork at the first entry", forks)
	}
	if e, f := History(log, "src/none.go"); len(e) != 0 || len(f) != 0 {
		t.Errorf("History of an artefact the log does not name = %v %v", e, f)
	}
	if n := log.Agents(); n != 2 {
		t.Errorf("Agents = %d, want 2", n)
	}
	res := &Result{Forks: Forks(log)}
	if n := res.UnresolvedForks(); n != 1 {
		t.Errorf("UnresolvedForks = %d, want 1", n)
	}
}

func TestReadOperatorKey(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cases := []struct {
		name, content, want, err string
	}{
		{"plain", "secret", "secret", ""},
		{"newline", "secret\n", "secret", ""},
		{"crlf", "secret\r\n", "secret", ""},
		{"only one newline goes", "secret\n\n", "secret\n", ""},
		{"empty", "\n", "", "is empty"},
	}
	for _, tc := range cases {
		p := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_"))
		if err := os.WriteFile(p, []byte(tc.content), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := ReadOperatorKey(p)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
		case tc.err == "" && (err != nil || string(got) != tc.want):
			t.Errorf("%s: %q %v, want %q", tc.name, got, err, tc.want)
		}
	}
	if _, err := ReadOperatorKey(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing key file: no error")
	}
}

// Time is ts_ns in UTC as RFC 3339, its fraction only when there is one (lineage log's TIME column and "time").
func TestEntryTime(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		tsNs int64
		want string
	}{
		{0, "1970-01-01T00:00:00Z"},
		{1767225600_000000000, "2026-01-01T00:00:00Z"},
		{1767225600_123400000, "2026-01-01T00:00:00.1234Z"},
	} {
		if got := (&Entry{TsNs: tc.tsNs}).Time(); got != tc.want {
			t.Errorf("Time of ts_ns %d = %q, want %q", tc.tsNs, got, tc.want)
		}
	}
}
