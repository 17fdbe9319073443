package gitext

import (
	"fmt"
	"os"
	"path/filepath"
)

// HooksFolder is the hooks folder git runs hooks from, and why.
type HooksFolder struct {
	Path string
	// Configured is set when core.hooksPath chose it (it may then be shared by many repositories).
	Configured bool
}

// HooksFolder finds the hooks folder as git does: core.hooksPath when set (with ~ expanded; relative to the top of
// the worktree, where git runs hooks, or to the git folder of a bare repository), else the hooks folder of the
// common git folder, which every linked worktree shares.
func (repo *Repo) HooksFolder(cfg *Config, getenv func(string) string) (HooksFolder, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	p, ok := cfg.Get("core.hooksPath")
	if !ok || p == "" {
		return HooksFolder{Path: filepath.Join(repo.CommonDir, "hooks")}, nil
	}
	expanded, ok := ExpandHome(p, getenv)
	if !ok {
		return HooksFolder{}, fmt.Errorf("core.hooksPath=%s starts with ~/ but HOME is not set", p)
	}
	p = expanded
	if !filepath.IsAbs(p) {
		base := repo.WorkTree
		if base == "" {
			base = repo.GitDir
		}
		p = filepath.Join(base, p)
	}
	return HooksFolder{Path: filepath.Clean(p), Configured: true}, nil
}
