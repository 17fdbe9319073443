package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/record"
)

// hookToStore is the store tests' common start: ticketRepo's repository signs with key (kid k1), attests and
// uploads to store (plus the extra key/value settings), merges feature/ENG-42-login and runs the post-merge
// hook, which must print no problem. It returns the merge and the sha256 of the archive the hook recorded.
func hookToStore(t *testing.T, r *gittest.Repo, env []string, key, store string, extra ...string) (head, sum string) {
	t.Helper()
	settings := append([]string{"bernstein.signingKey", key, "bernstein.signingKid", "k1",
		"bernstein.hookBudget", "60s", "bernstein.attest", "true", "bernstein.store", store}, extra...)
	for i := 0; i+1 < len(settings); i += 2 {
		r.Git("config", settings[i], settings[i+1])
	}
	r.Git("merge", "-q", "--no-ff", "-m", "Merge branch 'feature/ENG-42-login'", "feature/ENG-42-login")
	if out, e, c := runIn(t, r.Dir, env, "hook", "post-merge", "0"); c != 0 || strings.Contains(e, "post-merge:") {
		t.Fatalf("hook: %d %s %s", c, out, e)
	}
	head = r.Rev("HEAD")
	sum, err := record.FileSHA256(hookArchive(r, head))
	if err != nil {
		t.Fatal(err)
	}
	return head, sum
}

// hookArchive is where the hook keeps ENG-42's archive for the merge head.
func hookArchive(r *gittest.Repo, head string) string {
	return filepath.Join(r.Dir, ".git", "bernstein", "bundles", "github", "ENG-42", head[:12]+".tar.gz")
}

// bareOrigin makes a bare repository beside r's and adds it as r's origin; it returns its path.
func bareOrigin(r *gittest.Repo) string {
	bare := filepath.Join(filepath.Dir(r.Dir), "remote.git")
	r.Git("init", "-q", "--bare", "-b", "main", bare)
	r.Git("remote", "add", "origin", bare)
	return bare
}
