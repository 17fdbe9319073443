package release

import (
	"time"

	"github.com/git-bernstein/git-bernstein/internal/sshsig"
	"github.com/git-bernstein/git-bernstein/internal/unusable"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// Request is git bernstein verify-release: the release folder Dir checked trusting only the keys of Cards and
// of the AllowedSigners files (times without a zone in Local; nil is time.Local), held against Now.
type Request struct {
	Dir            string
	Cards          []verify.Card
	AllowedSigners []sshsig.AllowedSignersFile
	Local          *time.Location
	Now            time.Time
}

// Unusable is a card or allowed signers file that cannot be trusted as given (exit 2 in the CLI); the
// message says which and what to check.
type Unusable = unusable.Error

// VerifyDir reads the trusted keys and verifies the folder (Verify).
func VerifyDir(req Request) (*Report, error) {
	keys, err := verify.TrustCards(req.Cards)
	if err != nil {
		return nil, unusable.Wrap(err)
	}
	loc := req.Local
	if loc == nil {
		loc = time.Local
	}
	allowed, err := sshsig.ReadAllowedSigners(req.AllowedSigners, loc, "check --allowed-signers")
	if err != nil {
		return nil, unusable.Wrap(err)
	}
	return Verify(req.Dir, Trust{Keys: keys, Allowed: allowed, Now: req.Now}), nil
}
