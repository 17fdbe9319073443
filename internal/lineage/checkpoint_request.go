package lineage

import (
	"time"

	"github.com/git-bernstein/git-bernstein/internal/atomicfile"
	"github.com/git-bernstein/git-bernstein/internal/lineage/checkpoint"
	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/unusable"
)

// CheckpointRequest is lineage v2 checkpoint: the checkpoint of the store at Root under Key, taken at
// CreatedAt, written atomically to Out ("": only returned, for standard output). Sign, when set, gives the key
// that signs it (nil: none); it is asked only once the store verifies, so that a store's failure comes before
// a key's.
type CheckpointRequest struct {
	Root      string
	Key       Key
	CreatedAt time.Time
	Out       string
	Sign      func() (*CheckpointKey, error)
}

// CheckpointKey signs a checkpoint: SignJWS makes the detached JWS bundles carry (package signing's Signer)
// over the checkpoint's JCS form, as Kid; Release (optional) lets go of the key (ssh-agent).
type CheckpointKey struct {
	SignJWS func(payload []byte) (string, error)
	Kid     string
	Release func()
}

// Checkpointed is the checkpoint taken: its file's bytes (Data), their digest (checkpoint.Digest, as notes
// name it), and the kid of its signature, written to Out+".jws" ("" unsigned). Verify is the store's
// verification, also when it failed (ErrStoreFails), so that the caller can show why.
type Checkpointed struct {
	Checkpoint *checkpoint.Checkpoint
	Data       []byte
	Digest     string
	Kid        string
	Verify     VerifyResult
}

// WriteCheckpoint takes the checkpoint (TakeCheckpoint) and writes it, and with a key its signature first, so
// that a checkpoint file is never left without the signature asked for.
func WriteCheckpoint(req CheckpointRequest) (*Checkpointed, error) {
	cp, res, err := Open(req.Root, req.Key).TakeCheckpoint(req.CreatedAt)
	out := &Checkpointed{Checkpoint: cp, Verify: res}
	if err != nil {
		return out, err
	}
	if out.Data, err = cp.Marshal(); err != nil {
		return out, err
	}
	out.Digest = checkpoint.Digest(out.Data)
	var key *CheckpointKey
	if req.Sign != nil {
		if key, err = req.Sign(); err != nil {
			return out, err
		}
	}
	if key != nil && key.Release != nil {
		defer key.Release()
	}
	if req.Out == "" {
		if key != nil {
			return out, unusable.New("signing a checkpoint needs --out FILE: the signature goes to FILE.jws")
		}
		return out, nil
	}
	if key != nil {
		payload, err := sign.Canonicalize(out.Data)
		if err != nil {
			return out, err
		}
		jws, err := key.SignJWS(payload)
		if err != nil {
			return out, err
		}
		if err := atomicfile.WriteFile(req.Out+".jws", []byte(jws), 0o644); err != nil {
			return out, err
		}
		out.Kid = key.Kid
	}
	return out, atomicfile.WriteFile(req.Out, out.Data, 0o644)
}
