package inbrowser

import (
	"fmt"
	"strings"

	"github.com/git-bernstein/git-bernstein/internal/plural"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// NextSteps says what to do after a result that is not plainly VERIFIED, as Tracekit's page does: what to
// check or ask for, with the command that does it. names are the files the user chose (archive may be "").
func NextSteps(rep *verify.Report, archive string, signed bool, cards int) []string {
	if archive == "" {
		archive = "BUNDLE.tar.gz"
	}
	status := map[string]verify.Status{}
	for _, c := range rep.Checks {
		status[c.Check] = c.Status
	}
	cli := fmt.Sprintf("Check the same files with the command line: git bernstein verify %s --card CARD.json", shellQuote(archive))
	switch {
	case rep.Verdict == verify.Verified && len(rep.Warnings) > 0:
		steps := []string{fmt.Sprintf("Read the %s below: each says what to look at. They do not change the verdict (with --strict the command line exits 3).", plural.Count(len(rep.Warnings), "warning"))}
		if status[verify.CheckPRSources] == verify.Warn {
			steps = append(steps, "The pull request data the pr-sources line names was not fetched from GitHub (an offline copy from .sdd/pr, or a bundle that does not say): the signature does not make it GitHub's word. Compare it with the pull request on GitHub before relying on it.")
		}
		return steps
	case rep.Verdict == verify.Verified:
		return nil
	case status[verify.CheckArchive] == verify.CannotCheck:
		return []string{"Check that you chose the .tar.gz itself (not a renamed file or a saved web page), then ask the sender to send it again: a damaged or cut-short copy reads like this."}
	case status[verify.CheckManifest] == verify.CannotCheck:
		return []string{"This bundle's manifest has a schema this verifier does not know: check it with the newest git-bernstein."}
	case status[verify.CheckTrust] == verify.CannotCheck:
		return []string{"Choose the card again: it must be the signer's agent card (a .json with public_key_pem, keys[], or a JWK)."}
	case rep.Verdict == verify.Failed && status[verify.CheckTrust] == verify.Fail && status[verify.CheckFiles] != verify.Fail:
		return []string{
			"Make sure the card is the signer's own, from them directly. With the right card, this bundle is not theirs: do not rely on it.",
			cli,
		}
	case rep.Verdict == verify.Failed:
		return []string{
			fmt.Sprintf("Do not rely on this bundle's contents. Ask the sender for the original and compare its SHA-256 with theirs: sha256sum %s", shellQuote(archive)),
			cli,
		}
	case !signed:
		return []string{fmt.Sprintf("Add the bundle's signature (%s.jws): without it nothing says who made the bundle.", archive)}
	case cards == 0:
		return []string{"Ask the signer for their agent card and add it. Get it from them directly, not from the bundle's own folder or message: the card is what makes the check mean something."}
	}
	return []string{cli}
}

// shellQuote quotes a file name for a command the user will paste.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
