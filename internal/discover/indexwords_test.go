package discover

import (
	"reflect"
	"testing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

func TestIndexedWords(t *testing.T) {
	r := gittest.New(t)
	r.Commit("Add login\n\nRefs: ENG-42", nil)
	r.Commit("Fix ENG-420 and ENG-7", nil)
	r.Commit("Bump go-1.19", nil)
	repo, err := gitext.Discover(r.Dir, r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	if got := IndexedWords(repo, "4", 10); got != nil {
		t.Fatalf("before any index: %q", got)
	}
	tk, _ := ticket.Parse("jira", "ENG-42")
	if _, err := Find(repo, Options{Ticket: tk, Sources: AllSources, TrailerKeys: DefaultTrailerKeys, UseIndex: true}); err != nil {
		t.Fatal(err)
	}
	if got, want := IndexedWords(repo, "4", 10), []string{"42", "420"}; !reflect.DeepEqual(got, want) {
		t.Errorf("IndexedWords(4) = %q, want %q", got, want)
	}
	if got, want := IndexedWords(repo, "", 2), []string{"1", "19"}; !reflect.DeepEqual(got, want) {
		t.Errorf("IndexedWords('', 2) = %q, want %q", got, want)
	}
}
