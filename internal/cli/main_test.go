package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// binDir holds git-bernstein and git-bernstein-full built from this tree, for tests where git itself runs us (hooks). It is built at
// most once per package run, and only when such a test runs.
var (
	binDir  string
	binOnce sync.Once
	binErr  error
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "git-bernstein-bin-")
	if err != nil {
		panic(err)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	ticketRepos.Remove()
	traceBundles.Remove()
	os.Exit(code)
}

// builtBinary returns the folder holding the built git-bernstein and git-bernstein-full.
func builtBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		// Linking the whole binary is seconds of CPU; the in-process tests cover the same code under -short.
		t.Skip("builds git-bernstein for git to run as a hook or helper: make test runs it")
	}
	binOnce.Do(func() {
		// Both programs, side by side as installed: git runs the front, which hands the hook to the other.
		cmd := exec.Command("go", "build", "-o", binDir+string(filepath.Separator),
			"github.com/git-bernstein/git-bernstein/cmd/git-bernstein",
			"github.com/git-bernstein/git-bernstein/cmd/git-bernstein-full")
		if out, err := cmd.CombinedOutput(); err != nil {
			binErr = err
			t.Logf("go build: %s", out)
		}
	})
	if binErr != nil {
		t.Fatalf("build git-bernstein: %v", binErr)
	}
	return binDir
}
