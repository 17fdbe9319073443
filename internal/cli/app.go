// Package cli is the command-line layer: it parses flags, calls the capability packages and prints.
// Logic lives in the packages it calls, where tests reach it directly: settings and their precedence in package
// settings (settings.go reads the flags into settings.Flags), note lookups in notes, checkpoint policy in
// lineage/pinned, local copies in record. Exit codes come from one map (exit.go); the run's surroundings (folder,
// environment, clock, stderr) from Env. imports_test.go keeps go-git, crypto and file opening out of here.
package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/git-bernstein/git-bernstein/internal/buildinfo"
	"github.com/git-bernstein/git-bernstein/internal/front"
	ucli "github.com/urfave/cli/v3"
)

// RunEnv runs the program with args (args[0] is the program name) in the surroundings env describes and
// returns the process exit code.
func RunEnv(env *Env, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return RunWith(env, nil, args, stdin, stdout, stderr)
}

// RunWith is RunEnv with more commands beside the program's own: for a program built on it that the binary
// users run does not need (the manual page's renderer, package manpage).
func RunWith(env *Env, more []*ucli.Command, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var notFound bool
	run := Env{}
	if env != nil {
		run = *env // the caller's Env is left as it was
	}
	if run.Now == nil {
		fmt.Fprintln(stderr, "git-bernstein: internal error: Env has no clock (Env.Now)")
		return ExitError
	}
	run.stderr = stderr
	env = &run
	if err := front.CheckHandedOver(env.getenv); err != nil {
		return exitCode(err, stderr)
	}
	root := &ucli.Command{
		Metadata:  map[string]any{envKey: env},
		Name:      "git-bernstein",
		Usage:     "prove what agents did for a tracker ticket: find its commits, bundle and sign the evidence, verify it",
		Version:   buildinfo.Version(),
		Reader:    stdin,
		Writer:    stdout,
		ErrWriter: stderr,
		Commands:  append(commands(), more...),
		// urfave's default handler calls os.Exit; we return the code instead so tests can call Run.
		ExitErrHandler: func(context.Context, *ucli.Command, error) {},
	}
	setUsageHandler(root, func() { notFound = true })
	err := root.Run(context.Background(), helpAsFlag(args))
	if notFound {
		return ExitUsage
	}
	return exitCode(err, stderr)
}

// setUsageHandler makes flag errors exit 2 and unknown subcommands get git's suggestions in every command, keeps
// each flag to the command that declares it (urfave/cli v3 hands a command's flags down to its subcommands
// unless they are local), and gives each help page our templates, with the exit codes.
func setUsageHandler(cmd *ucli.Command, notFound func()) {
	if cmd.OnUsageError == nil {
		cmd.OnUsageError = func(_ context.Context, c *ucli.Command, err error, _ bool) error {
			return usageError("%v%s", err, flagSuggestion(err, c.Flags))
		}
	}
	cmd.CommandNotFound = func(_ context.Context, c *ucli.Command, name string) {
		notFound()
		commandNotFound(c.Root().ErrWriter, c, name)
	}
	for _, f := range cmd.Flags {
		setLocal(f)
	}
	switch {
	case cmd.CustomHelpTemplate != "":
	case len(cmd.Commands) > 0:
		cmd.CustomHelpTemplate = subcommandHelpTemplate
	default:
		cmd.CustomHelpTemplate = commandHelpTemplate
	}
	if cmd.CustomRootCommandHelpTemplate == "" {
		cmd.CustomRootCommandHelpTemplate = rootHelpTemplate
	}
	for _, sub := range cmd.Commands {
		setUsageHandler(sub, notFound)
	}
}

// helpAsFlag turns `help CMD [SUB…]` into `CMD [SUB…] --help`: urfave/cli's help command shows a command that
// has subcommands without its flags, while --help shows everything.
func helpAsFlag(args []string) []string {
	if len(args) < 3 || (args[1] != "help" && args[1] != "h") {
		return args
	}
	for _, a := range args[2:] {
		if strings.HasPrefix(a, "-") {
			return args
		}
	}
	return append(append([]string{args[0]}, args[2:]...), "--help")
}

// commands lists every subcommand; each lives in a file of its own.
func commands() []*ucli.Command {
	return []*ucli.Command{
		commitsCommand(),
		bundleCommand(),
		lineageCommand(),
		keygenCommand(),
		cardCommand(),
		verifyCommand(),
		verifyReleaseCommand(),
		auditCommand(),
		extractCommand(),
		recordCommand(),
		hooksCommand(),
		hookCommand(),
		showCommand(),
		pushCommand(),
		fetchCommand(),
		getCommand(),
		logCommand(),
		viewCommand(),
		verifyPageCommand(),
		completionCommand(),
		completeCommand(),
	}
}
