package prpatch

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/patch"
	"github.com/git-bernstein/git-bernstein/internal/controls"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// A pull request approved on A, then rebased onto a newer main (H: same diff, new tree), then given one more
// change (H2), with its base merged in (M: the same diff as H2). Each head's patch id is git's of
// `git diff $(git merge-base X base) X`.
func TestMembers(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	r := gittest.New(t)
	r.Commit("init", map[string]string{"lib.go": "package lib\n\nfunc A() int { return 1 }\n", "README": "hello\n"})
	r.Git("checkout", "-q", "-b", "topic")
	a := r.Commit("Fix A", map[string]string{"lib.go": "package lib\n\nfunc A() int { return 2 }\n"})
	r.Git("checkout", "-q", "main")
	r.Commit("Docs", map[string]string{"README": "hello, world\n"})
	r.Git("checkout", "-q", "topic")
	r.Git("rebase", "-q", "main")
	h := r.Rev("HEAD")
	h2 := r.Commit("Also B", map[string]string{"b.go": "package lib\n\nfunc B() {}\n"})
	r.Git("checkout", "-q", "main")
	base := r.Commit("More docs", map[string]string{"NEWS": "news\n"})
	r.Git("checkout", "-q", "topic")
	r.Git("merge", "-q", "--no-edit", "main")
	m := r.Rev("HEAD")
	missing := strings.Repeat("ab", 20)

	repo, err := gitext.Discover(r.Dir, r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	payload := fmt.Sprintf(`{"number":5,"head":{"sha":%q},"base":{"sha":%q}}`, m, base)
	reviews := fmt.Sprintf(`[{"commit_id":%q},{"commit_id":%q},{"commit_id":%q},{"commit_id":%q}]`, a, h, h2, missing)
	ms, err := Members(repo, []PR{{Number: 5, Payload: []byte(payload), Reviews: []byte(reviews)}}, time.Time{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 1 || ms[0].Name != "git/patchids/pr_5.json" {
		t.Fatalf("members %+v", ms)
	}
	var doc controls.PatchIDsDoc
	if err := json.Unmarshal(ms[0].Data, &doc); err != nil {
		t.Fatal(err)
	}
	got := map[string]controls.PatchIDHead{}
	for _, hd := range doc.Heads {
		got[hd.Commit] = hd
	}
	for _, c := range []string{a, h, h2, m} {
		fork := r.Git("merge-base", c, base)
		cmd := exec.Command("sh", "-c", "git diff "+fork+" "+c+" | git patch-id --stable")
		cmd.Dir, cmd.Env = r.Dir, r.Env
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		gitID, _, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
		if got[c].PatchID == nil || *got[c].PatchID != gitID || got[c].ForkPoint != fork {
			t.Errorf("%s: got %+v, want patch id %s from %s", c[:12], got[c], gitID, fork[:12])
		}
	}
	id := func(c string) string { return *got[c].PatchID }
	if id(a) != id(h) || id(h2) != id(m) || id(a) == id(h2) {
		t.Errorf("rebase and merge of the base should keep the patch id, a new change should not: A %s H %s H2 %s M %s",
			id(a), id(h), id(h2), id(m))
	}
	if got[missing].PatchID != nil || !strings.Contains(got[missing].Why, "not in the bundler's clone") {
		t.Errorf("a commit the clone lacks: %+v", got[missing])
	}
	// The deadline stops the work between commits.
	past := time.Now().Add(-time.Second)
	if _, err := Members(repo, []PR{{Number: 5, Payload: []byte(payload)}}, past, nil); err != ErrDeadline {
		t.Errorf("past deadline: %v", err)
	}
}

// In a criss-cross history two commits have two merge bases: Head takes the one it is told to prefer (verify
// --repo passes the bundle's), else the first.
func TestHeadPrefersAForkPoint(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	r := gittest.New(t)
	r.Commit("init", map[string]string{"a": "a\n"})
	r.Git("checkout", "-q", "-b", "x")
	x1 := r.Commit("x1", map[string]string{"x": "x\n"})
	r.Git("checkout", "-q", "-b", "y", "main")
	y1 := r.Commit("y1", map[string]string{"y": "y\n"})
	r.Git("merge", "-q", "--no-edit", "x")
	y2 := r.Commit("y2", map[string]string{"y": "y2\n"})
	r.Git("checkout", "-q", "x")
	r.Git("merge", "-q", "--no-edit", y1)
	x2 := r.Commit("x2", map[string]string{"x": "x2\n"})
	bases := strings.Fields(r.Git("merge-base", "--all", x2, y2))
	if len(bases) != 2 {
		t.Fatalf("merge bases %v, want %s and %s", bases, x1, y1)
	}
	repo, err := gitext.Discover(r.Dir, r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	d := patch.NewDiffer(repo)
	first, ok := Head(repo, d, y2, x2, "")
	if !ok || (first.ForkPoint != x1 && first.ForkPoint != y1) {
		t.Fatalf("no preference: %+v", first)
	}
	for _, prefer := range []string{x1, y1} {
		h, ok := Head(repo, d, y2, x2, prefer)
		if !ok || h.ForkPoint != prefer || h.PatchID == nil {
			t.Errorf("prefer %s: %+v", prefer[:12], h)
		}
	}
	if h, _ := Head(repo, d, y2, x2, strings.Repeat("cd", 20)); h.ForkPoint != first.ForkPoint {
		t.Errorf("a preference that is no merge base: fork point %s, want %s", h.ForkPoint, first.ForkPoint)
	}
}
