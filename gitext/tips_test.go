package gitext_test

import (
	"testing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// openWithTips opens r as a command would and lists the tips its history starts from.
func openWithTips(t *testing.T, r *gittest.Repo) (*gitext.Repo, []gitext.Tip) {
	t.Helper()
	repo, err := gitext.Discover(r.Dir, r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	tips, err := repo.HistoryTips()
	if err != nil {
		t.Fatal(err)
	}
	return repo, tips
}
