package patch

import (
	"os/exec"
	"testing"

	"github.com/git-bernstein/git-bernstein/gitext/patch/patchcmp"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

func needGit(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed: the tests use it as the judge")
	}
}

// assertLikeGit holds one part against what `git format-patch --full-index --stdout -1` writes for the same
// commit, byte for byte but for the signature and the deflated bytes of binary hunks (patchcmp.Normalize).
func assertLikeGit(t *testing.T, r *gittest.Repo, commit string, ours []byte) {
	t.Helper()
	theirs, err := r.GitErr("format-patch", "--stdout", "--full-index", "-1", commit)
	if err != nil {
		t.Fatal(err)
	}
	got, want := patchcmp.Normalize(string(ours)), patchcmp.Normalize(theirs)
	if got != want {
		t.Errorf("part differs from git format-patch (normalized)\n--- ours\n%s\n--- git\n%s", got, want)
	}
}
