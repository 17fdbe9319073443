package notes

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// The optional lineage_v2_checkpoint_sha256: a line without it is exactly what earlier versions wrote (the
// golden line of TestEntryLine), a line with it has it in its sorted place, and a reader that knows nothing of
// it (a struct without the field, as earlier versions have) reads the line as the same bundle.
func TestEntryCheckpointField(t *testing.T) {
	t.Parallel()
	e := entry("ENG-42", "abc1234.tar.gz")
	old, _ := e.Line()
	if strings.Contains(old, "lineage") {
		t.Fatalf("line without a checkpoint names one: %s", old)
	}
	e.LineageV2Checkpoint = strings.Repeat("c", 64)
	line, err := e.Line()
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(old, `"kid":"",`, `"kid":"","lineage_v2_checkpoint_sha256":"`+strings.Repeat("c", 64)+`",`, 1); line != want {
		t.Fatalf("line\n got %s\nwant %s", line, want)
	}
	back, other := Parse([]byte(line + "\n" + old + "\n"))
	if len(back) != 2 || len(other) != 0 || back[0] != e || back[1].LineageV2Checkpoint != "" {
		t.Fatalf("Parse: %+v %q", back, other)
	}
}

// cat_sort_uniq still merges notes whose lines carry the new key, and ones that do not, to what MergeLines
// writes: two clones, one noting with checkpoints and one without.
func TestNotesMergeWithCheckpoints(t *testing.T) {
	t.Parallel()
	origin := gittest.New(t)
	c := origin.Commit("shared", map[string]string{"a": "1\n"})
	clone := func(name string) *gittest.Repo {
		dir := filepath.Join(filepath.Dir(origin.Dir), name)
		origin.Git("clone", "-q", origin.Dir, dir)
		return origin.Open(dir)
	}
	a, b := clone("a"), clone("b")
	withCP := entry("ENG-1", "s.tar.gz")
	withCP.LineageV2Checkpoint = strings.Repeat("d", 64)
	plain, other := entry("ENG-2", "p.tar.gz"), entry("ENG-3", "o.tar.gz")
	other.LineageV2Checkpoint = strings.Repeat("e", 64)
	if _, err := Add(openRepo(t, a), DefaultRef, plumbing.NewHash(c), testSig, withCP, plain); err != nil {
		t.Fatal(err)
	}
	if _, err := Add(openRepo(t, b), DefaultRef, plumbing.NewHash(c), testSig, other, withCP); err != nil {
		t.Fatal(err)
	}
	b.Git("fetch", "-q", a.Dir, "refs/notes/bernstein:refs/notes/remotes/a/bernstein")
	b.Git("notes", "--ref=bernstein", "merge", "-q", "-s", "cat_sort_uniq", "refs/notes/remotes/a/bernstein")
	var want []string
	for _, e := range []Entry{withCP, plain, other} {
		l, _ := e.Line()
		want = append(want, l)
	}
	sort.Strings(want)
	if got := b.Git("notes", "--ref=bernstein", "show", c); got != strings.Join(want, "\n") {
		t.Fatalf("merged note:\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
	if got := string(MergeLines([]byte(strings.Join(want[:2], "\n")+"\n"), want[1:], nil)); got != strings.Join(want, "\n")+"\n" {
		t.Fatalf("MergeLines:\n%s", got)
	}
}
