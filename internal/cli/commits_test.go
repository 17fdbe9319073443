package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

func TestCommitsCommand(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	r.Commit("init", map[string]string{"a": "1\n"})
	c1 := r.Commit("Add login\n\nRefs: ENG-7, ENG-42", map[string]string{"b": "1\n"})
	r.Commit("Mentions ENG-420 only", map[string]string{"c": "1\n"})
	c3 := r.Commit("Custom key\n\nTask: ENG-42", map[string]string{"d": "1\n"})

	out, errOut, code := runIn(t, r.Dir, r.Env, "commits", "ENG-42")
	if code != 0 || !strings.Contains(out, "Add login\n  "+c1[:7]+" 2026-01-01 on main (trailer:Refs, message)\n") {
		t.Fatalf("code %d\n%s\n%s", code, out, errOut)
	}
	if strings.Contains(out, "ENG-420") {
		t.Errorf("near miss listed:\n%s", out)
	}

	out, _, code = runIn(t, r.Dir, r.Env, "commits", "--json", "--match", "trailer", "--trailer", "Task", "ENG-42")
	var doc struct {
		Tracker  string   `json:"tracker"`
		TicketID string   `json:"ticket_id"`
		Commits  []string `json:"commits"`
		Details  []struct {
			MatchedBy []string `json:"matched_by"`
		} `json:"details"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 0 {
		t.Fatalf("json: %v %d\n%s", err, code, out)
	}
	if doc.Tracker != "github" || doc.TicketID != "ENG-42" || len(doc.Commits) != 2 || doc.Commits[1] != c3 ||
		doc.Details[1].MatchedBy[0] != "trailer:Task" {
		t.Errorf("doc %+v", doc)
	}

	// git config supplies defaults.
	r.Git("config", "bernstein.match", "trailer")
	r.Git("config", "--add", "bernstein.trailer", "Task")
	r.Git("config", "bernstein.tracker", "jira")
	out, _, _ = runIn(t, r.Dir, r.Env, "commits", "--json", "ENG-42")
	json.Unmarshal([]byte(out), &doc)
	if doc.Tracker != "jira" || len(doc.Commits) != 2 {
		t.Errorf("config ignored: %+v", doc)
	}
}

func TestCommitsErrors(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	cases := []struct {
		dir  string
		args []string
		code int
		msg  string
	}{
		{r.Dir, []string{"commits", ""}, 2, "empty"},
		{r.Dir, []string{"commits", "ENG 42"}, 2, "whitespace"},
		{r.Dir, []string{"commits", "ENG-42\x1b"}, 2, "control"},
		{r.Dir, []string{"commits"}, 2, "exactly one TICKET"},
		{r.Dir, []string{"commits", "--match", "bogus", "X-1"}, 2, "unknown source"},
		{r.Dir, []string{"commits", "--nope", "X-1"}, 2, "flag provided but not defined"},
		{t.TempDir(), []string{"commits", "X-1"}, 1, "not a git repository (or any parent): "},
		{r.Dir, []string{"commits", "X-1"}, 0, "no commits tied to X-1"},
		{r.Dir, []string{"frobnicate"}, 2, "not a git-bernstein command"},
	}
	for _, c := range cases {
		_, errOut, code := runIn(t, c.dir, r.Env, c.args...)
		if code != c.code || !strings.Contains(errOut, c.msg) {
			t.Errorf("%q: code %d (want %d), stderr %q (want %q)", c.args, code, c.code, errOut, c.msg)
		}
	}
}

func TestHelpAndVersion(t *testing.T) {
	t.Parallel()
	out, _, code := runIn(t, t.TempDir(), nil, "--help")
	if code != 0 || !strings.Contains(out, "commits") || !strings.Contains(out, "EXIT CODES") {
		t.Errorf("--help: %d\n%s", code, out)
	}
	out, _, code = runIn(t, t.TempDir(), nil, "help", "commits")
	if code != 0 || !strings.Contains(out, "--match") || !strings.Contains(out, "EXIT CODES") {
		t.Errorf("help commits: %d\n%s", code, out)
	}
	out, _, code = runIn(t, t.TempDir(), nil, "--version")
	if code != 0 || !strings.HasPrefix(out, "git-bernstein version ") {
		t.Errorf("--version: %d %q", code, out)
	}
}

// In a blobless partial clone, commits --json has git fetch the blobs its patch ids need and says so once, on
// the run's standard error (the writer Run was given, not the process's). Without --json the one tied commit
// needs no patch id (no other changes its paths), and nothing is fetched.
func TestCommitsPartialCloneNoticeOnRunStderr(t *testing.T) {
	t.Parallel()
	origin := gittest.New(t)
	origin.Commit("init", map[string]string{"a": "1\n"})
	origin.Commit("Add login\n\nRefs: ENG-42", map[string]string{"b": "login\n"})
	origin.Git("config", "uploadpack.allowFilter", "true")
	dir := filepath.Join(t.TempDir(), "blobless")
	origin.Git("clone", "-q", "--no-checkout", "--filter=blob:none", "file://"+origin.Dir, dir) // no checkout: every blob is missing

	out, errOut, code := runIn(t, dir, origin.Env, "commits", "ENG-42")
	if code != 0 || !strings.Contains(out, "Add login") || strings.Contains(errOut, "notice:") {
		t.Fatalf("commits without --json: code %d, want the commit and no fetch\n%s\n%s", code, out, errOut)
	}
	out, errOut, code = runIn(t, dir, origin.Env, "commits", "--json", "ENG-42")
	if code != 0 || !strings.Contains(out, "Add login") {
		t.Fatalf("code %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "notice: this is a partial clone") || strings.Count(errOut, "notice:") != 1 {
		t.Errorf("stderr should carry the notice once:\n%s", errOut)
	}
}
