package notes

import (
	"github.com/git-bernstein/git-bernstein/gitext"
	"slices"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// noteOn adds entries as git would, with `git notes add` on the default ref.
func noteOn(t *testing.T, r *gittest.Repo, target string, entries ...Entry) {
	t.Helper()
	var lines []string
	for _, e := range entries {
		line, err := e.Line()
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, line)
	}
	r.Git("notes", "--ref", DefaultRef.String(), "add", "-f", "-m", strings.Join(lines, "\n"), target)
}

// OnHistory finds the notes on the tip and its ancestors, oldest commit first, and leaves out notes on a side
// branch, on a later commit and on a blob; On and ForTicket read one commit's note and one ticket's entries.
func TestLookups(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	c1 := r.Commit("one", map[string]string{"a": "1\n"})
	r.Git("checkout", "-q", "-b", "side")
	s1 := r.Commit("side", map[string]string{"s": "1\n"})
	r.Git("checkout", "-q", "main")
	c2 := r.Commit("two", map[string]string{"a": "2\n"})
	c3 := r.Commit("three", map[string]string{"a": "3\n"})
	c4 := r.Commit("four", map[string]string{"a": "4\n"})
	c5 := r.Commit("five, no note", map[string]string{"a": "5\n"})
	blob := r.Git("rev-parse", "HEAD:a")
	second := entry("ENG-2", "two.tar.gz")
	second.BundleSHA256 = strings.Repeat("2", 64)
	noteOn(t, r, c3, entry("ENG-3", "three.tar.gz"))
	noteOn(t, r, c1, entry("ENG-1", "one.tar.gz"), second)
	side := entry("ENG-1", "side.tar.gz")
	side.BundleSHA256 = strings.Repeat("5", 64)
	noteOn(t, r, s1, side)
	noteOn(t, r, c2, entry("ENG-1", "again.tar.gz")) // one.tar.gz's digest: the same archive noted twice
	noteOn(t, r, c4, entry("ENG-4", "four.tar.gz"))
	noteOn(t, r, blob, entry("ENG-5", "blob.tar.gz"))
	repo := openRepo(t, r)
	ref := DefaultRef

	got, err := OnHistory(repo, ref, gitext.NewHash(c3))
	if err != nil {
		t.Fatal(err)
	}
	var commits, bundles []string
	for _, on := range got {
		commits = append(commits, on.Commit.String())
		for _, e := range on.Entries {
			bundles = append(bundles, e.Bundle)
		}
	}
	if !slices.Equal(commits, []string{c1, c2, c3}) ||
		!slices.Equal(bundles, []string{"one.tar.gz", "two.tar.gz", "again.tar.gz", "three.tar.gz"}) {
		t.Errorf("OnHistory(three) = %v %v, want [one two three] and their bundles", commits, bundles)
	}
	for i := 1; i < len(got); i++ {
		if got[i-1].When >= got[i].When {
			t.Errorf("not oldest first: %d, %d", got[i-1].When, got[i].When)
		}
	}

	entries, _, ok, err := On(repo, ref, gitext.NewHash(c1))
	if err != nil || !ok || len(entries) != 2 {
		t.Errorf("On(one) = %v %v %v", entries, ok, err)
	}
	if _, _, ok, err := On(repo, ref, gitext.NewHash(c4)); err != nil || !ok {
		t.Errorf("On(four) = %v %v", ok, err)
	}
	if _, _, ok, err := On(repo, ref, gitext.NewHash(c5)); err != nil || ok {
		t.Errorf("On(a commit with no note) = %v %v", ok, err)
	}

	// ENG-1's archives: the one noted on one and on two (same digest) once, and the side branch's, which this
	// history does not reach, too (compared ignoring case).
	mine, err := ForTicket(repo, ref, "eng-1")
	if err != nil {
		t.Fatal(err)
	}
	var digests []string
	for _, e := range mine {
		digests = append(digests, e.BundleSHA256[:1])
	}
	slices.Sort(digests)
	if !slices.Equal(digests, []string{"5", "a"}) {
		t.Errorf("ForTicket(eng-1) digests = %v, want one each of 5… and a…", digests)
	}

	// Every archive noted anywhere (on commits, on the blob, on the side branch), each digest once.
	distinct, err := Distinct(repo, ref)
	if err != nil {
		t.Fatal(err)
	}
	digests = nil
	for _, e := range distinct {
		digests = append(digests, e.BundleSHA256[:1])
	}
	slices.Sort(digests)
	if !slices.Equal(digests, []string{"2", "5", "a"}) {
		t.Errorf("Distinct digests = %v, want one each of 2…, 5… and a…", digests)
	}
}
