package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func TestVerifyRev(t *testing.T) {
	t.Parallel()
	r := ticketRepo(t)
	r.Git("merge", "-q", "--no-ff", "-m", "Merge branch 'feature/ENG-42-login'", "feature/ENG-42-login")
	keyDir := t.TempDir()
	if _, e, c := runIn(t, keyDir, r.Env, "keygen", "--kid", "k1"); c != 0 {
		t.Fatalf("keygen: %s", e)
	}
	card := filepath.Join(keyDir, "k1.card.json")
	r.Git("config", "bernstein.signingKey", filepath.Join(keyDir, "k1.pem"))
	r.Git("config", "bernstein.signingKid", "k1")
	if _, e, c := runIn(t, r.Dir, r.Env, "record", "HEAD"); c != 0 {
		t.Fatalf("record: %s", e)
	}
	head := r.Rev("HEAD")
	recorded := filepath.Join(r.Dir, ".git", "bernstein", "bundles", "github", "ENG-42", head[:12]+".tar.gz")
	// Another bundle of the same ticket, validly signed, but not the one noted on HEAD.
	other := filepath.Join(t.TempDir(), "other.tar.gz")
	if _, e, c := runIn(t, r.Dir, r.Env, "bundle", "--no-pr", "--created-at", "2030-01-01T00:00:00Z", "--out", other, "ENG-42"); c != 0 {
		t.Fatalf("bundle: %s", e)
	}
	cases := []struct {
		name, archive, rev string
		code               int
		line               string
	}{
		{"the recorded bundle", recorded, "HEAD", 0, "[PASS] note — archive sha256 "},
		{"another bundle of the ticket", other, "HEAD", 1, "[FAIL] note — archive sha256 "},
		{"a commit without a note", recorded, "HEAD~1", 2, "[UNUSABLE] note — HEAD~1 ("},
		{"an unknown commit", recorded, "nope", 2, "[UNUSABLE] note — cannot resolve nope"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := runIn(t, r.Dir, r.Env, "verify", c.archive, "--card", card, "--rev", c.rev)
			if code != c.code || !strings.Contains(out, c.line) {
				t.Fatalf("exit %d (want %d)\n%s%s", code, c.code, out, errOut)
			}
			out, _, code = runIn(t, r.Dir, r.Env, "verify", c.archive, "--card", card, "--rev", c.rev, "--json")
			var rep struct {
				ExitCode int `json:"exit_code"`
				Checks   []struct{ Check, Status string }
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.ExitCode != code || code != c.code ||
				rep.Checks[len(rep.Checks)-1].Check != "note" {
				t.Fatalf("--json: %v %d\n%s", err, code, out)
			}
		})
	}
	// Without --rev there is no note check.
	if out, _, code := runIn(t, r.Dir, r.Env, "verify", other, "--card", card); code != 0 || strings.Contains(out, "note") {
		t.Fatalf("without --rev: %d\n%s", code, out)
	}
}
