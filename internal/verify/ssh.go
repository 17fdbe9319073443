package verify

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/attest"
	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/sshsig"
)

// Check names of the optional checks on the files beside the archive (doc.go, "SSH signature",
// "Attestation" and "Sigstore bundle"), printed after trust when the file is there.
const (
	CheckSSHSig         = "sshsig"
	CheckAttestation    = "attestation"
	CheckSigstoreBundle = "sigstore-bundle"
)

// archiveHashes hashes every byte of the archive file as the one read of it passes, for the checks that are
// about the file's bytes rather than its members: the SSHSIG (sha512) and the attestation's subject (sha256).
type archiveHashes struct {
	h256, h512 hash.Hash
	r          io.Reader
}

func hashArchive(r io.Reader) *archiveHashes {
	a := &archiveHashes{h256: sha256.New(), h512: sha512.New()}
	a.r = io.TeeReader(r, io.MultiWriter(a.h256, a.h512))
	return a
}

// digests reads what is left (nothing, once the archive check passed: it reads to the end) and returns the
// file's digests.
func (a *archiveHashes) digests() (sshsig.Digests, error) {
	if _, err := io.Copy(io.Discard, a.r); err != nil {
		return sshsig.Digests{}, err
	}
	return sshsig.Digests{SHA256: a.h256.Sum(nil), SHA512: a.h512.Sum(nil)}, nil
}

// signedAt is the time an allowed signers line's valid-after and valid-before are held against: the
// manifest's created_at, which the signature covers, as git holds them against a commit's own date.
func signedAt(createdAt string) time.Time {
	t, _ := time.Parse(time.RFC3339, createdAt)
	return t
}

// allowedKeys are the allowed signers lines that may vouch for kid: an Ed25519 key whose principals match kid
// or whose SHA256 fingerprint is kid, allowed for namespace git-bernstein at time at. Lines that would match
// but may not sign then come back as reasons, for the report.
func allowedKeys(allowed []sshsig.AllowedSigner, kid string, at time.Time) (keys []sign.TrustedKey, excluded []string) {
	if kid == "" {
		return nil, nil
	}
	for _, a := range allowed {
		pub := a.Ed25519()
		if pub == nil && !a.CertAuthority {
			continue
		}
		fp := sshsig.FingerprintOf(a.Key)
		var how string
		switch {
		case fp == kid:
			how = "fingerprint"
		case a.MatchesPrincipal(kid):
			how = "principal " + a.Principals
		default:
			continue
		}
		if err := a.Usable(sshsig.Namespace, at); err != nil {
			excluded = append(excluded, err.Error())
			continue
		}
		keys = append(keys, sign.TrustedKey{Kid: kid, Public: pub, Source: fmt.Sprintf("%s (allowed signers, %s, %s)", a.Source, how, fp)})
	}
	return keys, excluded
}

// checkSignatureAllowing is checkSignature with the user's allowed signers as trusted keys too, picked by the
// JWS's kid (a principal or a key fingerprint). One kid must still pick one key: a card and an allowed
// signers line that give the kid two different keys are refused, as two cards are (package sign, TrustSet).
func checkSignatureAllowing(manifestJSON, sig []byte, keys []sign.TrustedKey, createdAt string, allowed []sshsig.AllowedSigner) (Check, *Check, string) {
	if allowed == nil || sig == nil {
		return checkSignature(manifestJSON, sig, keys)
	}
	kid := sign.HeaderKid(string(sig))
	extra, excluded := allowedKeys(allowed, kid, signedAt(createdAt))
	for _, e := range extra {
		for _, k := range keys {
			if k.Kid == e.Kid && !k.Public.Equal(e.Public) {
				return Check{Check: CheckSignature, Status: Warn, Detail: fmt.Sprintf("not checked: kid %q names two different keys", kid)},
					&Check{Check: CheckTrust, Status: Fail, unusable: true, Detail: fmt.Sprintf(
						"kid %q names two different keys: one in %s, another in %s; a kid must pick one key", kid, k.Source, e.Source)}, kid
			}
		}
	}
	all := append(append([]sign.TrustedKey{}, keys...), extra...)
	if len(all) == 0 && kid != "" {
		// Keys were given (an allowed signers file), just none for this kid: that is an unknown signer, not a
		// missing --card.
		all = []sign.TrustedKey{{Kid: "\x00no key", Source: "none"}}
	}
	s, t, kid := checkSignature(manifestJSON, sig, all)
	if t != nil && t.Status == Fail && !t.unusable {
		s.Detail = fmt.Sprintf("not checked: no --card or allowed signers line gives kid %q a key", kid)
		t.Detail = fmt.Sprintf("signed with kid %q, which no --card holds and no allowed signers line allows "+
			"(as a principal or a SHA256: fingerprint, Ed25519, for namespace %q at the manifest's created_at)", kid, sshsig.Namespace)
		t.Problems = excluded
	}
	return s, t, kid
}

