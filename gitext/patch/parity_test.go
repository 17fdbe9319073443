package patch

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/patch/patchcmp"
)

// parity renders every commit git format-patch writes for revs (one part each, as `format-patch -1` would)
// and counts the parts identical to git's once signatures are set aside and binary hunks inflated.
func parity(t testing.TB, dir string, env []string, revs ...string) (patchcmp.Result, map[string][2]string) {
	t.Helper()
	args := append([]string{"-C", dir, "format-patch", "--stdout", "--full-index", "--no-numbered"}, revs...)
	cmd := exec.Command("git", args...)
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git format-patch: %v", err)
	}
	ids, theirs := patchcmp.Split(string(out))
	repo, err := gitext.Discover(dir, func(k string) string {
		for _, kv := range env {
			if strings.HasPrefix(kv, k+"=") {
				return kv[len(k)+1:]
			}
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	differing := map[string][2]string{}
	res, err := patchcmp.Compare(ids, theirs, func(id string) (string, error) {
		var b bytes.Buffer
		err := WriteSeries(&b, repo, []plumbing.Hash{plumbing.NewHash(id)})
		return b.String(), err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range res.Differing {
		var b bytes.Buffer
		WriteSeries(&b, repo, []plumbing.Hash{plumbing.NewHash(id)})
		differing[id] = [2]string{patchcmp.Normalize(b.String()), patchcmp.Normalize(theirs[id])}
	}
	return res, differing
}

// TestParityOnRepository measures a repository of your choosing: BERNSTEIN_PARITY_REPO=DIR (and optionally
// BERNSTEIN_PARITY_REVS="A..B", BERNSTEIN_PARITY_SHOW=N differing parts to print as diffs).
func TestParityOnRepository(t *testing.T) {
	t.Parallel()
	dir := os.Getenv("BERNSTEIN_PARITY_REPO")
	if dir == "" {
		t.Skip("set BERNSTEIN_PARITY_REPO to a repository to measure")
	}
	revs := strings.Fields(os.Getenv("BERNSTEIN_PARITY_REVS"))
	if len(revs) == 0 {
		revs = []string{"--root", "HEAD"}
	}
	res, differing := parity(t, dir, os.Environ(), revs...)
	t.Logf("byte-identical parts: %s", res)
	show, _ := strconv.Atoi(os.Getenv("BERNSTEIN_PARITY_SHOW"))
	for i, id := range res.Differing {
		if i >= show {
			break
		}
		showDiff(t, id, differing[id][0], differing[id][1])
	}
}

func showDiff(t testing.TB, id, ours, theirs string) {
	t.Helper()
	tmp := t.TempDir()
	os.WriteFile(tmp+"/ours", []byte(ours), 0o644)
	os.WriteFile(tmp+"/git", []byte(theirs), 0o644)
	out, _ := exec.Command("diff", "-u", tmp+"/git", tmp+"/ours").CombinedOutput()
	t.Logf("%s differs (--- git, +++ ours):\n%s", id, truncate(string(out), 4000))
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf("\n… (%d more bytes)", len(s)-n)
}
