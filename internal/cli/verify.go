package cli

import (
	"context"
	"fmt"
	"io"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/gitverify"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

var verifyDescription = fmt.Sprintf(`Checks a ticket bundle without extracting it: the archive is read once, as a stream, in memory.
Checks, in this order, one line each ([PASS], [WARN], [FAIL], or [UNUSABLE] when it could not be made):
   archive    a single gzip member read to its end (checksum checked, nothing after it, no FEXTRA or
              FCOMMENT); tar headers in the one shape every tar reader reads alike (ustar, at most one PAX
              header per member with only path and mtime, canonical numbers, zero padding, no setuid bits);
              relative names (no /, .., \, NUL; at most 32 parts), regular files only, no duplicates,
              manifest.json first; no .git part in any form git refuses (.GIT, .git., git~1, HFS+
              ignorables); each member in its section's folder (git, pr, transcripts, traces, lineage,
              audit) as the manifest lists it; no name a folder of another; warnings for names that
              collide on macOS or Windows (case, NFC/NFD) or that Windows forbids
   manifest   strict JSON (no duplicate keys), schema_version 1 with exactly its fields and types
   files      every listed file present with its size and sha256, and no other member
   signature  the detached JWS (default <ARCHIVE>.jws) with exactly the header
              {"alg":"EdDSA","b64":false,"crit":["b64"],"kid":…} over the manifest's JCS form; a signature
              over the legacy Python json.dumps form passes with a warning
   trust      the signature's kid and key are in a --card you gave (flat agent card, A2A card with keys[],
              JWK or JWKS; Ed25519), or on an --allowed-signers line (principal or SHA256: fingerprint,
              namespace git-bernstein, valid at created_at). A bundle brings no trust of its own.
   sshsig     when <ARCHIVE>.sig is there: an SSHSIG over the archive's bytes (namespace git-bernstein)
              that verifies (else FAIL), by a key on an allowed signers line or card you gave (else WARN)
   attestation  when <ARCHIVE>.intoto.jsonl is there: a DSSE envelope whose in-toto statement names this
              archive's sha256 and manifest (else FAIL), signed under a keyid you gave a key for (else WARN)
   sigstore-bundle  when <ARCHIVE>.sigstore.json is there: the same statement in a Sigstore bundle v0.3,
              checked alike, its publicKey.hint picking the key from your --card or --allowed-signers
   commits    git/commits.json read strictly (no duplicate keys, exact member names), each sha once in
              commits and in details, and the manifest's commits exactly the document's (FAIL otherwise)
   note       with --rev REV only: the archive's sha256 is a digest git-bernstein noted on REV for the
              manifest's ticket (FAIL if it differs; unusable if REV has no note for it); with --rev REV and
              no ARCHIVE, each archive noted on REV is verified, found by its digest as 'git bernstein get'
              finds it (the bundles folder, then refs/bernstein/archives)
   repository with --repo[=DIR] only: every commit of git/commits.json is in the repository (DIR, else
              the one around the working folder) with the parents, author, committer and subject it lists,
              and each part of git/diff.patch, applied in memory, turns its parent's tree into its
              commit's tree; and the ticket, found again at the tips the bundle records with the rules and
              settings it records (no index or cache read), ties no commit the bundle lacks and gives the
              same matched_by, patch_id and landed_on; and each head of git/patchids/pr_<N>.json (--controls)
              has the fork point and patch id the repository gives (FAIL on any difference; unusable if a
              commit is not in the repository; WARN for what cannot be judged, a head the repository lacks,
              and commits tied only since)
   pr-sources when the bundle has pr/ members: pr/sources.json names exactly them (else FAIL) and says
              where each came from: fetched from GitHub, or GitHub's answer from the ETag cache after a 304
              (ETag, cached_at), each listed (PASS); an offline copy from .sdd/pr, which GitHub never said,
              or a bundle without pr/sources.json ("sources not recorded") is a WARN
Then the verdict, with what it means and what it does not.

VERDICTS AND EXIT CODES:
   0  VERIFIED      signed by a key you trust, and the archive is exactly what was signed
   1  FAILED        something does not match what was signed: an edited, missing, added or renamed file, an
                    edited manifest, a signature your key rejects, a kid no card has, a forged header, or an
                    archive built to fool an extractor (unsafe names, links, duplicates, appended data)
   2  UNVERIFIABLE  no signature or no --card (the archive is still checked: changed is FAILED), or unusable
                    input: unreadable archive, signature or card, not a bundle, schema_version other than 1,
                    a limit passed; also bad flags
   3  --strict only: verified, but with warnings

LIMITS (sizes are counted while reading, never taken from headers):
   --max-entries        %d members
   --max-member-size    %s for one file
   --max-total-size     %s inflated in all
   --max-manifest-size  %s for manifest.json
   --max-names-size     %s of member names in all (one name: at most %d bytes and %d parts, FAILED past them)
Inputs (archive, signature, cards) must be regular files; a FIFO or device is refused at once (exit 2).`,
	verify.DefaultMaxEntries, verify.FormatSize(verify.DefaultMaxMemberSize),
	verify.FormatSize(verify.DefaultMaxTotalSize), verify.FormatSize(verify.DefaultMaxManifestSize),
	verify.FormatSize(verify.DefaultMaxNamesSize), verify.MaxNameLength, verify.MaxNameDepth)

// limitFlags bound what a hostile archive can make verify (and view) read.
func limitFlags() []ucli.Flag {
	return []ucli.Flag{
		&ucli.IntFlag{Name: "max-entries", Value: verify.DefaultMaxEntries, Usage: "most tar members `N`"},
		&ucli.StringFlag{Name: "max-member-size", Value: verify.FormatSize(verify.DefaultMaxMemberSize), Usage: "largest one file `SIZE` (bytes, or with KiB, MiB, GiB)"},
		&ucli.StringFlag{Name: "max-total-size", Value: verify.FormatSize(verify.DefaultMaxTotalSize), Usage: "largest inflated archive `SIZE`"},
		&ucli.StringFlag{Name: "max-manifest-size", Value: verify.FormatSize(verify.DefaultMaxManifestSize), Usage: "largest manifest.json `SIZE`"},
		&ucli.StringFlag{Name: "max-names-size", Value: verify.FormatSize(verify.DefaultMaxNamesSize), Usage: "most bytes of all member names together, `SIZE` (one name is at most 4 KiB)"},
	}
}

func verifyFlags() []ucli.Flag {
	return append([]ucli.Flag{
		&ucli.StringSliceFlag{Name: "card", Usage: "a trusted agent card, JWK or JWKS `FILE` (repeatable); the signature's kid picks the key"},
		allowedSignersFlag(),
		&ucli.BoolFlag{Name: "json", Usage: "print the report as JSON; its exit_code is the process's"},
		&ucli.BoolFlag{Name: "strict", Usage: "exit 3 when the bundle verifies with warnings"},
		&ucli.StringFlag{Name: "rev", Usage: "also check that the archive's sha256 is the digest git-bernstein noted on commit `REV` for its ticket; with no ARCHIVE, verify each archive noted on REV, found as 'git bernstein get' finds it"},
		repoFlag(),
		agentCardsFlag(),
	}, limitFlags()...)
}

func verifyCommand() *ucli.Command {
	return &ucli.Command{
		Name:        "verify",
		Usage:       "check a ticket bundle and its signature: VERIFIED, FAILED or UNVERIFIABLE",
		ArgsUsage:   "ARCHIVE [SIGNATURE]",
		Description: verifyDescription,
		Flags:       verifyFlags(),
		Action:      runVerify,
	}
}

// bundleVerifyCommand is the Bernstein form, `bundle verify ARCHIVE SIGNATURE --card CARD`: the same command.
func bundleVerifyCommand() *ucli.Command {
	cmd := verifyCommand()
	cmd.Usage = "the Bernstein form of verify: bundle verify ARCHIVE SIGNATURE --card CARD"
	cmd.ArgsUsage = "ARCHIVE SIGNATURE"
	return cmd
}

func runVerify(ctx context.Context, c *ucli.Command) error {
	if c.Args().Len() == 0 && c.String("rev") != "" {
		return runVerifyNoted(ctx, c) // verify --rev REV: the archives noted there, fetched as get does
	}
	args, opts, wd, err := verifyInputs(c)
	if err != nil {
		return err
	}
	if err := repoWrittenApart(c, wd, args); err != nil {
		return err
	}
	report := gitverify.Verify(verifyRequest(c, wd, args, opts))
	if c.Bool("json") {
		c.Root().Writer.Write(report.JSON())
	} else {
		io.WriteString(c.Root().Writer, report.Text())
	}
	if report.ExitCode != 0 {
		return verdict(report.ExitCode, "")
	}
	return nil
}

// verifyRequest is what verify, audit and extract verify: ARCHIVE [SIGNATURE] (none: verify --rev's noted
// archives) and the cards, with the note check of --rev (its repository opened only when asked for), the
// repository of --repo and the SSH trust.
func verifyRequest(c *ucli.Command, wd string, args []string, opts verify.Options) gitverify.Request {
	env := envOf(c)
	var files verify.Files
	if len(args) > 0 {
		files = verifyPaths(wd, args, c.StringSlice("card"))
	} else {
		files = verify.Files{Cards: cardPaths(wd, c.StringSlice("card"))}
	}
	return gitverify.Request{Files: files, Options: opts,
		Rev: c.String("rev"), Notes: notesOf(env), Repo: repoArg(c, env, wd),
		Trust: func(archive string, o *verify.Options) *verify.Report { return addSSHTrust(c, wd, archive, o) }}
}

// archiveArgs is the ARCHIVE [SIGNATURE] of verify, audit, extract and view; a usage error names the command.
func archiveArgs(c *ucli.Command) ([]string, error) {
	args := c.Args().Slice()
	if len(args) < 1 || len(args) > 2 {
		return nil, usageError("%s takes ARCHIVE and an optional SIGNATURE (got %d arguments); see 'git bernstein help %s'",
			c.Name, len(args), c.Name)
	}
	return args, nil
}

// verifyInputs reads, in this order, what verify, audit and extract start from: ARCHIVE [SIGNATURE], verify's
// options and the working folder.
func verifyInputs(c *ucli.Command) (args []string, opts verify.Options, wd string, err error) {
	if args, err = archiveArgs(c); err != nil {
		return nil, opts, "", err
	}
	if opts, err = verifyOptions(c); err != nil {
		return nil, opts, "", err
	}
	if wd, err = envOf(c).getwd(); err != nil {
		return nil, opts, "", fmt.Errorf("find the current folder: %w", err)
	}
	return args, opts, wd, nil
}

func verifyOptions(c *ucli.Command) (verify.Options, error) {
	lim, err := verifyLimits(c)
	if err != nil {
		return verify.Options{}, err
	}
	cards, err := agentCards(c)
	return verify.Options{Strict: c.Bool("strict"), Limits: lim, AgentCards: cards}, err
}

// verifyLimits reads limitFlags.
func verifyLimits(c *ucli.Command) (verify.Limits, error) {
	var lim verify.Limits
	if n := c.Int("max-entries"); n <= 0 {
		return lim, usageError("--max-entries must be positive, got %d", n)
	} else {
		lim.MaxEntries = n
	}
	for _, s := range []struct {
		flag string
		dst  *int64
	}{
		{"max-member-size", &lim.MaxMemberSize},
		{"max-total-size", &lim.MaxTotalSize},
		{"max-manifest-size", &lim.MaxManifestSize},
		{"max-names-size", &lim.MaxNamesSize},
	} {
		n, err := verify.ParseSize(c.String(s.flag))
		if err != nil {
			return lim, usageError("--%s: %v", s.flag, err)
		}
		*s.dst = n
	}
	return lim, nil
}

// verifyPaths turns what the user named (ARCHIVE [SIGNATURE], --card) into the files verify, view and extract
// read, relative to wd; cards are named in reports as the user wrote them.
func verifyPaths(wd string, args, cards []string) verify.Files {
	f := verify.Files{Archive: inDir(wd, args[0])}
	if len(args) == 2 {
		f.Signature = inDir(wd, args[1])
	}
	f.Cards = cardPaths(wd, cards)
	return f
}

// cardPaths are the --card files relative to wd, named as the user wrote them.
func cardPaths(wd string, cards []string) []verify.Card {
	out := make([]verify.Card, len(cards))
	for i, p := range cards {
		out[i] = verify.Card{Path: inDir(wd, p), Name: p}
	}
	return out
}
