package cli

import (
	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/settings"
)

// settings is this run's settings (package settings: git's configuration, the environment and bernstein.yaml),
// with the command's flags over them, loaded once per session.
func (s *session) settings(c *ucli.Command) (*settings.Settings, error) {
	if s.set != nil {
		return s.set, nil
	}
	wd, err := s.env.getwd()
	if err != nil {
		return nil, err
	}
	flags, err := settingsFlags(c, wd)
	if err != nil {
		return nil, err
	}
	top, err := s.projectRoot(false)
	if err != nil {
		return nil, err
	}
	project, err := s.projectRoot(s.workdir)
	if err != nil {
		return nil, err
	}
	s.set = settings.Load(settings.Sources{Config: s.cfg, Getenv: s.env.getenv, ProjectRoot: project, WorkTree: top,
		CommonDir: s.repo.CommonDir}, flags)
	return s.set, nil
}

// settingsFlags reads the flags that set a setting into settings.Flags; a command without one of them leaves it
// unset.
func settingsFlags(c *ucli.Command, wd string) (settings.Flags, error) {
	str := func(name string) *string {
		if !c.IsSet(name) {
			return nil
		}
		v := c.String(name)
		return &v
	}
	boolean := func(name string) *bool {
		if !c.IsSet(name) {
			return nil
		}
		v := c.Bool(name)
		return &v
	}
	f := settings.Flags{
		Tracker:    str("tracker"),
		Match:      str("match"),
		Trailers:   c.StringSlice("trailer"),
		BundleDir:  c.String("bundle-dir"),
		Wd:         wd,
		Controls:   boolean("controls"),
		Attest:     boolean("attest"),
		GithubRepo: str("github-repo"),
	}
	if v := c.String("github-api-url"); v != "" {
		f.GithubAPIURL = &v
	}
	for _, name := range []string{"no-pr", "pr", "require-pr", "controls"} {
		if c.IsSet(name) {
			noPR := c.Bool("no-pr")
			f.NoPR = &noPR
			break
		}
	}
	if c.IsSet("max-tickets") {
		n := c.Int("max-tickets")
		if n < 0 {
			return f, usageError("--max-tickets %d: give 0 (no cap) or more", n)
		}
		f.MaxTickets = &n
	}
	return f, nil
}
