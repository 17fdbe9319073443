package main

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestGenMonoShape generates a small monorepo and holds it to what the bench row says of it: the commits asked
// for, Kafka's file count, the ticket named by its share of the commits, a pack with no loose objects and no
// commit-graph, and a history git fsck accepts. BERNSTEIN_MONO_TIMING=N logs how long N commits take.
func TestGenMonoShape(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a 70 MB tree: make test runs it, go test -short skips it")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("HOME", t.TempDir())
	const commits = 600
	dir := filepath.Join(t.TempDir(), "mono")
	start := time.Now()
	if err := genMono(dir, commits, 1); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d commits in %s", commits, time.Since(start).Round(time.Millisecond))
	git := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if got := git("rev-list", "--count", "main"); got != strconv.Itoa(commits) {
		t.Errorf("%s commits, want %d", got, commits)
	}
	if got := strings.Count(git("ls-tree", "-r", "--name-only", "main"), "\n") + 1; got != 6519 {
		t.Errorf("%d files in the tree, want Kafka's 6519", got)
	}
	named := strings.Count(git("log", "--format=%s", "--grep="+monoTicket, "main"), "\n") + 1
	if named < monoTicketCommits-1 || named > monoTicketCommits+1 {
		t.Errorf("%d commits name %s, want about %d", named, monoTicket, monoTicketCommits)
	}
	if got := git("count-objects", "-v"); !strings.Contains(got, "count: 0\n") || !strings.Contains(got, "packs: 1\n") {
		t.Errorf("want every object in one pack:\n%s", got)
	}
	if _, err := exec.Command("test", "-e", filepath.Join(dir, ".git", "objects", "info", "commit-graph")).Output(); err == nil {
		t.Error("a commit-graph was left: a fresh clone has none")
	}
	git("fsck", "--no-progress", "--connectivity-only")
}

// TestGenMonoChunksMakeTheSameHistory imports the same history in chunks of 250 commits, as a million commits
// are imported (each run's pack deltified and replaced), and holds it to the one-run import: the same commits
// at the tip and across a chunk's edge, every object in one pack, and a history git fsck accepts.
func TestGenMonoChunksMakeTheSameHistory(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a 70 MB tree twice: make test runs it, go test -short skips it")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("HOME", t.TempDir())
	const commits = 600
	whole, chunked := filepath.Join(t.TempDir(), "whole"), filepath.Join(t.TempDir(), "chunked")
	if err := genMonoChunked(whole, commits, 1, commits); err != nil {
		t.Fatal(err)
	}
	if err := genMonoChunked(chunked, commits, 1, 250); err != nil {
		t.Fatal(err)
	}
	git := func(dir string, args ...string) string {
		t.Helper()
		out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	for _, ref := range []string{"refs/heads/main", "refs/heads/main~250", "refs/heads/main~251"} {
		if a, b := git(whole, "rev-parse", ref), git(chunked, "rev-parse", ref); a != b {
			t.Errorf("%s: %s in chunks, %s in one run", ref, b, a)
		}
	}
	if got := git(chunked, "count-objects", "-v"); !strings.Contains(got, "count: 0\n") ||
		!strings.Contains(got, "packs: 1\n") {
		t.Errorf("want every object in one pack:\n%s", got)
	}
	if got, err := filepath.Glob(filepath.Join(chunked, ".git", "objects", "pack", "*.bench-deltified")); err != nil || len(got) > 0 {
		t.Errorf("chunk marks left behind: %v %v", got, err)
	}
	git(chunked, "fsck", "--no-progress", "--connectivity-only")
}
