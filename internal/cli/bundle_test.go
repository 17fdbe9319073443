package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

func TestBundleCommand(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	r.Commit("init", map[string]string{"a": "1\n"})
	r.Commit("Add login\n\nRefs: ENG-42", map[string]string{"b": "1\n"})
	os.MkdirAll(filepath.Join(r.Dir, ".sdd", "traces"), 0o755)
	os.WriteFile(filepath.Join(r.Dir, ".sdd", "traces", "ENG-42.jsonl"), []byte("{}\n"), 0o644)
	sub := filepath.Join(r.Dir, "sub")
	os.MkdirAll(sub, 0o755)

	// From a subdirectory: default name in the working folder, .sdd found at the worktree root.
	out, errOut, code := runIn(t, sub, r.Env, "bundle", "--created-at", "2026-01-01T00:00:00Z", "ENG-42")
	if code != 0 || !strings.HasPrefix(out, "Ticket bundle written to ENG-42.tar.gz (") ||
		!strings.Contains(out, "3 files, tracker=github ticket=ENG-42). Unsigned") {
		t.Fatalf("code %d\n%s\n%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(sub, "ENG-42.tar.gz")); err != nil {
		t.Fatal(err)
	}

	// keygen, then a signed bundle through git config defaults.
	keyDir := t.TempDir()
	if _, e, c := runIn(t, keyDir, r.Env, "keygen", "--kid", "k1"); c != 0 {
		t.Fatalf("keygen: %d %s", c, e)
	}
	r.Git("config", "bernstein.signingKey", filepath.Join(keyDir, "k1.pem"))
	r.Git("config", "bernstein.signingKid", "k1")
	out, errOut, code = runIn(t, r.Dir, r.Env, "bundle", "--out", "x/../signed.tar.gz", "ENG-42")
	if code != 0 || !strings.Contains(out, "Signed -> signed.tar.gz.jws.") {
		t.Fatalf("signed: %d\n%s\n%s", code, out, errOut)
	}

	// --json, for scripts.
	out, _, code = runIn(t, r.Dir, r.Env, "bundle", "--json", "--out", "j1.tar.gz", "ENG-42")
	var doc struct {
		Archive   string   `json:"archive"`
		Signature string   `json:"signature"`
		Size      int64    `json:"size_bytes"`
		Warnings  []string `json:"warnings"`
		Manifest  struct {
			TicketID string `json:"ticket_id"`
		} `json:"manifest"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 0 || doc.Archive != filepath.Join(r.Dir, "j1.tar.gz") ||
		doc.Signature != doc.Archive+".jws" || doc.Size == 0 || doc.Manifest.TicketID != "ENG-42" || doc.Warnings == nil {
		t.Fatalf("bundle --json: %d %v\n%s", code, err, out)
	}

	// The Bernstein form.
	os.MkdirAll(filepath.Join(r.Dir, "x"), 0o755)
	out, errOut, code = runIn(t, t.TempDir(), r.Env, "bundle", "ticket", "jira", "ENG-42", "--out", filepath.Join(r.Dir, "j.tar.gz"), "--workdir", r.Dir)
	if code != 0 || !strings.Contains(out, "tracker=jira ticket=ENG-42") {
		t.Fatalf("bundle ticket: %d\n%s\n%s", code, out, errOut)
	}
}

func TestBundleKeyErrors(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	r.Commit("init ENG-1", nil)
	bad := filepath.Join(t.TempDir(), "bad.pem")
	os.WriteFile(bad, []byte("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"), 0o600)
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"bundle", "--sign-key", bad, "ENG-1"}, 2, "needs both a key and a kid"},
		{[]string{"bundle", "--sign-kid", "k", "ENG-1"}, 2, "needs both a key and a kid"},
		{[]string{"bundle", "--sign-key", bad, "--sign-kid", "k", "ENG-1"}, 1, bad},
		{[]string{"bundle", "--sign-key", "/nonexistent.pem", "--sign-kid", "k", "ENG-1"}, 1, "/nonexistent.pem"},
		{[]string{"bundle", "--created-at", "yesterday", "ENG-1"}, 2, "RFC 3339"},
		{[]string{"bundle", "--out", "/nonexistent/dir/x.tar.gz", "ENG-1"}, 1, "/nonexistent/dir"},
	}
	for _, c := range cases {
		_, errOut, code := runIn(t, r.Dir, r.Env, c.args...)
		if code != c.code || !strings.Contains(errOut, c.msg) {
			t.Errorf("%q: code %d (want %d) stderr %q (want %q)", c.args, code, c.code, errOut, c.msg)
		}
	}
	ents, _ := os.ReadDir(r.Dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), "tar.gz") {
			t.Errorf("left %s behind", e.Name())
		}
	}
}

func TestSafeFileName(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"ENG-42": "ENG-42", "a/b": "a_b", "..": "_..", "x y": "x_y", "ü": "_"} {
		if got := safeFileName(in); got != want {
			t.Errorf("safeFileName(%q) = %q, want %q", in, got, want)
		}
	}
}
