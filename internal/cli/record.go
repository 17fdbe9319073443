package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/bundle"
	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/lineage"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/plural"
	"github.com/git-bernstein/git-bernstein/internal/record"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
	"github.com/git-bernstein/git-bernstein/internal/ticketcommits"
)

func recordFlags() []ucli.Flag {
	return flagGroups(matchFlags(), signKeyFlags(), signFlags(), []ucli.Flag{
		&ucli.StringFlag{Name: "created-at", Usage: "manifest created_at as RFC 3339 `TIME` (default: SOURCE_DATE_EPOCH when set, else the tip's committer date)"},
		&ucli.StringFlag{Name: "bundle-dir", Usage: "root `DIR` of recorded bundles (default: git config bernstein.bundleDir, else <git common dir>/bernstein/bundles)"},
		&ucli.StringFlag{Name: "sdd", Usage: "the `DIR` of agent artefacts (default: <worktree root>/.sdd)"},
		&ucli.StringSliceFlag{Name: "ticket", Usage: "record only ticket `ID` of the range (repeatable), as the command a cut-short run prints does"},
		&ucli.IntFlag{Name: "max-tickets", DefaultText: "git config bernstein.maxTickets, else 100; 0: no cap",
			Usage: "record at most `N` tickets of one range, the others are listed with the command that records them"},
		&ucli.BoolFlag{Name: "no-pr", Usage: "fetch no pull request payloads (makes no network request)"},
		&ucli.StringFlag{Name: "github-repo", Usage: "GitHub repository `OWNER/NAME` (default: git config bernstein.githubRepo, else the URL of the origin remote or of git config bernstein.remote)"},
		&ucli.StringFlag{Name: "github-api-url", Usage: "GitHub API `URL`, used as given (default: GITHUB_API_URL, else git config bernstein.githubApiUrl, else https://api.github.com/)"},
		&ucli.BoolFlag{Name: "controls", HideDefault: true, Usage: "also capture each pull request's change-control evidence for git bernstein audit (default: git config bernstein.controls, else off)"},
	})
}

// deferredLine says, in one line, which tickets were left and the exact command that records them: the range
// with full commit ids (ORIG_HEAD moves on), the same created_at (so what is recorded later is what would have
// been recorded now), no cap, the flags this run was given, and the tickets themselves when there are few (else
// the whole range again: tickets already recorded are rewritten byte for byte and add no note).
func deferredLine(c *ucli.Command, rep *record.Report, budget time.Duration) string {
	why := fmt.Sprintf("more than bernstein.maxTickets (%d)", len(rep.Tickets)-len(rep.Deferred))
	if rep.DeferredWhy == record.DeferredBudget {
		why = fmt.Sprintf("the %s time budget ran out (bernstein.hookBudget)", budget)
	}
	return fmt.Sprintf("%d of %s named by %s not recorded: %s; to record them run: %s",
		len(rep.Deferred), plural.Count(len(rep.Tickets), "ticket"), rep.Range.Spec, why, resumeCommand(c, rep))
}

// resumeCommand is the command that records the tickets rep left (see deferredLine), quoted for a shell.
func resumeCommand(c *ucli.Command, rep *record.Report) string {
	ids := make([]string, len(rep.Deferred))
	for i, fd := range rep.Deferred {
		ids[i] = fd.ID
	}
	return recordCommandFor(c, rep, ids)
}

