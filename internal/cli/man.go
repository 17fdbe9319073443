package cli

import (
	"fmt"

	ucli "github.com/urfave/cli/v2"
)

// manCommand prints the manual page. `git bernstein --help` makes git open `man git-bernstein`, so
// `make install` installs this page where man finds it.
func manCommand() *ucli.Command {
	return &ucli.Command{
		Name:   "man",
		Usage:  "print the manual page (troff), as `make install` installs it",
		Hidden: true,
		Action: func(c *ucli.Context) error {
			page, err := c.App.ToManWithSection(1)
			if err != nil {
				return fmt.Errorf("render manual page: %w", err)
			}
			_, err = fmt.Fprint(c.App.Writer, page)
			return err
		},
	}
}
