package cli

import (
	"context"
	"fmt"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/sshsig"
)

func cardCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "card",
		Usage: "show an agent card's keys in the forms stock tools read",
		Commands: []*ucli.Command{{
			Name:      "ssh",
			Usage:     "print an allowed signers line (ssh-keygen -Y verify) for each key of a card",
			ArgsUsage: "CARD",
			Description: `Reads CARD (a flat agent card as keygen writes it, an A2A card with keys[], a JWK or a JWKS; Ed25519
only) and prints, for each key, the allowed signers line that trusts it for git-bernstein's signatures:
<kid> namespaces="git-bernstein" ssh-ed25519 AAAA…
so that an auditor with only the card checks a bundle's .sig with stock OpenSSH:
  git bernstein card ssh signer.card.json > allowed_signers
  ssh-keygen -Y verify -f allowed_signers -I <kid> -n git-bernstein -s ENG-42.tar.gz.sig < ENG-42.tar.gz
--key-only prints just the public keys (ssh-ed25519 AAAA… <kid>), as in a .pub file. OpenSSH's own
ssh-keygen -i -m PKCS8 refuses Ed25519 keys in a card's PEM form, hence this command.`,
			Flags: []ucli.Flag{
				&ucli.BoolFlag{Name: "key-only", Usage: "print each key as a .pub line (ssh-ed25519 AAAA… KID), not an allowed signers line"},
			},
			Action: runCardSSH,
		}},
	}
}

func runCardSSH(_ context.Context, c *ucli.Command) error {
	path, err := oneArg(c, "CARD")
	if err != nil {
		return err
	}
	wd, err := envOf(c).getwd()
	if err != nil {
		return err
	}
	lines, err := sshsig.CardLines(inDir(wd, path), path, c.Bool("key-only"))
	for _, line := range lines {
		fmt.Fprintln(c.Root().Writer, line)
	}
	if err != nil {
		return fmt.Errorf("%v", err)
	}
	return nil
}