// checkSSHSig checks <archive>.sig: an SSHSIG over the archive file's bytes in namespace git-bernstein (package
// sshsig), made by a key the user gave (a card's key, or an allowed signers line for the namespace at the
// manifest's created_at). A signature that does not verify is FAILED even with no key given, since the key
// travels in it: the archive is not the bytes that were signed. A good one by a key the user did not give is
// a warning.
func checkSSHSig(armored []byte, d sshsig.Digests, keys []sign.TrustedKey, allowed []sshsig.AllowedSigner, createdAt string) Check {
	v, err := sshsig.Verify(armored, sshsig.Namespace, d)
	switch {
	case errors.Is(err, sshsig.ErrMalformed):
		return Check{Check: CheckSSHSig, Status: Fail, unusable: true, Detail: "the .sig is not an SSH signature (damaged, cut short, or another file)", Problems: []string{err.Error()}}
	case errors.Is(err, sshsig.ErrNamespace):
		return Check{Check: CheckSSHSig, Status: Fail, Detail: "the .sig was made for another namespace: a signature made for another purpose is not one over this bundle", Problems: []string{err.Error()}}
	case err != nil:
		return Check{Check: CheckSSHSig, Status: Fail, Detail: "the SSH signature does not verify over the archive's bytes: the archive changed after it was signed, or the .sig belongs to another file", Problems: []string{err.Error()}}
	}
	what := fmt.Sprintf("SSHSIG over the archive file's bytes (%s), namespace %q, by %s", v.HashAlgorithm, sshsig.Namespace, v.Fingerprint)
	at := signedAt(createdAt)
	var excluded []string
	for _, a := range allowed {
		if !bytes.Equal(a.Key.Marshal(), v.Key.Marshal()) {
			continue
		}
		if err := a.Usable(sshsig.Namespace, at); err != nil {
			excluded = append(excluded, err.Error())
			continue
		}
		return Check{Check: CheckSSHSig, Status: Pass, Detail: fmt.Sprintf("%s, allowed for %s in %s", what, a.Principals, a.Source)}
	}
	if pub := sshsig.Ed25519(v.Key); pub != nil {
		for _, k := range keys {
			if k.Public.Equal(pub) {
				return Check{Check: CheckSSHSig, Status: Pass, Detail: fmt.Sprintf("%s, the key of kid %q in %s", what, k.Kid, k.Source)}
			}
		}
	}
	if len(excluded) > 0 {
		return Check{Check: CheckSSHSig, Status: Fail, Detail: what + ", a key your allowed signers do not allow for this bundle", Problems: excluded}
	}
	return Check{Check: CheckSSHSig, Status: Warn, Detail: what + ", a key you did not give (no --card or --allowed-signers line holds it): the bytes are intact, the signer unknown"}
}

// attestationForm is one of the two files that carry the bundle's in-toto statement in a DSSE envelope: the
// bare envelope (.intoto.jsonl, signed under a keyid) and the Sigstore bundle around it (.sigstore.json, whose
// publicKey.hint names the key). Both are held to the archive by checkAttestation.
type attestationForm struct {
	check string // the report line
	notA  string // what the file is not when it cannot be read
	what  string // what it is, for the line's detail
	id    string // the member that names the signer's key
	open  func(data []byte, keys []sign.TrustedKey) (*attest.Opened, error)
}

var (
	envelopeForm = attestationForm{check: CheckAttestation, notA: "the .intoto.jsonl is not a DSSE envelope",
		what: "DSSE envelope", id: "keyid", open: attest.Open}
	sigstoreForm = attestationForm{check: CheckSigstoreBundle, notA: "the .sigstore.json is not a Sigstore bundle v0.3 of a DSSE envelope under a public key hint",
		what: "Sigstore bundle v0.3, DSSE envelope", id: "publicKey.hint", open: attest.OpenSigstore}
)

