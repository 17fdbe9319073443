package patch

import (
	"io"
	"strings"

	"github.com/go-git/go-billy/v5"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-bernstein/git-bernstein/gitext/internal/backend"
)

// writeSeries is WriteSeries on a go-git repository (some tests make theirs with go-git), reading through
// go-git unless an option says otherwise.
func writeSeries(w io.Writer, repo *git.Repository, commits []plumbing.Hash, opts ...Option) error {
	return seriesWith(w, repo.Storer, repoSettings(backendOf(repo), goGitConfig(repo), nil), commits, opts...)
}

// backendOf is what gitext.Repo.Backend gives for a go-git repository.
func backendOf(repo *git.Repository) backend.Repo {
	b := backend.Repo{Storer: repo.Storer}
	if w, err := repo.Worktree(); err == nil {
		b.WorkTree = w.Filesystem
	}
	if st, ok := repo.Storer.(interface{ Filesystem() billy.Filesystem }); ok {
		b.GitDir = st.Filesystem()
	}
	return b
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
