package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/controls"
	"github.com/git-bernstein/git-bernstein/internal/github/githubtest"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// TestVerifyRepoPatchIDs: a bundle made with --controls carries git/patchids/pr_77.json, the patch ids the
// bundler's git computed for the commit #77 was approved on and its rebased final head, which audit trusts to
// carry the approval across the rebase. verify --repo computes them again: the repository passes, a clone that
// lacks the approved commit warns, and a bundle whose member was edited and signed again fails, naming the
// member and the head. The history is testdata/script/audit_rebased_approval.txtar's, made with the same
// identities and dates, so that its commit ids are the ones the fake GitHub's answers name.
func TestVerifyRepoPatchIDs(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := t.TempDir()
	dir := filepath.Join(root, "repo")
	env := append(gittest.Env(root), "GIT_AUTHOR_DATE=@1767225600 +0000", "GIT_COMMITTER_DATE=@1767225600 +0000")
	agent := append(append([]string{}, env...), "GIT_AUTHOR_NAME=Ada Agent", "GIT_AUTHOR_EMAIL=ada@agents.example",
		"GIT_COMMITTER_NAME=Rita Reviewer", "GIT_COMMITTER_EMAIL=rita@example.com")
	dev := append(append([]string{}, env...), "GIT_AUTHOR_NAME=Dev One", "GIT_AUTHOR_EMAIL=dev@example.com",
		"GIT_COMMITTER_NAME=Dev One", "GIT_COMMITTER_EMAIL=dev@example.com")
	git := func(env []string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	git(agent, "init", "-q", "-b", "main")
	git(agent, "config", "bernstein.tracker", "github")
	git(agent, "remote", "add", "origin", "https://github.com/acme/scen.git")
	git(agent, "commit", "-q", "--allow-empty", "-m", "init")
	git(agent, "checkout", "-q", "-b", "topic")
	write("f0.txt", "round\n")
	git(dev, "add", "f0.txt")
	git(dev, "commit", "-q", "-m", "Round totals", "-m", "Refs: #87")
	git(dev, "checkout", "-q", "main")
	write("news.txt", "news\n")
	git(dev, "add", "news.txt")
	git(dev, "commit", "-q", "-m", "Update news")
	git(dev, "checkout", "-q", "topic")
	git(dev, "rebase", "-q", "main")
	git(agent, "checkout", "-q", "main")
	git(agent, "merge", "-q", "--no-ff", "-m", "Merge pull request #77 from acme/topic", "-m", "Refs: #87", "topic")
	const approved, final = "47a85ddf672b5b91c65a2329525f9acfbb0ffafd", "01f9906d935e8e0fd13f71c3fd0d064c8e6b8433"

	srv := githubtest.New(t, "")
	benv := append(append([]string{}, agent...), "GITHUB_API_URL="+srv.APIURL(), "GITHUB_TOKEN="+testToken, "GH_TOKEN=",
		"SOURCE_DATE_EPOCH=1767225600")
	key, card := filepath.Join(root, "alice.pem"), filepath.Join(root, "alice.card.json")
	if _, e, c := runIn(t, dir, benv, "keygen", "--kid", "alice-2026", "--key", key, "--card", card); c != 0 {
		t.Fatalf("keygen: %s", e)
	}
	archive := filepath.Join(root, "87.tar.gz")
	if out, e, c := runIn(t, dir, benv, "bundle", "#87", "--controls", "--sign-key", key, "--sign-kid", "alice-2026", "--out", archive); c != 0 {
		t.Fatalf("bundle: %s %s", out, e)
	}
	const member = "git/patchids/pr_77.json"
	_, files := readArchive(t, archive)
	var doc controls.PatchIDsDoc
	if err := json.Unmarshal(files[member], &doc); err != nil || len(doc.Heads) != 2 {
		t.Fatalf("%s: %v\n%s", member, err, files[member])
	}
	for _, h := range doc.Heads {
		if h.PatchID == nil || h.ForkPoint == "" {
			t.Fatalf("%s: the fake GitHub's commits are not this history's: %+v", member, h)
		}
	}

	// Edited and signed again with alice's key: only the repository check can tell.
	edited := func(name string, edit func(h *controls.PatchIDHead)) string {
		t.Helper()
		out := filepath.Join(root, name)
		resignWith(t, archive, out, key, func(files map[string][]byte) {
			var d controls.PatchIDsDoc
			if err := json.Unmarshal(files[member], &d); err != nil {
				t.Fatal(err)
			}
			for i := range d.Heads {
				if d.Heads[i].Commit == final {
					edit(&d.Heads[i])
				}
			}
			files[member], _ = json.MarshalIndent(d, "", "  ")
		})
		if o, _, c := runIn(t, root, benv, "verify", out, "--card", card); c != 0 {
			t.Fatalf("%s does not verify without --repo\n%s", name, o)
		}
		return out
	}
	forged := strings.Repeat("5", 40)
	editedID := edited("id.tar.gz", func(h *controls.PatchIDHead) { h.PatchID = &forged })
	editedFork := edited("fork.tar.gz", func(h *controls.PatchIDHead) { h.ForkPoint = approved })

	clone := filepath.Join(root, "clone")
	git(agent, "clone", "-q", "--no-local", dir, clone)

	for _, tc := range []struct {
		name, repo, archive string
		code                int
		line, problem       string
	}{
		{"the repository", dir, archive, 0, "[PASS] repository — ",
			"; git/patchids: 2 heads of 1 pull request computed again here, each with the fork point and patch id the bundle records\n"},
		{"a clone that lacks the approved commit", clone, archive, 0, "[WARN] repository — ",
			"- " + member + ": head 47a85ddf672b: unknown, unchecked: the bundle records fork point "},
		{"an edited patch id", dir, editedID, 1, "[FAIL] repository — the git section disagrees with ",
			"- " + member + ": head 01f9906d935e: the bundle records patch id " + forged + " of the diff from its fork point "},
		{"an edited fork point", dir, editedFork, 1, "[FAIL] repository — the git section disagrees with ",
			"- " + member + ": head 01f9906d935e: the bundle records fork point 47a85ddf672b and patch id "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, errOut, code := runIn(t, root, benv, "verify", tc.archive, "--card", card, "--repo="+tc.repo)
			if code != tc.code || !strings.Contains(out, "\n"+tc.line) || !strings.Contains(out, tc.problem) {
				t.Fatalf("exit %d, want %d, a line %q and %q\n%s%s", code, tc.code, tc.line, tc.problem, out, errOut)
			}
		})
	}
}
