package cli

import (
	"fmt"
	"path/filepath"
	"strings"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/atomicfile"
	"github.com/git-bernstein/git-bernstein/internal/settings"
	"github.com/git-bernstein/git-bernstein/internal/sign"
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
		spec = inDir(wd, settings.ExpandHome(spec))
	}
	pub, err := sshsig.LoadPublicKey(spec)
	if err != nil {
		return err
	}
	kid := c.String("kid")
	if kid == "" {
		if kid, err = sshsig.Fingerprint(pub); err != nil {
			return err
		}
	}
	if err := sign.CheckKid(kid); err != nil {
		return usageError("--kid: %v", err)
	}
	agentID := c.String("agent-id")
	if agentID == "" {
		return usageError("--agent-id is empty")
	}
	cardPath := c.String("card")
	if cardPath == "" {
		if strings.HasPrefix(spec, sshsig.LiteralPrefix) {
			return usageError("--ssh-key key::… needs --card PATH")
		}
		cardPath = strings.TrimSuffix(filepath.Base(spec), ".pub") + ".card.json"
	}
	card, err := sign.MarshalCard(agentID, kid, pub)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteNew(inDir(wd, cardPath), card, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(c.Root().Writer, "Wrote agent card %s (agent_id %s) for the SSH key %s: give it to verifiers.\n", cardPath, agentID, c.String("ssh-key"))
	fmt.Fprintf(c.Root().Writer, "kid: %s\n", kid)
	line, lineErr := sshsig.AllowedSignersLine(kid, pub)
	printAllowedSigners(c.Root().Writer, line, lineErr)
	return nil
}
