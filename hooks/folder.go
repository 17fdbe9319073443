// Package hooks installs, removes and reports git-bernstein's git hooks without hurting anyone else's: it finds
// the hooks folder the way git does, never overwrites a hook it did not write (it moves it aside and calls it
// first), installs idempotently and uninstalls exactly, putting the original back byte for byte.
package hooks

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-bernstein/git-bernstein/gitext"
)

// Folder is the hooks folder git runs hooks from, and why.
type Folder struct {
	Path string
	// Configured is set when core.hooksPath chose it (it may then be shared by many repositories).
	Configured bool
}

// Locate finds the hooks folder as git does: core.hooksPath when set (with ~ expanded; relative to the top of
// the worktree, where git runs hooks, or to the git folder of a bare repository), else the hooks folder of the
// common git folder, which every linked worktree shares.
func Locate(repo *gitext.Repo, cfg *gitext.Config, getenv func(string) string) (Folder, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	p, ok := cfg.Get("core.hooksPath")
	if !ok || p == "" {
		return Folder{Path: filepath.Join(repo.CommonDir, "hooks")}, nil
	}
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		home := getenv("HOME")
		if home == "" {
			return Folder{}, fmt.Errorf("core.hooksPath=%s starts with ~/ but HOME is not set", p)
		}
		p = filepath.Join(home, rest)
	}
	if !filepath.IsAbs(p) {
		base := repo.WorkTree
		if base == "" {
			base = repo.GitDir
		}
		p = filepath.Join(base, p)
	}
	return Folder{Path: filepath.Clean(p), Configured: true}, nil
}