// recordCommandFor is the command that records tickets ids of rep's range again, as this run would have: the
// exact range, the same created_at, no cap, this run's flags, and the tickets when there are few.
func recordCommandFor(c *ucli.Command, rep *record.Report, ids []string) string {
	cmd := []string{"git", "bernstein", "record", rep.Range.Exact, "--created-at", rep.CreatedAt.UTC().Format(time.RFC3339), "--max-tickets", "0"}
	for _, name := range []string{"tracker", "match", "sign-key", "sign-kid", "bundle-dir", "sdd", "github-repo", "github-api-url"} {
		if c.IsSet(name) {
			cmd = append(cmd, "--"+name, c.String(name))
		}
	}
	if c.IsSet("controls") {
		cmd = append(cmd, fmt.Sprintf("--controls=%t", c.Bool("controls")))
	}
	for _, k := range c.StringSlice("trailer") {
		cmd = append(cmd, "--trailer", k)
	}
	if len(ids) <= 20 {
		for _, id := range ids {
			cmd = append(cmd, "--ticket", id)
		}
	}
	for i, a := range cmd {
		cmd[i] = shellQuote(a)
	}
	return strings.Join(cmd, " ")
}

// shellQuote quotes s for a POSIX shell when it needs it, so the printed command can be pasted as it is.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,:/=@+%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func recordCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "record",
		Usage:     "bundle every ticket a range of commits names and note each bundle's digests on the range's tip",
		ArgsUsage: "[REV-RANGE]",
		Description: `REV-RANGE is A..B (the commits B has and A lacks; default ORIG_HEAD..HEAD, what a merge or pull just
brought in) or REV alone (REV^1..REV: the commit and, for a merge, everything it merged). An A of forty zeros,
as CI sends for a new branch, also means B alone.
Tickets are found in the range's commit messages (trailers included) by git config bernstein.ticketPattern,
a regular expression (default [A-Z][A-Z0-9]+-[0-9]+, case-sensitive, whole tokens only; UTF-8, SHA-256 and
the like are not tickets), in merged branch names (ignoring case: bugfix/eng-42-crash names ENG-42), and with
ticket trailer values in the tracker's own shape (github: Fixes: #123; launchpad: Closes-Bug: #2161868, with
git config bernstein.trailer Closes-Bug), and with tracker github as the pull request of a "Merge pull request
#N" merge. Ids that are part of a version (lang-3.2, go-1.19) are not tickets. git config bernstein.projects
(keys separated by spaces, or one value a key: "KAFKA ENG") keeps only the ids of those keys; unset, ids of
several keys give a warning saying how to set it. With bernstein.tracker unset and only Jira/Linear-shaped ids
found, a warning says how to set it.
Each ticket is bundled with the full discovery of 'git bernstein commits' into
<bundle dir>/<tracker>/<ticket>/<12-digit tip sha>.tar.gz, signed when a key is configured, and a line
{"v":1,"tracker","ticket","bundle","bundle_sha256","manifest_sha256","signed","kid","commits","files",
"created_at"} is added to the tip's note on git config bernstein.notesRef (default refs/notes/bernstein).
created_at defaults to the tip's committer date, so recording the same range twice gives the same bytes.
Each bundle holds the ticket's pull requests as 'git bernstein bundle' finds them (--no-pr or git config
bernstein.pullRequests false: none), and with --controls (git config bernstein.controls) their change-control
evidence; tickets GitHub could not be asked about in full are named on stderr with the command that records
them again.
At most --max-tickets tickets are recorded (git config bernstein.maxTickets, default 100; 0 is no cap); the
others are listed on stderr with the exact command that records them, and the exit code is 1.
--json prints {"range","tip","recorded":[{"archive","note"}],"failed":[{"ticket","error"}],"deferred":[…],
"resume"} (for CI).`,
		Flags:  append(recordFlags(), &ucli.BoolFlag{Name: "json", Usage: "print what was recorded as JSON"}),
		Action: runRecord,
	}
}

