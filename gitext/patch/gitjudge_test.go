package patch

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

func needGit(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed: the tests use it as the judge")
	}
}

var (
	binaryHunks = regexp.MustCompile(`GIT binary patch\n(?:(?:literal|delta) \d+\n(?:[^\n]+\n)*\n){1,2}`)
	signature   = regexp.MustCompile(`(?m)^-- \n[^\n]*\n*\z`)
)

// normalizeLikeGit maps our part and git's onto one form: binary hunks and signatures elided, and git's
// --no-stat blank line before the first diff turned into our "---" line.
func normalizeLikeGit(s string, ours bool) string {
	s = binaryHunks.ReplaceAllString(s, "GIT binary patch\n<hunks>\n")
	s = signature.ReplaceAllString(s, "-- \n<signature>\n")
	if !ours {
		if i := strings.Index(s, "\ndiff --git "); i > 0 && s[i-1] == '\n' {
			s = s[:i] + "---\n" + s[i+1:]
		}
	}
	return s
}

// assertLikeGit compares one part with what git format-patch writes for the same commit.
func assertLikeGit(t *testing.T, r *gittest.Repo, commit string, ours []byte) {
	t.Helper()
	theirs, err := r.GitErr("format-patch", "--stdout", "--full-index", "--binary", "--no-stat", "-1", commit)
	if err != nil {
		t.Fatal(err)
	}
	got, want := normalizeLikeGit(string(ours), true), normalizeLikeGit(theirs+"\n", false)
	if got != want {
		t.Errorf("part differs from git format-patch (normalized)\n--- ours\n%s\n--- git\n%s", got, want)
	}
}
