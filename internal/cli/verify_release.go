package cli

import (
	"context"
	"fmt"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/release"
	"github.com/git-bernstein/git-bernstein/internal/sshsig"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

func verifyReleaseCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "verify-release",
		Usage:     "check a downloaded git-bernstein release before running it: every file, its SBOM and signed provenance",
		ArgsUsage: "DIR",
		Description: `Checks a release folder as 'make release' writes it (internal/release/doc.go), trusting only the keys you
give (--card, --allowed-signers), never one the release brings:
   <file>           every file SHA256SUMS lists has the sha256 it gives
   files            the folder holds nothing else but SHA256SUMS, SHA256SUMS.sig and the provenance files
   sshsig           SHA256SUMS.sig is an SSHSIG over SHA256SUMS (namespace git-bernstein) by a key you gave
   provenance       provenance.intoto.jsonl: a DSSE envelope signed under a keyid you gave a key for, whose
                    in-toto statement (SLSA provenance v1) has as subjects exactly SHA256SUMS and its files,
                    with the same sha256
   sigstore-bundle  provenance.sigstore.json: the same, in a Sigstore bundle v0.3
VERIFIED (exit 0) only when every line passes; FAILED (exit 1) otherwise: do not run the binaries;
UNVERIFIABLE (exit 2) with no key or no SHA256SUMS. README, "Install", shows the stock commands that check the
same (sha256sum -c, ssh-keygen -Y verify, cosign verify-blob-attestation).`,
		Flags: []ucli.Flag{
			&ucli.StringSliceFlag{Name: "card", Usage: "the release signer's agent card, JWK or JWKS `FILE` (repeatable)"},
			&ucli.StringSliceFlag{Name: "allowed-signers", Usage: "trust the keys of an allowed signers `FILE` (repeatable): the kid picks a principal or SHA256: fingerprint"},
		},
		Action: runVerifyRelease,
	}
}

func runVerifyRelease(_ context.Context, c *ucli.Command) error {
	dir, err := oneArg(c, "DIR")
	if err != nil {
		return err
	}
	wd, err := envOf(c).getwd()
	if err != nil {
		return err
	}
	req := release.Request{Dir: inDir(wd, dir), Cards: cardPaths(wd, c.StringSlice("card")), Now: envOf(c).now()}
	for _, name := range c.StringSlice("allowed-signers") {
		req.AllowedSigners = append(req.AllowedSigners, sshsig.AllowedSignersFile{Path: inDir(wd, name), Name: name})
	}
	r, err := release.VerifyDir(req)
	if err != nil {
		return usageError("%v", err)
	}
	w := c.Root().Writer
	width := len("sigstore-bundle")
	for _, ch := range r.Checks {
		width = max(width, len(ch.Name))
	}
	for _, ch := range r.Checks {
		status := "[PASS]"
		if !ch.OK {
			status = "[FAIL]"
			if r.Unusable {
				status = "[UNUSABLE]"
			}
		}
		fmt.Fprintf(w, "%-10s %-*s  %s\n", status, width, ch.Name, ch.Detail)
	}
	switch {
	case r.OK():
		fmt.Fprintf(w, "VERIFIED: every file of %s is the one signed by a key you gave\n", dir)
		return nil
	case r.Unusable:
		fmt.Fprintf(w, "UNVERIFIABLE: %s could not be checked; do not run its binaries until it is\n", dir)
		return verdict(verify.ExitUnverifiable, "")
	}
	fmt.Fprintf(w, "FAILED: %s is not the release its signer made; do not run its binaries\n", dir)
	return verdict(verify.ExitFailed, "")
}
