package repocheck

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/objstore"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// Flag is --repo[=DIR] as the user gave it: Dir is DIR ("" with --repo alone: the repository around Wd).
type Flag struct {
	Dir    string
	Wd     string                  // the working folder DIR is relative to
	Getenv func(key string) string // the run's environment (GIT_DIR and the like)
	Notice func(msg string)        // told when git itself runs (a partial clone's missing objects); may be nil
}

// Open opens the repository f names and gives verify the check to run on the members it reads (Check). A
// repository that cannot be opened goes into the check (unusable, exit 2) rather than stopping the command,
// so --json still reports it. nil f (no --repo) is no check.
func Open(f *Flag) *verify.RepoCheck {
	if f == nil {
		return nil
	}
	rc := &verify.RepoCheck{Dir: f.Dir}
	start := f.Dir
	if !filepath.IsAbs(start) {
		start = filepath.Join(f.Wd, start)
	}
	start = filepath.Clean(start)
	var opts []gitext.Option
	if f.Notice != nil {
		opts = append(opts, gitext.WithNotice(f.Notice))
	}
	repo, err := gitext.Discover(start, f.Getenv, append(opts, objstore.WithGoGit())...)
	if err != nil {
		rc.Dir = start
		if f.Dir != "" {
			rc.Dir = f.Dir
		}
		rc.Err = fmt.Errorf("--repo needs a repository: %v", err)
		return rc
	}
	if rc.Dir == "" {
		rc.Dir = shownRepo(f.Wd, repo)
	}
	rc.Check = func(m verify.RepoMembers) verify.RepoResult { return Check(repo, m) }
	return rc
}

// shownRepo names the repository found around wd as the report shows it: its top folder relative to wd when
// that is shorter.
func shownRepo(wd string, repo *gitext.Repo) string {
	top := repo.WorkTree
	if top == "" {
		top = repo.GitDir
	}
	if rel, err := filepath.Rel(wd, top); err == nil && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return rel
	}
	return top
}
