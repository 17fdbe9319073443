package discover

import (
	"bytes"
	"os"
	"reflect"
	"testing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

// An index whose postings name, for a word of the ticket, a commit whose message lacks it was not written by us:
// it is not trusted, and history is walked again and the file rewritten (the answer is right either way, since
// no match is taken from the index).
func TestIndexForgedPostingRebuilt(t *testing.T) {
	t.Parallel()
	s := newScenario(t)
	want := s.findIndexed(t, "ENG-42", false)
	s.findIndexed(t, "ENG-42", true) // writes the index
	repo, err := gitext.Discover(s.r.Dir, s.r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := loadIndex(repo)
	if err != nil || ix == nil {
		t.Fatalf("no index: %v", err)
	}
	all, ok := ix.allPostings()
	if !ok {
		t.Fatal("postings do not decode")
	}
	other, _ := ix.g.Index(gitext.NewHash(s.sha["other"]))
	for _, w := range ticketWords("ENG-42") {
		all.add(w, uint32(other))
	}
	forged := encodeIndex(ix.g, ix.tips, all)
	if err := os.WriteFile(IndexPath(repo), forged, 0o644); err != nil {
		t.Fatal(err)
	}
	got := s.findIndexed(t, "ENG-42", true)
	if !reflect.DeepEqual(got.Commits, want.Commits) {
		t.Errorf("answer changed: %v, want %v", got.Commits, want.Commits)
	}
	now, err := os.ReadFile(IndexPath(repo))
	if err != nil || bytes.Equal(now, forged) {
		t.Errorf("the forged index was kept (%v)", err)
	}
}

// Find at recorded tips and base gives the answer the recording run gave, after the repository moved on: a new
// commit of the ticket, the ticket branch deleted, the base branch moved.
func TestFindAtRecordedState(t *testing.T) {
	t.Parallel()
	s := newScenario(t)
	tk, _ := ticket.Parse("github", "ENG-42")
	opts := Options{Ticket: tk, Sources: AllSources, TrailerKeys: DefaultTrailerKeys}
	repo, err := gitext.Discover(s.r.Dir, s.r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	then, err := Find(repo, opts)
	if err != nil {
		t.Fatal(err)
	}
	d := then.Discovery
	if d == nil || d.Rules != RulesVersion || d.BaseBranch.Ref != "refs/heads/main" || d.Tips["refs/heads/bugfix/eng-42-crash"] != s.sha["live"] || len(d.Tips) != 3 {
		t.Fatalf("discovery: %+v", d)
	}

	s.r.Git("branch", "-q", "-D", "bugfix/eng-42-crash")
	s.r.Commit("Later fix\n\nRefs: ENG-42", map[string]string{"later": "2\n"})
	repo, err = gitext.Discover(s.r.Dir, s.r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	at := opts
	at.NoCaches = true
	for name, sha := range d.Tips {
		at.Tips = append(at.Tips, gitext.Tip{Name: gitext.RefName(name), Commit: gitext.NewHash(sha)})
	}
	at.Base = &gitext.Tip{Name: gitext.RefName(d.BaseBranch.Ref), Commit: gitext.NewHash(d.BaseBranch.SHA)}
	again, err := Find(repo, at)
	if err != nil {
		t.Fatal(err)
	}
	again.Discovery, then.Discovery = nil, nil
	if !reflect.DeepEqual(again.Details, then.Details) {
		t.Errorf("at the recorded state:\n%+v\nwant\n%+v", again.Details, then.Details)
	}
	now, err := Find(repo, opts)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(now.Commits, then.Commits) {
		t.Errorf("the repository did not move on: %v", now.Commits)
	}
}
