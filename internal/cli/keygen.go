package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"sync"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/signing"
)

func keygenCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "keygen",
		Usage: "make an Ed25519 signing key and the agent card that lets verifiers trust it",
		Description: `Writes a new Ed25519 private key as unencrypted PKCS#8 PEM (mode 0600) and the flat agent card
{"protocolVersion":"a2a/1.0","agent_id","kid","public_key_pem"} (mode 0644). Existing files are never
overwritten. Keep the key secret; give the card to whoever verifies your bundles (verify --card).
By default both land in the current folder as <kid>.pem and <kid>.card.json, so the kid must then be a
safe file name (letters, digits, . _ - + @, not starting with punctuation). A key written inside a git
worktree is added to the clone's own ignore list, <git common dir>/info/exclude, so that no "git add ."
commits it (--no-exclude: leave it).`,
		Flags: []ucli.Flag{
			&ucli.StringFlag{Name: "kid", Usage: "key id that signatures carry and verifiers match (required)"},
			&ucli.StringFlag{Name: "agent-id", Value: "git-bernstein", Usage: "agent_id written in the card"},
			&ucli.StringFlag{Name: "key", Usage: "where to write the private key (default ./<kid>.pem)"},
			&ucli.StringFlag{Name: "card", Usage: "where to write the agent card (default ./<kid>.card.json)"},
			&ucli.BoolFlag{Name: "no-exclude", Usage: "do not add a key written inside a git worktree to <git dir>/info/exclude"},
			sshKeyFlag(),
		},
		Action: runKeygen,
	}
}

// safeFileKid is what a kid must look like to become a file name on any common file system.
// safeFileKid is compiled when first used, not at every command's start-up ({0,99} is a large program).
var safeFileKid = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+@-]{0,99}$`) })

func runKeygen(_ context.Context, c *ucli.Command) error {
	if c.NArg() > 0 {
		return usageError("keygen takes no arguments, got %q; see 'git bernstein keygen --help'", c.Args().First())
	}
	if c.IsSet("ssh-key") {
		return runKeygenSSH(c)
	}
	kid := c.String("kid")
	if kid == "" {
		return usageError("keygen needs --kid: the key id signatures carry, e.g. --kid alice-2025")
	}
	if err := sign.CheckKid(kid); err != nil {
		return usageError("--kid: %v", err)
	}
	agentID := c.String("agent-id")
	if agentID == "" {
		return usageError("--agent-id is empty")
	}
	keyPath, cardPath := c.String("key"), c.String("card")
	if (keyPath == "" || cardPath == "") && !safeFileKid().MatchString(kid) {
		return usageError("--kid %q cannot name the default files <kid>.pem / <kid>.card.json; use letters, digits and . _ - + @, or give --key and --card", kid)
	}
	if keyPath == "" {
		keyPath = kid + ".pem"
	}
	if cardPath == "" {
		cardPath = kid + ".card.json"
	}
	wd, err := envOf(c).getwd()
	if err != nil {
		return fmt.Errorf("find the current folder: %w", err)
	}
	keyFile, cardFile := inDir(wd, keyPath), inDir(wd, cardPath)
	if keyFile == cardFile {
		return usageError("--key and --card are the same file %s", keyPath)
	}
	made, err := signing.Keygen(signing.NewKey{KeyFile: keyFile, CardFile: cardFile, AgentID: agentID, Kid: kid})
	if err != nil {
		return err
	}

	w := c.Root().Writer
	fmt.Fprintf(w, "Wrote private key %s (Ed25519, PKCS#8, mode 0600): keep it secret.\n", keyPath)
	fmt.Fprintf(w, "Wrote agent card  %s (agent_id %s): give it to verifiers.\n", cardPath, agentID)
	if !c.Bool("no-exclude") {
		excludeKey(c, wd, keyFile)
	}
	fmt.Fprintf(w, "kid:         %s\n", kid)
	fmt.Fprintf(w, "fingerprint: %s (RFC 7638 JWK thumbprint, SHA-256)\n", made.Fingerprint)
	printAllowedSigners(w, made.AllowedSigners, made.AllowedSignersErr)
	fmt.Fprintf(w, "Sign bundles with: git bernstein bundle --sign-key %s --sign-kid %s TICKET\n", keyPath, kid)
	return nil
}

// inDir resolves a user-given path against the folder the command runs from.
func inDir(wd, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(wd, p)
}

// excludeKey keeps a private key written inside a git worktree out of commits: its path goes into the clone's
// info/exclude (never shared, unlike .gitignore). The key is written by then, so a problem is a warning.
func excludeKey(c *ucli.Command, wd, keyFile string) {
	repo, err := gitext.Discover(filepath.Dir(keyFile), envOf(c).getenv)
	if err != nil {
		return // not in a repository: nothing can commit it
	}
	pattern, err := repo.ExcludeLocally(keyFile)
	switch {
	case err != nil:
		warn(c, []string{fmt.Sprintf("the key is inside the worktree %s and could not be added to its info/exclude (%v): "+
			"make sure git never commits it", repo.WorkTree, err)})
	case pattern != "":
		fmt.Fprintf(c.Root().Writer, "Added %s to %s, so git never commits the key (--no-exclude to skip).\n",
			pattern, displayPath(wd, filepath.Join(repo.CommonDir, "info", "exclude")))
	}
}

// printAllowedSigners prints the allowed signers line for the key, so that auditors who check the .sig with
// stock OpenSSH (ssh-keygen -Y verify) need nothing but this line; a kid that cannot be a principal says why.
func printAllowedSigners(w io.Writer, line string, err error) {
	if err != nil {
		fmt.Fprintf(w, "allowed signers: none printed: %v\n", err)
		return
	}
	fmt.Fprintf(w, "allowed signers: %s\n", line)
}
