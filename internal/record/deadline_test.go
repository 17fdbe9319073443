package record

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

// The hook's budget also bounds a ticket already started: when the deadline passes while its bundle is being
// written, the bundle is given up (nothing written, no note) and the ticket is left for later with the rest,
// as when the budget runs out between tickets.
func TestDeadlineInsideATicketDefersIt(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	r.Commit("Initial", map[string]string{"README": "x\n"})
	base := r.Rev("HEAD")
	r.Commit("Add login\n\nRefs: ENG-42, ENG-7", map[string]string{"login.py": "pass\n"})
	repo, err := gitext.Discover(r.Dir, r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	finder, err := NewFinder("", "jira", discover.DefaultTrailerKeys, gitext.TrailerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	readings := 0
	bundles := filepath.Join(t.TempDir(), "bundles")
	rep, err := Record(Options{
		Repo: repo, Range: base + "..HEAD", Finder: finder, BundleDir: bundles, NotesRef: notes.DefaultRef,
		Author: gitext.Signature{Name: "T", Email: "t@example.com", When: deadline},
		Discovery: func(id string) (discover.Options, error) {
			tk, err := ticket.Parse("jira", id)
			return discover.Options{Ticket: tk, Sources: discover.AllSources, TrailerKeys: discover.DefaultTrailerKeys}, err
		},
		Deadline: deadline,
		// The first reading (may the first ticket start?) is in time; every later one is past the deadline.
		Now: func() time.Time {
			if readings++; readings == 1 {
				return deadline.Add(-time.Hour)
			}
			return deadline.Add(time.Second)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Recorded) != 0 || len(rep.Failed) != 0 || len(rep.Deferred) != 2 || rep.DeferredWhy != DeferredBudget {
		t.Fatalf("recorded %d, failed %v, deferred %v (%s); want both tickets deferred for the budget",
			len(rep.Recorded), rep.Failed, rep.Deferred, rep.DeferredWhy)
	}
	var left []string
	filepath.Walk(bundles, func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			left = append(left, path)
		}
		return nil
	})
	if len(left) != 0 {
		t.Errorf("files left in the bundle folder: %v", left)
	}
	if out, err := r.GitErr("notes", "--ref=bernstein", "list"); err != nil || out != "" {
		t.Errorf("notes written: %q %v", out, err)
	}
}
