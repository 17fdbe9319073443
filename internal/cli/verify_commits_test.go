package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// signedTicketBundle makes a repository with two commits of ENG-42 (and one of ENG-420 that must not be tied),
// a key, its card, and the signed bundle ENG-42.tar.gz of it.
func signedTicketBundle(t *testing.T) (r *gittest.Repo, archive, key, card string) {
	t.Helper()
	r = gittest.New(t)
	r.Commit("Add the login form\n\nRefs: ENG-42", map[string]string{"login.html": "<form>\n</form>\n"})
	r.Commit("Unrelated work\n\nRefs: ENG-420", map[string]string{"other.txt": "other\n"})
	r.Commit("Check the login form\n\nRefs: ENG-42", map[string]string{"login.html": "<form required>\n</form>\n"})
	key, card = filepath.Join(filepath.Dir(r.Dir), "alice.pem"), filepath.Join(filepath.Dir(r.Dir), "alice.card.json")
	if _, e, c := runIn(t, r.Dir, r.Env, "keygen", "--kid", "alice-2026", "--key", key, "--card", card); c != 0 {
		t.Fatalf("keygen: %s", e)
	}
	if out, e, c := runIn(t, r.Dir, r.Env, "bundle", "ENG-42", "--no-pr", "--sign-key", key, "--sign-kid", "alice-2026", "--created-at", "2026-01-01T00:00:00Z"); c != 0 {
		t.Fatalf("bundle: %s %s", out, e)
	}
	return r, filepath.Join(r.Dir, "ENG-42.tar.gz"), key, card
}

// TestVerifyCommitsAgree is issue 25's item 5: a signed bundle whose git/commits.json has two details entries for
// one sha (view showed the first, --repo checked the last), a sha twice in commits, or whose signed manifest lists
// a made-up commit, is FAILED by plain verify, with no repository, naming the sha.
func TestVerifyCommitsAgree(t *testing.T) {
	t.Parallel()
	r, archive, key, card := signedTicketBundle(t)
	_, files := readArchive(t, archive)
	commitsJSON := string(files["git/commits.json"])
	var doc struct {
		Commits []string         `json:"commits"`
		Details []map[string]any `json:"details"`
	}
	if err := json.Unmarshal([]byte(commitsJSON), &doc); err != nil || len(doc.Commits) != 2 {
		t.Fatalf("%v\n%s", err, commitsJSON)
	}
	first := doc.Commits[0]
	out, _, code := runIn(t, r.Dir, r.Env, "verify", archive, "--card", card)
	if code != 0 || !strings.Contains(out, "\n[PASS] commits — git/commits.json lists the manifest's 2 commits in its order, each once, with one details entry each\n") {
		t.Fatalf("the bundle as made: exit %d\n%s", code, out)
	}

	// A second details entry for the first commit, claiming another author, placed first so that a reader that
	// takes the first sees it.
	forged := doc.Details[0]
	forged["author"] = map[string]any{"name": "Eve", "email": "eve@example.com", "date": "2026-01-01T00:00:00Z"}
	forgedJSON, _ := json.Marshal(forged)
	dir := filepath.Dir(r.Dir)
	for _, tc := range []struct {
		name, member, old, new, want string
	}{
		{"details twice", "git/commits.json", `"details": [`, `"details": [` + string(forgedJSON) + ",",
			first + " has more than one details entry in git/commits.json"},
		{"sha twice", "git/commits.json", `"commits": [`, `"commits": ["` + first + `",`,
			first + " is listed more than once in git/commits.json's commits"},
		{"made-up sha in the manifest", "manifest.json", `"commits": [`, `"commits": ["` + strings.Repeat("d", 40) + `",`,
			strings.Repeat("d", 40) + " is in the signed manifest's commits, but not in git/commits.json"},
		{"sha missing from the manifest", "manifest.json", `"` + first + `",`, ``,
			first + " is in git/commits.json's commits, but not in the signed manifest's"},
		{"a key spelled twice", "git/commits.json", `"ticket_id": "ENG-42",`, `"ticket_id": "ENG-42", "ticket_id": "ENG-7",`,
			`duplicate member "ticket_id"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".tar.gz")
			resign(t, archive, bad, key, "alice-2026", tc.member, tc.old, tc.new)
			out, errOut, code := runIn(t, r.Dir, r.Env, "verify", bad, "--card", card)
			if code != 1 || !strings.Contains(out, "\n[FAIL] commits — ") || !strings.Contains(out, tc.want) ||
				!strings.Contains(out, "make the bundle again with `git bernstein bundle`") || !strings.Contains(out, "[PASS] trust") {
				t.Fatalf("exit %d, want 1 with a failed commits check naming %q\n%s%s", code, tc.want, out, errOut)
			}
		})
	}
}