// checkAttestation checks <archive>.intoto.jsonl or <archive>.sigstore.json (package attest, by form): a DSSE
// envelope whose in-toto Statement has this archive's sha256 as its subject and its manifest as its predicate,
// signed under a keyid (or hint) that picks a key the user gave (cards, or allowed signers lines by principal
// or fingerprint). A statement about other bytes is FAILED whether or not a key checked it; a good one under a
// keyid the user gave no key for is a warning.
func checkAttestation(form attestationForm, env []byte, name string, d sshsig.Digests, manifestJSON []byte, keys []sign.TrustedKey, allowed []sshsig.AllowedSigner, createdAt string) Check {
	peek, err := form.open(env, nil)
	if errors.Is(err, attest.ErrMalformed) {
		return Check{Check: form.check, Status: Fail, unusable: true, Detail: form.notA, Problems: []string{err.Error()}}
	}
	extra, excluded := allowedKeys(allowed, peek.KeyID, signedAt(createdAt))
	all := append(append([]sign.TrustedKey{}, keys...), extra...)
	opened, err := form.open(env, all)
	if len(all) == 0 && allowed != nil {
		// Keys were given (an allowed signers file), none for this keyid: an unknown signer, not no keys.
		err = fmt.Errorf("%w: %s %q", attest.ErrUnknownKeyID, form.id, peek.KeyID)
	}
	sum := hex.EncodeToString(d.SHA256)
	body := peek
	if err == nil {
		body = opened
	}
	checked, merr := attest.CheckBundle(body, name, sum, manifestJSON)
	if merr != nil {
		return Check{Check: form.check, Status: Fail, Detail: "the in-toto statement does not describe this archive: it is about other bytes or another manifest", Problems: []string{merr.Error()}}
	}
	warnings := checked.Warnings
	what := fmt.Sprintf("%s, in-toto Statement v1 about this archive (sha256 %s), predicate its manifest", form.what, short(sum))
	if checked.OCIManifest != "" {
		// The one extra subject allowed (package attest, "OCI manifest subject"): said, not checked here.
		what += fmt.Sprintf("; it also names the OCI manifest %s (this archive as an OCI store's artifact: cosign verify-attestation checks that digest against the registry)", checked.OCIManifest)
	}
	switch {
	case err == nil:
		c := Check{Check: form.check, Status: Pass, Detail: fmt.Sprintf("%s, signed as %s %q: %s", what, form.id, opened.KeyID, opened.Source)}
		if len(warnings) > 0 {
			c.Status, c.Problems = Warn, warnings
		}
		return c
	case errors.Is(err, attest.ErrBadSignature):
		return Check{Check: form.check, Status: Fail, Detail: fmt.Sprintf("the key you trust for the %s's %s rejects its signature", form.what, form.id), Problems: []string{err.Error()}}
	case errors.Is(err, attest.ErrNoKeys):
		return Check{Check: form.check, Status: Warn, Detail: what + fmt.Sprintf(", %s %q; signature not checked: no key given", form.id, peek.KeyID)}
	}
	return Check{Check: form.check, Status: Warn, Detail: what + fmt.Sprintf(", but signed as %s %q, which no key you gave has", form.id, peek.KeyID),
		Problems: append(excluded, err.Error())}
}

// checkSidecars adds the sshsig, attestation and sigstore-bundle lines for the files beside the archive that
// were given.
func (r *Report) checkSidecars(h *archiveHashes, manifestJSON []byte, createdAt string, keys []sign.TrustedKey, opts Options) {
	d, err := h.digests()
	if err != nil {
		r.add(Check{Check: CheckArchive, Status: Fail, unusable: true, Detail: fmt.Sprintf("read the archive again to its end: %v", err)})
		return
	}
	if opts.SSHSig != nil {
		r.add(checkSSHSig(opts.SSHSig, d, keys, opts.AllowedSigners, createdAt))
	}
	if opts.Attestation != nil {
		r.add(checkAttestation(envelopeForm, opts.Attestation, opts.ArchiveName, d, manifestJSON, keys, opts.AllowedSigners, createdAt))
	}
	if opts.SigstoreBundle != nil {
		r.add(checkAttestation(sigstoreForm, opts.SigstoreBundle, opts.ArchiveName, d, manifestJSON, keys, opts.AllowedSigners, createdAt))
	}
}
