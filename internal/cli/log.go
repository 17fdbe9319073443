package cli

import (
	"context"
	"fmt"
	"strings"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/termtext"
)

func logCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "log",
		Usage:     "list the commits that carry bundle notes, newest first, optionally for one ticket",
		ArgsUsage: "[TICKET]",
		Description: `One line per commit noted on git config bernstein.notesRef (default refs/notes/bernstein): short sha,
committer date, subject, and the tickets bundled there. With TICKET (compared ignoring case; #123 and 123 are
the same GitHub number) only the commits whose note names it.
--json prints [{"sha","date","subject","entries":[<note entry>…]}], newest first.`,
		Flags:  []ucli.Flag{&ucli.BoolFlag{Name: "json", Usage: "print JSON instead of one line a commit"}},
		Action: runLog,
	}
}

func runLog(_ context.Context, c *ucli.Command) error {
	args := c.Args().Slice()
	if len(args) > 1 {
		return usageError("log takes at most one TICKET (got %d arguments)", len(args))
	}
	want := ""
	if len(args) == 1 {
		want = strings.TrimPrefix(args[0], "#")
	}
	s, err := openSession(envOf(c))
	if err != nil {
		return err
	}
	ref := notes.RefFrom(s.cfg)
	rows, err := notes.Log(s.repo, ref, want)
	if err != nil {
		return err
	}
	if c.Bool("json") {
		type jsonRow struct {
			SHA     string        `json:"sha"`
			Date    string        `json:"date"`
			Subject string        `json:"subject"`
			Entries []notes.Entry `json:"entries"`
		}
		out := make([]jsonRow, 0, len(rows))
		for _, r := range rows {
			out = append(out, jsonRow{r.SHA, r.Date, r.Subject, r.Entries})
		}
		return printJSON(c, out)
	}
	if len(rows) == 0 {
		what := "any bundle"
		if want != "" {
			what = args[0]
		}
		fmt.Fprintf(c.Root().ErrWriter, "no commit in %s carries a note for %s\n", ref, termtext.Clean(what))
		return nil
	}
	for _, r := range rows {
		fmt.Fprintf(c.Root().Writer, "%s %s %s — %s\n", r.SHA[:7], r.Date, termtext.Clean(r.Subject), termtext.Clean(strings.Join(r.Tickets, ", ")))
	}
	return nil
}
