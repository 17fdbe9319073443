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
