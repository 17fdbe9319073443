package cli

import (
	"errors"
	"fmt"
	"path/filepath"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/objstore"
	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/progress"
	"github.com/git-bernstein/git-bernstein/internal/settings"
	"github.com/git-bernstein/git-bernstein/internal/ticketcommits"
)

// session is what most commands need: the repository around the working folder and its configuration.
type session struct {
	repo    *gitext.Repo
	cfg     *gitext.Config
	env     *Env
	workdir bool               // bundle --workdir: the working folder is the project root
	set     *settings.Settings // loaded by settings
	// progress is told how many commits a history walk has read, when showProgress set it.
	progress func(commits int)
}

func openSession(env *Env) (*session, error) {
	wd, err := env.getwd()
	if err != nil {
		return nil, fmt.Errorf("working folder: %w", err)
	}
	s := &session{env: env}
	// gitext says when it runs git (fetching the objects a partial clone lacks): one line on stderr. Walks
	// report to the meter showProgress sets, if any.
	repo, err := gitext.Discover(wd, env.getenv, objstore.WithGoGit(), gitext.WithNotice(env.notice),
		gitext.WithProgress(func(commits int) {
			if s.progress != nil {
				s.progress(commits)
			}
		}))
	if err != nil {
		if errors.Is(err, gitext.ErrNotRepository) {
			return nil, fmt.Errorf("%v", err)
		}
		return nil, err
	}
	cfg, err := repo.Configuration()
	if err != nil {
		return nil, err
	}
	s.repo, s.cfg = repo, cfg
	return s, nil
}

// showProgress reports history walks on stderr while they run, when stderr is a terminal. The returned
// function clears the line.
func (s *session) showProgress(c *ucli.Command) func() {
	m := progress.New(c.Root().ErrWriter, "Reading history", "commits")
	if m == nil {
		return func() {}
	}
	s.progress = m.Set
	return m.Done
}

// matchFlags are the flags every command that finds a ticket's commits shares: the tracker and the sources.
func matchFlags() []ucli.Flag {
	return flagGroups([]ucli.Flag{trackerFlag()}, sourceFlags())
}

// trackerFlag is --tracker; the Bernstein form of bundle names the tracker as an argument instead.
func trackerFlag() ucli.Flag {
	return &ucli.StringFlag{Name: "tracker", Usage: "`TRACKER` the ticket belongs to (github, jira, linear, …); default: git config bernstein.tracker, else github"}
}

// sourceFlags choose what ties a commit to the ticket.
func sourceFlags() []ucli.Flag {
	return []ucli.Flag{
		&ucli.StringFlag{Name: "match", Usage: "comma list of `SOURCES` that tie a commit to the ticket: trailer,branch,merge,message; default: git config bernstein.match, else all four"},
		&ucli.StringSliceFlag{Name: "trailer", Usage: "another trailer `KEY` whose value names tickets (repeatable); adds to Ticket, Refs, References, Fixes, Closes, Resolves, Issue, Jira and git config bernstein.trailer"},
	}
}

// flagGroups joins groups of flags into one command's list, in order.
func flagGroups(groups ...[]ucli.Flag) []ucli.Flag {
	var out []ucli.Flag
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

// findOptions turns the shared flags, the configuration and the ticket argument into discovery options
// (ticketcommits.Options). tracker, when not empty, comes from an argument and wins over --tracker and git config.
func (s *session) findOptions(c *ucli.Command, tracker, id string) (discover.Options, error) {
	set, err := s.settings(c)
	if err != nil {
		return discover.Options{}, err
	}
	return ticketcommits.Options(set, s.cfg, tracker, id)
}

// oneArg returns the command's single positional argument or a usage error naming it.
func oneArg(c *ucli.Command, name string) (string, error) {
	args := c.Args().Slice()
	if len(args) != 1 {
		return "", usageError("%s takes exactly one %s (got %d arguments); see 'git bernstein help %s'",
			c.Name, name, len(args), c.Name)
	}
	return args[0], nil
}

// warn prints warnings on stderr, one line each.
func warn(c *ucli.Command, warnings []string) {
	for _, w := range warnings {
		fmt.Fprintf(c.Root().ErrWriter, "warning: %s\n", w)
	}
}

// sddFolder is the one answer to "where is .sdd": the --sdd flag's value when given (relative to the working
// folder), else .sdd in the top of the worktree (found the way git finds it: subfolders, linked worktrees,
// GIT_DIR/GIT_WORK_TREE), or in the git folder of a bare repository. bundle --workdir's folder stands in for the
// worktree (the session's working folder is then that folder).
func (s *session) sddFolder(flag string, workdir bool) (string, error) {
	wd, err := s.env.getwd()
	if err != nil {
		return "", err
	}
	switch {
	case flag != "" && filepath.IsAbs(flag):
		return flag, nil
	case flag != "":
		return filepath.Join(wd, flag), nil
	}
	root, err := s.projectRoot(workdir)
	return filepath.Join(root, ".sdd"), err
}

// projectRoot is the one answer to "where is the Bernstein project": the folder that holds bernstein.yaml and,
// unless --sdd says otherwise, .sdd. It is bundle --workdir's folder (the session's working folder is then that
// folder), else the top of the worktree, else the git folder of a bare repository. --sdd never moves it: a .sdd
// given elsewhere does not bring another project's bernstein.yaml with it.
func (s *session) projectRoot(workdir bool) (string, error) {
	if workdir {
		return s.env.getwd()
	}
	return s.repo.Top(), nil
}
