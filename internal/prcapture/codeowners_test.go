package prcapture

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/controls"
	"github.com/git-bernstein/git-bernstein/internal/github"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// CODEOWNERS is read from git at each base commit, in GitHub's order (.github/ before the root and docs/).
func TestCodeOwnersMembers(t *testing.T) {
	r := gittest.New(t)
	none := r.Commit("init", map[string]string{"README": "hi\n"})
	root := r.Commit("root owners", map[string]string{"CODEOWNERS": "* @root\n", "docs/CODEOWNERS": "* @docs\n"})
	dotgithub := r.Commit("owners", map[string]string{".github/CODEOWNERS": "*.go @gophers\n"})
	repo, err := gitext.Discover(r.Dir, r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	payload := func(n int, base string) github.PR {
		return github.PR{Number: n, Payload: []byte(fmt.Sprintf(`{"number":%d,"base":{"sha":%q,"ref":"main"}}`, n, base))}
	}
	missing := strings.Repeat("1", 40)
	ms, warnings := codeOwnersMembers(repo, []github.PR{payload(1, none), payload(2, root), payload(3, dotgithub), payload(4, dotgithub), payload(5, missing)})
	if len(warnings) != 1 || !strings.Contains(warnings[0], "pull request #5") || !strings.Contains(warnings[0], "not in this clone") {
		t.Errorf("warnings %q", warnings)
	}
	want := map[string]string{none: "", root: "CODEOWNERS", dotgithub: ".github/CODEOWNERS"}
	if len(ms) != len(want) {
		t.Fatalf("%d members, want %d (one a base commit)", len(ms), len(want))
	}
	for _, m := range ms {
		var d controls.CodeOwnersDoc
		if err := json.Unmarshal(m.Data, &d); err != nil {
			t.Fatal(err)
		}
		if m.Name != controls.CodeOwnersName(d.Commit) {
			t.Errorf("%s holds %s", m.Name, d.Commit)
		}
		got := ""
		if d.Path != nil {
			got = *d.Path
		}
		if got != want[d.Commit] {
			t.Errorf("%s: path %q, want %q", d.Commit[:12], got, want[d.Commit])
		}
	}
}