func runRecord(_ context.Context, c *ucli.Command) error {
	args := c.Args().Slice()
	if len(args) > 1 {
		return usageError("record takes at most one REV-RANGE (got %d arguments)", len(args))
	}
	spec := "ORIG_HEAD..HEAD"
	if len(args) == 1 {
		spec = args[0]
	}
	s, err := openSession(envOf(c))
	if err != nil {
		return err
	}
	req, done, err := s.recordRequest(c, spec, time.Time{})
	if err != nil {
		return err
	}
	run, err := archives.Record(*req)
	done()
	if run != nil {
		warn(c, run.Warnings)
	}
	if err != nil {
		return err
	}
	rep := run.Report
	if c.Bool("json") {
		if err := printRecordJSON(c, rep); err != nil {
			return err
		}
	} else {
		printRecord(c, rep)
	}
	for _, f := range rep.Failed {
		fmt.Fprintf(c.Root().ErrWriter, "git-bernstein: %v\n", f)
	}
	if len(rep.Deferred) > 0 {
		fmt.Fprintf(c.Root().ErrWriter, "git-bernstein: %s\n", deferredLine(c, rep, 0))
	}
	if line := partialLine(c, rep, run.Partial); line != "" {
		fmt.Fprintf(c.Root().ErrWriter, "git-bernstein: %s\n", line)
	}
	// The archives travel with the notes: kept on refs/bernstein/archives too (README, "Sharing evidence").
	if run.KeepErr != nil {
		return fmt.Errorf("bundles recorded and noted, but not kept in refs/bernstein/archives: %w; 'git bernstein push' keeps them", run.KeepErr)
	}
	if n := len(rep.Failed) + len(rep.Deferred); n > 0 {
		return fmt.Errorf("%d of %s not recorded", n, plural.Count(len(rep.Tickets), "ticket"))
	}
	return nil
}

// partialLine says which recorded tickets' pull requests GitHub did not give in full (offline, no answer in
// time, rate limit, the hook's budget used up) and the command that records them again with them; "" when none.
func partialLine(c *ucli.Command, rep *record.Report, partial []string) string {
	var ids []string
	for _, r := range rep.Recorded {
		if slices.Contains(partial, r.Found.ID) {
			ids = append(ids, r.Found.ID)
		}
	}
	if len(ids) == 0 {
		return ""
	}
	return fmt.Sprintf("%s recorded without all of %s pull request evidence (GitHub could not be asked in full; "+
		"the warnings say why); to record them again with it run: %s", plural.Count(len(ids), "ticket"),
		map[bool]string{true: "its", false: "their"}[len(ids) == 1], recordCommandFor(c, rep, ids))
}

// recordRequest is record's request read from the flags and the settings; the hook shares it, with a
// deadline. done lets go of the signing key once the recording is over.
func (s *session) recordRequest(c *ucli.Command, spec string, deadline time.Time) (
	req *archives.RecordRequest, done func(), err error) {
	set, err := s.settings(c)
	if err != nil {
		return nil, nil, err
	}
	tracker := set.Tracker
	run := record.Request{TicketPattern: set.TicketPattern, Tracker: tracker, TrailerKeys: ticketcommits.TrailerKeys(set),
		Trailers: s.cfg.TrailerOptions(), Projects: set.Projects, TrackerDefaulted: set.TrackerDefaulted,
		Config: s.cfg, Getenv: s.env.getenv}
	opts := &run.Options
	if c.String("created-at") != "" || s.env.getenv("SOURCE_DATE_EPOCH") != "" {
		if opts.CreatedAt, err = createdAt(c); err != nil {
			return nil, nil, err
		}
	}
	signing, err := s.bundleSigning(c)
	if err != nil {
		return nil, nil, err
	}
	defer func() {
		if err != nil {
			signing.Close()
		}
	}()
	opts.SignKey, opts.SignKid, opts.SSHSig, opts.Attest = signing.Key, signing.Kid, signing.SSHSig, signing.Attest
	opts.OCIStore = signing.OCIStore
	if opts.SDD, err = s.sddFolder(c.String("sdd"), false); err != nil {
		return nil, nil, err
	}
	if opts.LineageV2, err = lineage.Enabled(set.ProjectRoot, s.env.getenv); err != nil {
		return nil, nil, err
	}
	opts.BundleDir = set.BundleDir
	opts.Repo, opts.Range = s.repo, spec
	opts.Discovery = func(id string) (discover.Options, error) { return s.findOptions(c, tracker, id) }
	opts.Selector = bundle.Selector{ProbeLimit: bundle.DefaultProbeLimit}
	opts.NotesRef = notes.RefFrom(s.cfg)
	// The deadline was read on the run's clock; the tickets are held to it on the same one.
	opts.Only, opts.Deadline, opts.Now = c.StringSlice("ticket"), deadline, s.env.now
	if opts.MaxTickets, err = set.MaxTickets, set.Err("bernstein.maxTickets"); err != nil {
		return nil, nil, err
	}
	noPR, err := s.noPR(c)
	if err != nil {
		return nil, nil, err
	}
	req = &archives.RecordRequest{Request: run, Now: s.env.now}
	if !noPR {
		// Each ticket's pull requests, as bundle finds them; within the hook's budget, half the time left at
		// most, so that the bundle is still written with what came back.
		req.PRs, req.PRErr = s.captureRequest(c, ticket.Ticket{}, prQuery{sdd: opts.SDD, deadline: deadline})
	}
	return req, signing.Close, nil
}

