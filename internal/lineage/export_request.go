package lineage

import (
	"crypto"
	"errors"
	"fmt"

	"github.com/git-bernstein/git-bernstein/internal/attest"
)

// ErrSealNeedsSigstore is Export's answer to a Signer with FormatJSONL: only in-toto statements are sealed.
var ErrSealNeedsSigstore = errors.New("only sigstore statements are sealed")

// ExportRequest is what lineage v2 export asks for: Task's timeline in the store at Root (read under the public
// key, as upstream's export reads it), as Format (FormatJSONL or FormatSigstore).
type ExportRequest struct {
	Root, Task, Format string
	// Signer, when set, gives the key that seals each sigstore statement in a DSSE envelope (nil: no output).
	// It is asked only once the timeline is read, so that a store's error comes before a key's.
	Signer func() (*SealKey, error)
}

// SealKey is the key export seals statements with: Key signs, Kid is the envelopes' keyid, Release (optional)
// lets go of it (ssh-agent).
type SealKey struct {
	Key     crypto.Signer
	Kid     string
	Release func()
}

// Export replays req.Task and formats it: ExportJSONL, ExportSigstore, or with a Signer each statement's JCS
// form in a DSSE envelope (payloadType application/vnd.in-toto+json, keyid the kid), one envelope a line
// (package attest, "Lineage").
func Export(req ExportRequest) ([]byte, error) {
	timeline, err := Show(req.Root, req.Task)
	if err != nil {
		return nil, err
	}
	if req.Format == FormatJSONL && req.Signer != nil {
		return nil, ErrSealNeedsSigstore
	}
	var out []byte
	switch {
	case req.Format == FormatJSONL:
		out, err = ExportJSONL(timeline)
	case req.Signer != nil:
		out, err = sealStatements(timeline, req.Signer)
	default:
		out, err = ExportSigstore(timeline)
	}
	if err != nil {
		return nil, fmt.Errorf("export %s: %w", req.Task, err)
	}
	return out, nil
}

// sealStatements is each of timeline's statements sealed with signer's key, one DSSE envelope a line.
func sealStatements(timeline []Entry, signer func() (*SealKey, error)) ([]byte, error) {
	key, err := signer()
	if err != nil || key == nil {
		return nil, err
	}
	if key.Release != nil {
		defer key.Release()
	}
	statements, err := Statements(timeline)
	if err != nil {
		return nil, err
	}
	var out []byte
	for _, st := range statements {
		payload, err := attest.Canonical(st)
		if err != nil {
			return nil, err
		}
		line, err := attest.Seal(key.Key, key.Kid, attest.PayloadType, payload)
		if err != nil {
			return nil, err
		}
		out = append(out, line...)
	}
	return out, nil
}
