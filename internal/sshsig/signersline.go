package sshsig

import (
	"crypto/ed25519"
	"fmt"
	"strings"

	"golang.org/x/crypto/ssh"

	"github.com/git-bernstein/git-bernstein/internal/sign"
)

// AllowedSignersLine is the allowed signers line (ssh-keygen(1), "ALLOWED SIGNERS") that trusts pub for
// git-bernstein's signatures under kid: `<kid> namespaces="git-bernstein" ssh-ed25519 AAAA…`. The kid is the
// principal, so `ssh-keygen -Y verify -I <kid>` and our verify (which picks a line by the JWS's kid) both find
// it. A kid that cannot be a principal (white space, or the , * ? ! " that patterns give a meaning) is an error
// saying so.
func AllowedSignersLine(kid string, pub ed25519.PublicKey) (string, error) {
	if kid == "" || strings.ContainsAny(kid, " \t,*?!\"#") {
		return "", fmt.Errorf("kid %q cannot be an allowed signers principal (no spaces or , * ? ! \" #): "+
			"write the line with a principal of your own before %q", kid, "namespaces=")
	}
	key, err := AuthorizedKey(pub)
	if err != nil {
		return "", err
	}
	return kid + ` namespaces="` + Namespace + `" ` + key, nil
}

// AuthorizedKey is pub as OpenSSH writes a public key: `ssh-ed25519 AAAA…`.
func AuthorizedKey(pub ed25519.PublicKey) (string, error) {
	k, err := ssh.NewPublicKey(pub)
	if err != nil {
		return "", fmt.Errorf("not an Ed25519 public key: %w", err)
	}
	return strings.TrimSuffix(string(ssh.MarshalAuthorizedKey(k)), "\n"), nil
}

// CardLines are the OpenSSH lines of each key of the agent card at path (given: the path as the user wrote
// it, for messages), in the card's order: allowed signers lines, or with keyOnly authorized_keys lines with the
// kid as their comment. On an error, the lines made before it come back with it.
func CardLines(path, given string, keyOnly bool) ([]string, error) {
	keys, err := sign.LoadCardAs(path, given)
	if err != nil {
		return nil, err
	}
	var lines []string
	for _, k := range keys {
		var line string
		if keyOnly {
			if line, err = AuthorizedKey(k.Public); err == nil {
				line += " " + k.Kid
			}
		} else {
			line, err = AllowedSignersLine(k.Kid, k.Public)
		}
		if err != nil {
			return lines, fmt.Errorf("card %s: %v", given, err)
		}
		lines = append(lines, line)
	}
	return lines, nil
}
