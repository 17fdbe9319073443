package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/controls"
	"github.com/git-bernstein/git-bernstein/internal/gitverify"
)

// ExitControls is audit's code for a VERIFIED bundle in which a control gave an exception (or, under --strict,
// an unknown). verify's codes 0–3 keep their meaning.
const ExitControls = 4

var auditDescription = `Verifies the bundle exactly as verify does (same checks, trust rules and flags), and, only when it is
VERIFIED, evaluates change controls over its signed members (git/commits.json, the pr/ members that
bundle --controls captures, the lineage v1 attribution). An archive that is not VERIFIED is never audited:
verify's report is printed and the exit code is verify's.

CONTROLS (per merged pull request, or per tied commit that reached a protected branch without one):
   reached-by-pr         each tied commit on a protected branch came through a merged pull request
                         (merge, squash, rebase, merge queue); a direct push is an exception
   independent-approval  enough approvals (policy, else the captured rules, else 1) by people who are not
                         the author, a commit author or committer, a co-author, a force-pusher, the merger
                         or a bot; a dismissal or later CHANGES_REQUESTED cancels an approval
   approved-final-head   the counted approvals were on the final head, with no push after them
   checks-passed         every required check concluded success, neutral or skipped before the merge
   agent-work-reviewed   agent-written work was approved by a human other than the agent's initiator
   ticket-open           the commits and the merge fall while the ticket was open (GitHub issue events,
                         else ticket.opened/closed records under audit/ or lineage/)
Each gives pass, exception (with the member, JSON pointer, who, commit and time it rests on) or unknown
(not captured, not readable, an offline copy; with why).

POLICY (--policy FILE, YAML or JSON; the auditor's, never the bundle's):
   required_approvals: 2
   required_checks: [build, test]
   trusted_bots: ['dependabot[bot]']
   require_codeowners: false
   protected_branches: [main, 'release/*']

EXIT CODES:
   0–3  verify's (an archive that is not VERIFIED is not audited)
   4    VERIFIED, and a control gave an exception (with --strict, also an unknown)`

func auditCommand() *ucli.Command {
	flags := append(verifyFlags(), policyFlag())
	for i, f := range flags {
		if b, ok := f.(*ucli.BoolFlag); ok && b.Name == "strict" {
			flags[i] = &ucli.BoolFlag{Name: "strict", Usage: "exit 3 when the bundle verifies with warnings, and count an unknown control as an exception (exit 4)"}
		}
		if b, ok := f.(*ucli.BoolFlag); ok && b.Name == "json" {
			flags[i] = &ucli.BoolFlag{Name: "json", Usage: `print {"verify": verify's report, "controls": the controls or null, "exit_code"} as JSON`}
		}
	}
	return &ucli.Command{
		Name:        "audit",
		Usage:       "verify a ticket bundle, then check its change controls: reviewed by someone else, on what shipped, checks green",
		ArgsUsage:   "ARCHIVE [SIGNATURE]",
		Description: auditDescription,
		Flags:       flags,
		Action:      runAudit,
	}
}

// policyPath is the --policy file, relative to wd; "" without --policy (the defaults).
func policyPath(c *ucli.Command, wd string) string {
	if p := c.String("policy"); p != "" {
		return inDir(wd, p)
	}
	return ""
}

// policyFlag is --policy, for audit and view.
func policyFlag() ucli.Flag {
	return &ucli.StringFlag{Name: "policy", Usage: "the auditor's change-control policy `FILE` (YAML or JSON): required_approvals, required_checks, trusted_bots, require_codeowners, protected_branches"}
}

func runAudit(_ context.Context, c *ucli.Command) error {
	args, opts, wd, err := verifyInputs(c)
	if err != nil {
		return err
	}
	// Audit reads the policy first, and its only error is the policy's: a usage error, before any verdict.
	audited, err := gitverify.Audit(gitverify.AuditRequest{Request: verifyRequest(c, wd, args, opts),
		Policy: policyPath(c, wd), PolicyName: c.String("policy")})
	if err != nil {
		return usageError("%v", err)
	}
	report, res := audited.Report, audited.Controls
	code := report.ExitCode
	if res != nil && res.HasException(c.Bool("strict")) {
		code = ExitControls
	}
	if c.Bool("json") {
		out, _ := json.MarshalIndent(struct {
			Verify   json.RawMessage  `json:"verify"`
			Controls *controls.Result `json:"controls"`
			ExitCode int              `json:"exit_code"`
		}{json.RawMessage(bytes.TrimSpace(report.JSON())), res, code}, "", "  ")
		c.Root().Writer.Write(append(out, '\n'))
	} else {
		io.WriteString(c.Root().Writer, report.Text())
		if res != nil {
			io.WriteString(c.Root().Writer, "\nCONTROLS\n"+res.Text())
			if code == ExitControls {
				fmt.Fprintf(c.Root().Writer, "audit: exceptions found (exit %d)\n", ExitControls)
			}
		} else {
			fmt.Fprintf(c.Root().Writer, "audit: not audited: the bundle is %s\n", report.Verdict)
		}
	}
	if code != 0 {
		return verdict(code, "")
	}
	return nil
}
