package attest

import (
	"bytes"
	"crypto/ed25519"
	"fmt"

	"golang.org/x/crypto/ssh"

	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/strictjson"
)

const (
	// SigstoreSuffix is what is appended to the archive's path to name its Sigstore bundle.
	SigstoreSuffix = ".sigstore.json"
	// SigstoreMediaType is the Sigstore bundle v0.3 media type (protobuf-specs, sigstore_bundle.proto), the
	// only one gh attestation, sigstore-go and sigstore-js read.
	SigstoreMediaType = "application/vnd.dev.sigstore.bundle.v0.3+json"
	// MaxSigstoreBundle bounds a .sigstore.json: the envelope plus the hint and a few member names.
	MaxSigstoreBundle = MaxEnvelope + 64<<10
)

// SigstoreBundle is a Sigstore bundle v0.3 in the protobuf JSON mapping of dev.sigstore.bundle.v1.Bundle
// (doc.go, "Sigstore bundle"): lowerCamelCase member names, bytes as standard base64, in field number order.
// Only the form we write is read: a public key identified by its hint, no transparency log entries, no
// timestamps, a DSSE envelope.
type SigstoreBundle struct {
	MediaType            string               `json:"mediaType"`
	VerificationMaterial VerificationMaterial `json:"verificationMaterial"`
	DSSEEnvelope         SigstoreEnvelope     `json:"dsseEnvelope"`
}

// VerificationMaterial is dev.sigstore.bundle.v1.VerificationMaterial with its public_key content. tlogEntries
// is written empty, not left out: sigstore-js refuses a bundle without the member, and protojson reads both.
type VerificationMaterial struct {
	PublicKey   PublicKeyIdentifier `json:"publicKey"`
	TlogEntries []any               `json:"tlogEntries"`
}

// PublicKeyIdentifier is dev.sigstore.common.v1.PublicKeyIdentifier: an unauthenticated hint, our kid.
type PublicKeyIdentifier struct {
	Hint string `json:"hint"`
}

// SigstoreEnvelope is io.intoto.Envelope as protojson writes it: the DSSE envelope, member for member.
type SigstoreEnvelope struct {
	Payload     string              `json:"payload"`
	PayloadType string              `json:"payloadType"`
	Signatures  []SigstoreSignature `json:"signatures"`
}

// SigstoreSignature is io.intoto.Signature (sig = 1, keyid = 2). We write no keyid (doc.go says why).
type SigstoreSignature struct {
	Sig   string `json:"sig"`
	KeyID string `json:"keyid,omitempty"`
}

// WrapSigstore turns one of our envelopes (an .intoto.jsonl line that Seal wrote) into the .sigstore.json
// for the same statement: the same payload and signature, its keyid moved to publicKey.hint and left out of
// the signature. One signature serves both files, so they cannot say different things.
func WrapSigstore(envelopeLine []byte) ([]byte, error) {
	var env Envelope
	if err := strictjson.UnmarshalKnown(bytes.TrimSpace(envelopeLine), &env); err != nil {
		return nil, fmt.Errorf("attestation: %w", err)
	}
	if len(env.Signatures) != 1 {
		return nil, fmt.Errorf("attestation: %d signatures, want the one Seal writes", len(env.Signatures))
	}
	b := SigstoreBundle{
		MediaType:            SigstoreMediaType,
		VerificationMaterial: VerificationMaterial{PublicKey: PublicKeyIdentifier{Hint: env.Signatures[0].KeyID}, TlogEntries: []any{}},
		DSSEEnvelope: SigstoreEnvelope{Payload: env.Payload, PayloadType: env.PayloadType,
			Signatures: []SigstoreSignature{{Sig: env.Signatures[0].Sig}}},
	}
	out, err := marshal(b)
	if err != nil {
		return nil, fmt.Errorf("attestation: %w", err)
	}
	return append(out, '\n'), nil
}

// OpenSigstore reads a .sigstore.json strictly (exact member names, none unknown; the media type v0.3; a
// publicKey hint; no transparency log entries; at least one signature) and checks its envelope as Open does,
// the hint picking the trusted keys as an envelope's keyid does. A signature may carry no keyid (ours), the
// hint, or the picked key's SHA256: fingerprint (what sigstore-go matches); another keyid is not tried.
func OpenSigstore(data []byte, keys []sign.TrustedKey) (*Opened, error) {
	if len(data) > MaxSigstoreBundle {
		return nil, fmt.Errorf("%w: %d bytes, more than %d MiB", ErrMalformed, len(data), MaxSigstoreBundle>>20)
	}
	var b SigstoreBundle
	if err := strictjson.UnmarshalKnown(bytes.TrimSpace(data), &b); err != nil {
		return nil, fmt.Errorf("%w: not a Sigstore bundle of the form git-bernstein writes (public key hint, DSSE envelope): %v", ErrMalformed, err)
	}
	env, hint := b.DSSEEnvelope, b.VerificationMaterial.PublicKey.Hint
	switch {
	case b.MediaType != SigstoreMediaType:
		return nil, fmt.Errorf("%w: mediaType %q, want %q", ErrMalformed, b.MediaType, SigstoreMediaType)
	case hint == "":
		return nil, fmt.Errorf("%w: no verificationMaterial.publicKey.hint to pick the key by", ErrMalformed)
	case len(b.VerificationMaterial.TlogEntries) > 0:
		return nil, fmt.Errorf("%w: %d transparency log entries, which this offline verifier does not check (use cosign)", ErrMalformed, len(b.VerificationMaterial.TlogEntries))
	case len(env.Signatures) == 0:
		return nil, fmt.Errorf("%w: no signatures", ErrMalformed)
	}
	sigs := make([]signed, len(env.Signatures))
	for i, s := range env.Signatures {
		id := s.KeyID
		if id == "" {
			id = hint
		}
		sigs[i] = signed{keyID: id, sig: s.Sig, picks: func(k sign.TrustedKey) bool {
			return k.Kid == hint && (s.KeyID == "" || s.KeyID == hint || s.KeyID == fingerprint(k.Public))
		}}
	}
	return open(env.Payload, env.PayloadType, hint, sigs, keys)
}

// fingerprint is the key's OpenSSH SHA256: fingerprint, the keyid go-securesystemslib's DSSE verifier (and so
// sigstore-go and cosign) computes for a key given without one.
func fingerprint(pub ed25519.PublicKey) string {
	k, err := ssh.NewPublicKey(pub)
	if err != nil {
		return ""
	}
	return ssh.FingerprintSHA256(k)
}
