package cli

import (
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/git-bernstein/git-bernstein/internal/attest"
	"github.com/git-bernstein/git-bernstein/internal/lineage"
	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/sshsig"
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
func signedStatements(c *ucli.Context, timeline []lineage.Entry) ([]byte, error) {
	env := envOf(c)
	spec := c.String("sign-key")
	if !strings.HasPrefix(spec, sshsig.LiteralPrefix) {
		wd, err := env.getwd()
		if err != nil {
			return nil, err
		}
		spec = inDir(wd, expandHome(spec))
	}
	key, err := sshsig.LoadKey(spec, env.getenv)
	if err != nil {
		return nil, err
	}
	defer key.Close()
	kid := c.String("sign-kid")
	if kid == "" {
		if !key.SSH {
			return nil, usageError("--sign-key with a PKCS#8 key needs --sign-kid KID; SSH keys default to their SHA256: fingerprint")
		}
		kid = key.Fingerprint()
	}
	if err := sign.CheckKid(kid); err != nil {
		return nil, usageError("--sign-kid: %v", err)
	}
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
		line, err := attest.Seal(key, kid, attest.PayloadType, payload)
		if err != nil {
			return nil, err
		}
		out = append(out, line...)
	}
	return out, nil
}
