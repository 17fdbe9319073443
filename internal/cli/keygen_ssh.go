package cli

import (
	"fmt"
	"strings"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/signing"
	"github.com/git-bernstein/git-bernstein/internal/sshsig"
)

// sshKeyFlag is keygen --ssh-key: no new key, the card of an SSH key one already has.
func sshKeyFlag() ucli.Flag {
	return &ucli.StringFlag{Name: "ssh-key", Usage: "make no key: write the flat agent card of this SSH Ed25519 key `FILE` (.pub, private key, or key::ssh-ed25519 …), " +
		"for verifiers that take cards (default --kid: its SHA256: fingerprint; default --card: <FILE without .pub>.card.json)"}
}

// runKeygenSSH writes the flat card of an existing SSH key: the same Ed25519 public key as a PEM, under the
// kid its bundles carry (by default its fingerprint), so that `verify --card`, upstream's Python verifier and
// the browser page trust bundles signed with it.
func runKeygenSSH(c *ucli.Command) error {
	spec := c.String("ssh-key")
	if c.IsSet("key") {
		return usageError("--ssh-key makes no key: drop --key")
	}
	wd, err := envOf(c).getwd()
	if err != nil {
		return fmt.Errorf("find the current folder: %w", err)
	}
	if !strings.HasPrefix(spec, sshsig.LiteralPrefix) {
		spec = inDir(wd, envOf(c).expandHome(spec))
	}
	made, err := signing.WriteSSHCard(signing.SSHCard{Key: spec, Kid: c.String("kid"), AgentID: c.String("agent-id"),
		Card: c.String("card"), Dir: wd})
	if err != nil {
		return signingUsage(err)
	}
	fmt.Fprintf(c.Root().Writer, "Wrote agent card %s (agent_id %s) for the SSH key %s: give it to verifiers.\n", made.Card,
		c.String("agent-id"), c.String("ssh-key"))
	fmt.Fprintf(c.Root().Writer, "kid: %s\n", made.Kid)
	printAllowedSigners(c.Root().Writer, made.AllowedSigners, made.AllowedSignersErr)
	return nil
}
