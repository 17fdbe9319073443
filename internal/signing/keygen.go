package signing

import (
	"errors"
	"fmt"
	"os"

	"github.com/git-bernstein/git-bernstein/internal/atomicfile"
	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/sshsig"
)

// NewKey is what git bernstein keygen makes: an Ed25519 key at KeyFile (PKCS#8 PEM, mode 0600) and its agent
// card at CardFile (agent_id AgentID, kid Kid). Neither file may exist.
type NewKey struct {
	KeyFile, CardFile string
	AgentID, Kid      string
}

// Made is what Keygen made: the key's RFC 7638 thumbprint, and its allowed signers line for ssh-keygen -Y
// verify (AllowedSignersErr says why there is none, e.g. a kid that cannot be a principal).
type Made struct {
	Fingerprint       string
	AllowedSigners    string
	AllowedSignersErr error
}

// Keygen makes a key and its card. Nothing is overwritten, and a key whose card cannot be written is removed:
// a key without its card is a key nobody can verify.
func Keygen(k NewKey) (*Made, error) {
	// Checked up front so that a taken card path does not cost a key write and removal; the no-replace writes
	// below are what actually guarantee nothing is overwritten.
	for _, p := range []string{k.KeyFile, k.CardFile} {
		if _, err := os.Lstat(p); err == nil {
			return nil, fmt.Errorf("%s already exists: not overwriting it; choose another path or remove it", p)
		} else if !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("check %s: %w", p, err)
		}
	}
	pub, priv, err := sign.GenerateKey()
	if err != nil {
		return nil, err
	}
	keyPEM, err := sign.MarshalPrivateKeyPEM(priv)
	if err != nil {
		return nil, err
	}
	card, err := sign.MarshalCard(k.AgentID, k.Kid, pub)
	if err != nil {
		return nil, err
	}
	fp, err := sign.Fingerprint(pub)
	if err != nil {
		return nil, err
	}
	if err := atomicfile.WriteNew(k.KeyFile, keyPEM, 0o600); err != nil {
		return nil, err
	}
	if err := atomicfile.WriteNew(k.CardFile, card, 0o644); err != nil {
		if rmErr := os.Remove(k.KeyFile); rmErr != nil {
			return nil, fmt.Errorf("%w (and the new key %s could not be removed: %v)", err, k.KeyFile, rmErr)
		}
		return nil, fmt.Errorf("%w; removed the new key %s", err, k.KeyFile)
	}
	m := &Made{Fingerprint: fp}
	m.AllowedSigners, m.AllowedSignersErr = sshsig.AllowedSignersLine(k.Kid, pub)
	return m, nil
}