// bundleDir is where recorded bundles are (settings: --bundle-dir, bernstein.bundleDir, the default).
func (s *session) bundleDir(c *ucli.Command) (string, error) {
	set, err := s.settings(c)
	if err != nil {
		return "", err
	}
	return set.BundleDir, nil
}

func printRecordJSON(c *ucli.Command, rep *record.Report) error {
	type recorded struct {
		Archive string      `json:"archive"`
		Note    notes.Entry `json:"note"`
	}
	type failed struct {
		Ticket string `json:"ticket"`
		Error  string `json:"error"`
	}
	out := struct {
		Range    string     `json:"range"`
		Tip      string     `json:"tip"`
		Recorded []recorded `json:"recorded"`
		Failed   []failed   `json:"failed"`
		Deferred []string   `json:"deferred"`
		Resume   string     `json:"resume,omitempty"`
	}{Range: rep.Range.Spec, Tip: rep.Range.Tip.String(), Recorded: []recorded{}, Failed: []failed{}, Deferred: []string{}}
	for _, d := range rep.Deferred {
		out.Deferred = append(out.Deferred, d.ID)
	}
	if len(rep.Deferred) > 0 {
		out.Resume = resumeCommand(c, rep)
	}
	warn(c, recordWarnings(rep))
	for _, r := range rep.Recorded {
		out.Recorded = append(out.Recorded, recorded{r.Result.Out, r.Entry})
	}
	for _, f := range rep.Failed {
		out.Failed = append(out.Failed, failed{f.Ticket, f.Err.Error()})
	}
	return printJSON(c, out)
}

func printRecord(c *ucli.Command, rep *record.Report) {
	wd, _ := envOf(c).getwd()
	if len(rep.Tickets) == 0 {
		fmt.Fprintf(c.Root().Writer, "No ticket named by %s (%s): nothing recorded.\n", rep.Range.Spec, plural.Count(len(rep.Range.Commits), "commit"))
		return
	}
	warn(c, recordWarnings(rep))
	for _, r := range rep.Recorded {
		signed := "unsigned"
		if r.Entry.Signed {
			signed = "signed, kid " + r.Entry.Kid
		}
		fmt.Fprintf(c.Root().Writer, "Recorded %s (%s): %s (%s, %s, %s, %s), noted on %s.\n",
			r.Entry.Ticket, r.Entry.Tracker, displayPath(wd, r.Result.Out), humanSize(r.Result.Size), plural.Count(r.Entry.Files, "file"),
			plural.Count(r.Entry.Commits, "commit"), signed, rep.Range.Tip.String()[:7])
	}
}

// recordWarnings are the tickets' warnings, each said once: most (no .sdd folder, GitHub unreachable, the
// tracker guessed) are about the repository, not the ticket, and a range naming 39 tickets said them 39 times.
func recordWarnings(rep *record.Report) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range rep.Recorded {
		for _, w := range r.Result.Warnings {
			if !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	return out
}
