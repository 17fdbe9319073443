package patch

import (
	"io"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/git-bernstein/git-bernstein/gitext"
)

// writeSeries is WriteSeries on a go-git repository (some tests make theirs with go-git), reading its objects
// through go-git.
func writeSeries(w io.Writer, repo *git.Repository, commits []plumbing.Hash, opts ...Option) error {
	workTree := ""
	if wt, err := repo.Worktree(); err == nil {
		workTree = wt.Filesystem.Root()
	}
	return seriesWith(w, goGitObjects(repo), repoSettings(workTree, workTree+"/.git", goGitConfig(repo), nil), commits, opts...)
}

// goGitObjects reads repo's objects through go-git's storage.
func goGitObjects(repo *git.Repository) objects {
	return objects{
		raw: func(h plumbing.Hash) (plumbing.ObjectType, []byte, error) {
			obj, err := repo.Storer.EncodedObject(plumbing.AnyObject, h)
			if err != nil {
				return 0, nil, err
			}
			rd, err := obj.Reader()
			if err != nil {
				return 0, nil, err
			}
			defer rd.Close()
			data, err := io.ReadAll(rd)
			return obj.Type(), data, err
		},
		commit: func(h plumbing.Hash) (*gitext.Commit, error) {
			c, err := object.GetCommit(repo.Storer, h)
			if err != nil {
				return nil, err
			}
			sig := func(s object.Signature) gitext.Signature {
				return gitext.Signature{Name: s.Name, Email: s.Email, When: s.When}
			}
			return &gitext.Commit{Hash: c.Hash, Author: sig(c.Author), Committer: sig(c.Committer), Message: c.Message,
				TreeHash: c.TreeHash, ParentHashes: c.ParentHashes}, nil
		},
	}
}

// goGitConfig reads repo's configuration through go-git (the repository's and the global file, no includes),
// for the tests' go-git repositories.
func goGitConfig(repo *git.Repository) configGet {
	cfg, err := repo.ConfigScoped(config.GlobalScope)
	if err != nil || cfg == nil || cfg.Raw == nil {
		cfg = config.NewConfig()
	}
	return func(section, sub, key string) (string, bool) {
		if !cfg.Raw.HasSection(section) {
			return "", false
		}
		sec := cfg.Raw.Section(section)
		opts := sec.Options
		if sub != "" {
			if !sec.HasSubsection(sub) {
				return "", false
			}
			opts = sec.Subsection(sub).Options
		}
		for i := len(opts) - 1; i >= 0; i-- { // the last value wins
			if strings.EqualFold(opts[i].Key, key) {
				return opts[i].Value, true
			}
		}
		return "", false
	}
}
