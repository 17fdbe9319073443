package bundle

import (
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"

	"github.com/git-bernstein/git-bernstein/internal/atomicfile"
	"github.com/git-bernstein/git-bernstein/internal/attest"
	"github.com/git-bernstein/git-bernstein/internal/ociartifact"
	"github.com/git-bernstein/git-bernstein/internal/sshsig"
)

// archiveDigests hashes the archive's bytes as they are written, for the signatures over the whole file: the
// SSHSIG (sha512) and the attestation's subject (sha256).
type archiveDigests struct {
	w          io.Writer
	h256, h512 hash.Hash
}

// newArchiveDigests hashes only when a sidecar needs it: a bundle can be gigabytes.
func newArchiveDigests(w io.Writer, needed bool) *archiveDigests {
	if !needed {
		return &archiveDigests{w: w}
	}
	d := &archiveDigests{h256: sha256.New(), h512: sha512.New()}
	d.w = io.MultiWriter(w, d.h256, d.h512)
	return d
}

func (d *archiveDigests) Write(p []byte) (int, error) { return d.w.Write(p) }

// sidecarFiles are the written but not yet published .sig, .intoto.jsonl and .sigstore.json.
type sidecarFiles struct {
	files map[string]*atomicfile.File // suffix -> file
}

// writeSidecars signs the finished archive's bytes as opts asks (package sshsig for .sig, package attest for
// .intoto.jsonl and the .sigstore.json that carries the same envelope) into temp files beside it, published by
// commit after the archive, like the .jws.
func writeSidecars(opts Options, res *Result, d *archiveDigests, manifestJSON []byte) (*sidecarFiles, error) {
	s := &sidecarFiles{files: map[string]*atomicfile.File{}}
	write := func(suffix string, data []byte) error {
		f, err := atomicfile.Create(opts.Out+suffix, 0o644)
		if err != nil {
			return err
		}
		s.files[suffix] = f
		_, err = f.Write(data)
		return err
	}
	if opts.SSHSig {
		sig, err := sshsig.Sign(opts.SignKey, sshsig.Namespace, d.h512.Sum(nil))
		if err == nil {
			err = write(".sig", sig)
		}
		if err != nil {
			s.abort()
			return nil, err
		}
		res.SSHSig = opts.Out + ".sig"
	}
	if opts.Attest {
		sum := hex.EncodeToString(d.h256.Sum(nil))
		var oci []attest.Subject
		if opts.OCIStore != "" {
			// The manifest the store will hold, made from what the note will say (record.EntryFor): its digest
			// is known before any upload, so the one signature happens here.
			sub, err := ociartifact.Subject(opts.OCIStore, ociartifact.Archive{Tracker: res.Manifest.Tracker,
				Ticket: res.Manifest.TicketID, Bundle: filepath.Base(opts.Out), SHA256: sum,
				CreatedAt: res.Manifest.CreatedAt, Size: res.Size})
			if err != nil {
				// A store URL push would refuse too: the bundle (and the hook's record) is still worth having.
				res.Warnings = append(res.Warnings, fmt.Sprintf("%v: the attestation names the archive alone, not its OCI manifest", err))
			} else {
				oci = append(oci, sub)
			}
		}
		env, err := attest.SealBundle(opts.SignKey, opts.SignKid, filepath.Base(opts.Out), sum, manifestJSON, oci...)
		if err == nil {
			err = write(attest.Suffix, env)
		}
		var sb []byte
		if err == nil {
			sb, err = attest.WrapSigstore(env)
		}
		if err == nil {
			err = write(attest.SigstoreSuffix, sb)
		}
		if err != nil {
			s.abort()
			return nil, err
		}
		res.Attestation = opts.Out + attest.Suffix
		res.SigstoreBundle = opts.Out + attest.SigstoreSuffix
	}
	return s, nil
}

// commit publishes the sidecars and removes stale ones of an earlier build that this one did not write: a
// .sig or attestation of other bytes beside the archive would fail verification confusingly.
func (s *sidecarFiles) commit(out string) error {
	for _, suffix := range []string{".sig", attest.Suffix, attest.SigstoreSuffix} {
		f, ok := s.files[suffix]
		if !ok {
			os.Remove(out + suffix)
			continue
		}
		if err := f.Commit(false); err != nil {
			return err
		}
		delete(s.files, suffix)
	}
	return nil
}

func (s *sidecarFiles) abort() {
	for _, f := range s.files {
		f.Abort()
	}
}
