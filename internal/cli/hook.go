package cli

import (
	"context"
	"fmt"
	"strings"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/hooks"
	"github.com/git-bernstein/git-bernstein/internal/postmerge"
	"github.com/git-bernstein/git-bernstein/internal/settings"
	"github.com/git-bernstein/git-bernstein/internal/store"
	"github.com/git-bernstein/git-bernstein/internal/termtext"
)

func hookCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "hook",
		Usage:     "what the installed git hooks call (see 'git bernstein hooks install'); never fails",
		ArgsUsage: "post-merge [SQUASH]",
		Description: `'hook post-merge' records ORIG_HEAD..HEAD as 'git bernstein record' does. It never fails or holds up
the merge: it exits 0 whatever happens, prints each problem on stderr in one line, and appends it with a
timestamp to <git common dir>/bernstein/hook.log. It starts no ticket once its time budget (git config
bernstein.hookBudget, default 5s) would run out, gives up a ticket whose bundle is still being written when
it does (nothing of that bundle is left), and records at most bernstein.maxTickets (default 100)
tickets; what it leaves is one such line with the exact 'git bernstein record' command that finishes the
job. Pull requests are fetched as record does, each ticket's fetch taking at most half the time left; a ticket
recorded without them (GitHub offline or too slow) is one such line with the command that records it again.
Within the same budget it uploads what it recorded to each git config bernstein.store; what does not
fit is one line saying 'git bernstein push' uploads it. For a squash merge (SQUASH is 1) there is no merge commit
yet, so it records nothing: run 'git bernstein record HEAD' after committing the squash.`,
		Flags:  recordFlags(),
		Action: runHook,
	}
}

func runHook(ctx context.Context, c *ucli.Command) (err error) {
	args := c.Args().Slice()
	if len(args) == 0 || args[0] != "post-merge" {
		return usageError("hook takes the hook's name, post-merge, and git's arguments for it")
	}
	// The budget runs from the hook's start: opening the repository is part of the wait a merge sees.
	start := envOf(c).now()
	errw := c.Root().ErrWriter
	var logPath string
	problem := func(format string, a ...any) {
		msg := strings.ReplaceAll(fmt.Sprintf(format, a...), "\n", " ")
		fmt.Fprintf(errw, "git-bernstein: post-merge: %s\n", termtext.Clean(msg))
		if logPath != "" {
			_ = hooks.AppendLog(logPath, envOf(c).now(), msg) // already printed; a log is not worth failing for
		}
	}
	// Whatever goes wrong below, the merge is done and must stay done: report, log, exit 0.
	defer func() {
		if p := recover(); p != nil {
			problem("internal error: %v", p)
		}
		err = nil
	}()
	if len(args) > 1 && args[1] == "1" {
		fmt.Fprintln(errw, "git-bernstein: post-merge: squash merge, no merge commit yet: nothing recorded "+
			"(run 'git bernstein record HEAD' after you commit it)")
		return nil
	}
	s, err := openSession(envOf(c))
	if err != nil {
		problem("%v", err)
		return nil
	}
	logPath = hooks.LogPath(s.repo.CommonDir)
	budget := settings.DefaultHookBudget // when the settings cannot be had, record below says why
	if set, err := s.settings(c); err == nil {
		if budget = set.HookBudget; set.Err("bernstein.hookBudget") != nil {
			problem("%v", set.Err("bernstein.hookBudget"))
		}
	}
	req, done, err := s.recordRequest(c, "ORIG_HEAD..HEAD", start.Add(budget))
	if err != nil {
		problem("%v", err)
		return nil
	}
	res, err := postmerge.Run(ctx, postmerge.Request{Record: *req,
		Stores: func() ([]store.Store, error) { return s.stores(c, writeStores) }})
	done()
	if res != nil {
		warn(c, res.Warnings)
	}
	if err != nil {
		problem("%v", err)
		return nil
	}
	rep := res.Report
	printRecord(c, rep)
	for _, f := range rep.Failed {
		problem("%v", f)
	}
	// Within the budget the archives are kept on refs/bernstein/archives too; past it, push keeps them later.
	if res.KeepLate {
		problem("%d archives not kept in refs/bernstein/archives: the %s time budget ran out (bernstein.hookBudget); "+
			"'git bernstein push' keeps them", len(rep.Recorded), budget)
	} else if res.KeepErr != nil {
		problem("archives not kept in refs/bernstein/archives: %v; 'git bernstein push' keeps them", res.KeepErr)
	}
	hookUploaded(res, problem)
	if len(rep.Deferred) > 0 {
		problem("%s", deferredLine(c, rep, budget))
	}
	if line := partialLine(c, rep, res.Partial); line != "" {
		problem("%s", line)
	}
	return nil
}
