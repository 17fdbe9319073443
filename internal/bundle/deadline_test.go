package bundle

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

// A build whose deadline passes gives up with ErrDeadline wherever it is, between steps or in the middle of
// reading a member, and leaves nothing behind: no archive, no signature, no temp file or work folder.
func TestDeadlineGivesUpAndLeavesNothing(t *testing.T) {
	t.Parallel()
	r := fixture(t)
	// A member big enough to be read in many pieces.
	big := strings.Repeat("0123456789abcdef", 1<<16) // 1 MiB
	r.Write(".sdd/traces/ENG-42-big.log", big)
	repo, err := gitext.Discover(r.Dir, r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	tk, _ := ticket.Parse("github", "ENG-42")
	deadline := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	// How often a whole build reads the clock: once after the walk, once after choosing the files, and once a
	// read of each member, hashing and packing.
	total := 0
	if _, err := Build(Options{Repo: repo, Find: discover.Options{Ticket: tk, Sources: discover.AllSources},
		SDD: filepath.Join(r.Dir, ".sdd"), Out: filepath.Join(t.TempDir(), "count.tar.gz"), CreatedAt: fixedTime,
		Deadline: deadline, Now: func() time.Time { total++; return deadline.Add(-time.Hour) }}); err != nil {
		t.Fatal(err)
	}
	if total < 60 { // the 1 MiB member alone is read in 32 KiB pieces, twice
		t.Fatalf("the clock was read %d times: the big member is not read piece by piece", total)
	}
	// The clock reads before the deadline for its first n readings, after it from then on: each n stops the
	// build at a later point, from the first check to the last read of the last member.
	for _, n := range []int{0, 1, 2, 3, total / 4, total / 2, total - 2, total - 1} {
		dir := t.TempDir()
		out := filepath.Join(dir, "ENG-42.tar.gz")
		readings := 0
		now := func() time.Time {
			readings++
			if readings > n {
				return deadline.Add(time.Second)
			}
			return deadline.Add(-time.Hour)
		}
		_, err := Build(Options{Repo: repo, Find: discover.Options{Ticket: tk, Sources: discover.AllSources},
			SDD: filepath.Join(r.Dir, ".sdd"), Out: out, CreatedAt: fixedTime, Deadline: deadline, Now: now})
		if !errors.Is(err, ErrDeadline) {
			t.Fatalf("after %d readings: %v, want ErrDeadline", n, err)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Errorf("after %d readings, left behind: %v", n, ents)
		}
	}
	// With time to spare the same build is written.
	out := filepath.Join(t.TempDir(), "ENG-42.tar.gz")
	if _, err := Build(Options{Repo: repo, Find: discover.Options{Ticket: tk, Sources: discover.AllSources},
		SDD: filepath.Join(r.Dir, ".sdd"), Out: out, CreatedAt: fixedTime, Deadline: time.Now().Add(time.Hour)}); err != nil {
		t.Fatalf("with an hour to spare: %v", err)
	}
	if _, err := os.Stat(out); err != nil {
		t.Fatal(err)
	}
}
