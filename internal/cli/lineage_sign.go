package cli

import (
	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/attest"
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

// signedStatements is `export --format sigstore --sign-key`: each statement in its JCS form, in a DSSE envelope
// (payloadType application/vnd.in-toto+json, keyid the kid), one envelope a line (package attest, "Lineage").
func signedStatements(c *ucli.Command, timeline []lineage.Entry) ([]byte, error) {
	env := envOf(c)
	sess, err := openSession(env)
	if err != nil {
		sess = nil // outside a repository only the flags count
	}
	key, err := signer(c, env, sess)
	if err != nil || key == nil {
		return nil, err
	}
	defer key.Close()
	kid := key.Kid
	statements, err := lineage.Statements(timeline)
	if err != nil {
		return nil, err
	}
	var out []byte
	for _, st := range statements {
		payload, err := attest.Canonical(st)
		if err != nil {
			return nil, err
		}
		line, err := attest.Seal(key.Key, kid, attest.PayloadType, payload)
		if err != nil {
			return nil, err
		}
		out = append(out, line...)
	}
	return out, nil
}
