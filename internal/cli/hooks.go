package cli

import (
	"context"
	"fmt"
	"os/exec"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/hooks"
	"github.com/git-bernstein/git-bernstein/internal/front"
)

// managedHook is the one hook git-bernstein installs.
const managedHook = "post-merge"

func hooksCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "hooks",
		Usage: "install, remove or show the post-merge hook that records a bundle after every merge",
		Description: `The hook goes where git looks for hooks: core.hooksPath when set (relative to the top of the
worktree), else <git common dir>/hooks, which linked worktrees share. It runs 'git bernstein hook post-merge'.
A post-merge hook that git-bernstein did not write is never overwritten: install moves it to
post-merge.pre-bernstein and ours runs it first, with its exit status kept; uninstall puts it back byte for
byte, with its mode. Installing twice changes nothing.`,
		Commands: []*ucli.Command{
			{
				Name:  "install",
				Usage: "install the post-merge hook",
				Description: `--force: when a foreign post-merge hook stands where ours goes and post-merge.pre-bernstein
already holds an earlier one (another tool replaced our hook after we installed), keep the current hook (what
git runs now) as the one ours calls, and delete the earlier one. Without --force install refuses and says so.`,
				Flags:  []ucli.Flag{&ucli.BoolFlag{Name: "force", Usage: "replace a hook already moved aside (see above)"}},
				Action: func(_ context.Context, c *ucli.Command) error { return runHooks(c, "install") },
			},
			{Name: "uninstall", Usage: "remove the hook and put back the one it replaced", Action: func(_ context.Context, c *ucli.Command) error { return runHooks(c, "uninstall") }},
			{Name: "status", Usage: "say what is installed where", Action: func(_ context.Context, c *ucli.Command) error { return runHooks(c, "status") }},
		},
	}
}

func runHooks(c *ucli.Command, action string) error {
	args := c.Args().Slice()
	if len(args) != 0 {
		return usageError("hooks %s takes no arguments", action)
	}
	s, err := openSession(envOf(c))
	if err != nil {
		return err
	}
	folder, err := s.repo.HooksFolder(s.cfg, envOf(c).getenv)
	if err != nil {
		return err
	}
	var ch hooks.Change
	switch action {
	case "install":
		ch, err = hooks.Install(folder, managedHook, c.Bool("force"))
	case "uninstall":
		ch, err = hooks.Uninstall(folder, managedHook)
	default:
		ch.Status, err = hooks.Inspect(folder, managedHook)
	}
	if err != nil {
		return err
	}
	w := c.Root().Writer
	for _, d := range ch.Done {
		fmt.Fprintln(w, d+".")
	}
	if action != "status" {
		return nil
	}
	src := "the default, <git common dir>/hooks"
	if folder.Configured {
		src = "core.hooksPath"
	}
	fmt.Fprintf(w, "hooks folder: %s (%s)\n", folder.Path, src)
	fmt.Fprintln(w, ch.Status.Describe())
	if p, err := exec.LookPath("git-bernstein"); err == nil {
		fmt.Fprintf(w, "git-bernstein on PATH: %s\n", p)
		// The hook runs git-bernstein, which hands it to git-bernstein-full: without that, every merge says so.
		if full, err := front.FindFull(p); err == nil {
			fmt.Fprintf(w, "git-bernstein-full: %s\n", full)
		} else {
			fmt.Fprintf(w, "git-bernstein-full: no (%v)\n", err)
		}
	} else {
		fmt.Fprintln(w, "git-bernstein on PATH: no (the hook will skip recording until it is)")
	}
	return nil
}
