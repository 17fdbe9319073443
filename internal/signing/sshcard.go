package signing

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/git-bernstein/git-bernstein/internal/atomicfile"
	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/sshsig"
)

// SSHCard is git bernstein keygen --ssh-key: no new key, the flat agent card (agent_id AgentID) of an SSH
// Ed25519 key one already has, so that verifiers that take cards trust what it signs. Key is the key as
// sshsig.LoadPublicKey reads it (a file, already found from the working folder, or key::ssh-ed25519 …). Kid ""
// is the key's SHA256: fingerprint, the kid its bundles carry by default. Card "" is <Key's file name without
// .pub>.card.json; a relative Card is in Dir (the working folder).
type SSHCard struct {
	Key, Kid, AgentID, Card, Dir string
}

// MadeCard is what WriteSSHCard wrote: Card as named (the default, or as given), under Kid, and the key's
// allowed signers line (AllowedSignersErr says why there is none).
type MadeCard struct {
	Card, Kid         string
	AllowedSigners    string
	AllowedSignersErr error
}

// WriteSSHCard reads the key, picks the kid and card path, and writes the card; an existing file is never
// overwritten. Errors in what the user asked for (a bad kid, no agent id, no card path for a literal key) wrap
// ErrUsage, and come after the key's own, as the flags are read.
func WriteSSHCard(k SSHCard) (*MadeCard, error) {
	pub, err := sshsig.LoadPublicKey(k.Key)
	if err != nil {
		return nil, err
	}
	kid := k.Kid
	if kid == "" {
		if kid, err = sshsig.Fingerprint(pub); err != nil {
			return nil, err
		}
	}
	if err := sign.CheckKid(kid); err != nil {
		return nil, fmt.Errorf("--kid: %v: %w", err, ErrUsage)
	}
	if k.AgentID == "" {
		return nil, fmt.Errorf("--agent-id is empty: %w", ErrUsage)
	}
	card := k.Card
	if card == "" {
		if strings.HasPrefix(k.Key, sshsig.LiteralPrefix) {
			return nil, fmt.Errorf("--ssh-key key::… needs --card PATH: %w", ErrUsage)
		}
		card = strings.TrimSuffix(filepath.Base(k.Key), ".pub") + ".card.json"
	}
	data, err := sign.MarshalCard(k.AgentID, kid, pub)
	if err != nil {
		return nil, err
	}
	path := card
	if !filepath.IsAbs(path) {
		path = filepath.Join(k.Dir, path)
	}
	if err := atomicfile.WriteNew(path, data, 0o644); err != nil {
		return nil, err
	}
	m := &MadeCard{Card: card, Kid: kid}
	m.AllowedSigners, m.AllowedSignersErr = sshsig.AllowedSignersLine(kid, pub)
	return m, nil
}
