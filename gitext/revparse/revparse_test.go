package revparse_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/revparse"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

func TestResolveRange(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", nil)
	base := r.Commit("base", nil)
	r.Git("checkout", "-q", "-b", "side")
	s1 := r.Commit("side 1", nil)
	s2 := r.Commit("side 2", nil)
	r.Git("checkout", "-q", "main")
	m1 := r.Commit("main 1", nil)
	r.Git("merge", "-q", "--no-ff", "-m", "Merge branch 'side'", "side")
	merge := r.Rev("HEAD")
	repo, err := gitext.Discover(r.Dir, r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		spec string
		want []string
	}{
		{base + "..HEAD", []string{s1, s2, m1, merge}},
		{"HEAD", []string{s1, s2, merge}},
		{"HEAD~1..HEAD", []string{s1, s2, merge}},
		{strings.Repeat("0", 40) + "..HEAD", []string{s1, s2, merge}},
		{"main..side", nil},
		{"ORIG_HEAD..HEAD", []string{s1, s2, merge}},
	}
	for _, c := range cases {
		rg, err := revparse.ResolveRange(repo, c.spec)
		if err != nil {
			t.Fatalf("%s: %v", c.spec, err)
		}
		var got []string
		for _, cm := range rg.Commits {
			got = append(got, cm.Hash.String())
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %d commits %v, want %v", c.spec, len(got), got, c.want)
		}
	}
	for _, bad := range []string{"nope..HEAD", "a...b"} {
		if _, err := revparse.ResolveRange(repo, bad); err == nil {
			t.Errorf("%s resolved", bad)
		}
	}
}
