package cli

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/termtext"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
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

func runLog(c *ucli.Context) error {
	args, err := positional(c)
	if err != nil {
		return err
	}
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
	noted, err := s.repo.Notes(ref)
	if err != nil {
		return err
	}
	type row struct {
		sha, date, subject string
		when               int64
		tickets            []string
		entries            []notes.Entry
	}
	var rows []row
	for _, n := range noted {
		text, err := s.repo.ReadNote(n)
		if err != nil {
			return err
		}
		entries, _ := notes.Parse(text)
		var tickets []string
		hit := want == ""
		for _, e := range entries {
			t := fmt.Sprintf("%s (%s)", e.Ticket, e.Tracker)
			if !contains(tickets, t) {
				tickets = append(tickets, t)
			}
			if ticket.Same(e.Ticket, want) {
				hit = true
			}
		}
		if !hit || len(entries) == 0 {
			continue
		}
		cm, err := s.repo.CommitObject(n.Target)
		if err != nil {
			continue // a note on a blob or on a commit this clone lacks: not part of this history
		}
		subject, _, _ := strings.Cut(strings.TrimSpace(cm.Message), "\n")
		rows = append(rows, row{sha: n.Target.String(), date: cm.Committer.When.UTC().Format("2006-01-02"),
			subject: subject, when: cm.Committer.When.Unix(), tickets: tickets, entries: entries})
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].when != rows[j].when {
			return rows[i].when > rows[j].when
		}
		return bytes.Compare([]byte(rows[i].sha), []byte(rows[j].sha)) < 0
	})
	if c.Bool("json") {
		type jsonRow struct {
			SHA     string        `json:"sha"`
			Date    string        `json:"date"`
			Subject string        `json:"subject"`
			Entries []notes.Entry `json:"entries"`
		}
		out := make([]jsonRow, 0, len(rows))
		for _, r := range rows {
			out = append(out, jsonRow{r.sha, r.date, r.subject, r.entries})
		}
		return printJSON(c, out)
	}
	if len(rows) == 0 {
		what := "any bundle"
		if want != "" {
			what = args[0]
		}
		fmt.Fprintf(c.App.ErrWriter, "no commit in %s carries a note for %s\n", ref, termtext.Clean(what))
		return nil
	}
	for _, r := range rows {
		fmt.Fprintf(c.App.Writer, "%s %s %s — %s\n", r.sha[:7], r.date, termtext.Clean(r.subject), termtext.Clean(strings.Join(r.tickets, ", ")))
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
