package cli

import (
	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/lineage"
)

// exportSignFlags are lineage v2 export's signing flags.
func exportSignFlags() []ucli.Flag {
	return []ucli.Flag{
		&ucli.StringFlag{Name: "sign-key", Usage: "with --format sigstore, print each statement in a DSSE envelope, one a line, signed with this key: " +
			"a PKCS#8 Ed25519 PEM `FILE`, an OpenSSH Ed25519 private key, or a public key (.pub file or key::ssh-ed25519 AAAA…) whose private half is in ssh-agent"},
		&ucli.StringFlag{Name: "sign-kid", Usage: "the envelopes' keyid `KID` (default: an SSH key's SHA256: fingerprint)"},
	}
}

// exportSigner is export --sign-key's key, read only when lineage.Export asks for it (after the timeline is
// read); a nil key when none is given.
func exportSigner(c *ucli.Command) func() (*lineage.SealKey, error) {
	return func() (*lineage.SealKey, error) {
		env := envOf(c)
		sess, err := openSession(env)
		if err != nil {
			sess = nil // outside a repository only the flags count
		}
		key, err := signer(c, env, sess)
		if err != nil || key == nil {
			return nil, err
		}
		return &lineage.SealKey{Key: key.Key, Kid: key.Kid, Release: key.Close}, nil
	}
}
