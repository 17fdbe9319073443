package gitext

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// TestExcludeLocally: git itself (check-ignore, status) ignores exactly the file ExcludeLocally names, whatever
// gitignore syntax its name holds, and a second call adds nothing.
func TestExcludeLocally(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	repo, err := Discover(r.Dir, r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"k.pem", "sub/k.pem", "#k.pem", "!k.pem", "k*.pem", "k?.pem", "[k].pem", `k\.pem`, "k.pem ", "sp ace.pem"}
	for _, n := range names {
		r.Write(n, "secret\n")
		n := n
		pattern, err := repo.ExcludeLocally(filepath.Join(r.Dir, n))
		if err != nil || pattern == "" {
			t.Fatalf("%q: pattern %q, %v", n, pattern, err)
		}
		if again, err := repo.ExcludeLocally(filepath.Join(r.Dir, n)); again != "" || err != nil {
			t.Errorf("%q: second call added %q, %v", n, again, err)
		}
	}
	r.Write("kx.pem", "other\n") // k*.pem and k?.pem must not catch it: their pattern is escaped
	r.Write("sub/other.pem", "other\n")
	status := r.Git("status", "--porcelain", "--untracked-files=all", "-z")
	var untracked []string
	for _, e := range strings.Split(strings.TrimRight(status, "\x00"), "\x00") {
		untracked = append(untracked, strings.TrimPrefix(e, "?? "))
	}
	want := "kx.pem,sub/other.pem"
	if got := strings.Join(untracked, ","); got != want {
		t.Errorf("git status lists %q, want only %q", got, want)
	}
	if _, err := repo.ExcludeLocally(filepath.Join(os.TempDir(), "outside.pem")); err != nil {
		t.Error(err)
	}
}
