// Package manpage renders git-bernstein's manual page (troff) from its command tree. `git bernstein --help`
// makes git open `man git-bernstein`, so `make install` writes the page where man finds it, with the program in
// cmd/manpage. The renderer (urfave/cli-docs, and through it a Markdown engine) is not linked into the binary
// users run: its initialisation was about 0.2 ms of every run's start-up (of 4.5 ms for `--version`).
package manpage

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	docs "github.com/urfave/cli-docs/v3"
	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/cli"
)

// Command is the hidden `man` command, which prints the manual page of the command tree it is run in.
func Command() *ucli.Command {
	return &ucli.Command{
		Name:   "man",
		Usage:  "print the manual page (troff), as `make install` installs it",
		Hidden: true,
		Action: func(_ context.Context, c *ucli.Command) error {
			forManPage(c.Root())
			page, err := docs.ToManWithSection(c.Root(), 1)
			if err != nil {
				return fmt.Errorf("render manual page: %w", err)
			}
			_, err = fmt.Fprint(c.Root().Writer, withSynopsis(page, c.Root().Commands))
			return err
		},
	}
}

// helpCommandName is the help subcommand urfave/cli gives every command that has subcommands.
const helpCommandName = "help"

// forManPage readies the command tree for urfave/cli-docs, the page being the run's last act: urfave/cli's help
// subcommands and each command's --help are left out (`git bernstein help CMD` and --help are described once, at
// the top), and a switch shows no "(default: false)", as each flag's usage says its own default when it has one.
func forManPage(root *ucli.Command) {
	var walk func(cmd *ucli.Command)
	walk = func(cmd *ucli.Command) {
		var flags []ucli.Flag
		for _, f := range cmd.Flags {
			if cmd != root && f.Names()[0] == "help" {
				continue
			}
			if b, ok := f.(*ucli.BoolFlag); ok {
				f = manSwitch{b}
			}
			flags = append(flags, f)
		}
		cmd.Flags = flags
		for _, s := range cmd.Commands {
			if s.Name == helpCommandName {
				s.Hidden = true
			}
			walk(s)
		}
	}
	walk(root)
}

// manSwitch is a BoolFlag that urfave/cli-docs does not know as one, so it prints no default for it.
type manSwitch struct{ *ucli.BoolFlag }

// withSynopsis replaces urfave/cli's SYNOPSIS (the bare program name, its global flags in an example block and
// a "Usage:" line, which man renders as three unrelated paragraphs) with one line per command, as git's own
// pages have it: `git bernstein commits [OPTIONS] TICKET`.
func withSynopsis(page string, cmds []*ucli.Command) string {
	const head = ".SH SYNOPSIS\n"
	i := strings.Index(page, head)
	if i < 0 {
		return page
	}
	j := strings.Index(page[i+len(head):], "\n.SH ")
	if j < 0 {
		return page
	}
	var b strings.Builder
	b.WriteString(head)
	line := func(words, args string) {
		fmt.Fprintf(&b, ".B git bernstein %s\n", words)
		if args != "" {
			fmt.Fprintf(&b, "%s\n", manArgs(args))
		}
		b.WriteString(".br\n")
	}
	for _, c := range cmds {
		if c.Hidden || c.Name == "help" {
			continue
		}
		if len(c.Commands) == 0 || c.ArgsUsage != "" {
			line(c.Name, "[OPTIONS] "+c.ArgsUsage)
		}
		for _, s := range c.Commands {
			if s.Hidden {
				continue
			}
			if len(s.Commands) == 0 {
				line(c.Name+" "+s.Name, "[OPTIONS] "+s.ArgsUsage)
				continue
			}
			var names []string
			for _, ss := range s.Commands {
				if ss.Hidden {
					continue
				}
				names = append(names, ss.Name)
			}
			line(c.Name+" "+s.Name, "{"+strings.Join(names, "|")+"} ...")
		}
	}
	b.WriteString(".B git bernstein\n[--help | --version]\n")
	return page[:i] + b.String() + page[i+len(head)+j:]
}

// manArgs sets argument placeholders (all capitals) in italics, the rest roman: troff's convention for
// synopses.
func manArgs(s string) string {
	var out []string
	for _, w := range strings.Fields(s) {
		core := strings.Trim(w, "[]{}|.")
		if core != "" && core == strings.ToUpper(core) && strings.ContainsAny(core, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") && core != "OPTIONS" {
			w = strings.Replace(w, core, `\fI`+core+`\fR`, 1)
		}
		out = append(out, strings.ReplaceAll(w, "-", `\-`))
	}
	return strings.Join(out, " ")
}

// Main writes the manual page to stdout and returns the exit code: git-bernstein's command tree with the `man`
// command beside it, run as `git-bernstein man`.
func Main(stdout, stderr io.Writer) int {
	env := &cli.Env{Now: time.Now}
	return cli.RunWith(env, []*ucli.Command{Command()}, []string{"git-bernstein", "man"}, strings.NewReader(""),
		stdout, stderr)
}
