package attest

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/strictjson"
)

// PayloadType is the DSSE payloadType of an in-toto Statement.
const PayloadType = "application/vnd.in-toto+json"

// MaxEnvelope bounds an envelope file: a bundle's is the manifest plus a few hundred bytes, and a manifest
// may be large (16 MiB, verify's default limit) when a bundle holds many files; the base64 adds a third.
const MaxEnvelope = 24 << 20

// Outcomes of Open, for errors.Is.
var (
	ErrMalformed    = errors.New("malformed DSSE envelope")
	ErrUnknownKeyID = errors.New("no trusted key has the envelope's keyid")
	ErrBadSignature = errors.New("DSSE signature does not verify")
	ErrNoKeys       = errors.New("no trusted keys given")
)

// Envelope is a DSSE envelope (doc.go, "DSSE"), in the member order of the DSSE specification's JSON form.
type Envelope struct {
	Payload     string      `json:"payload"`
	PayloadType string      `json:"payloadType"`
	Signatures  []Signature `json:"signatures"`
}

// Signature is one signature of an envelope.
type Signature struct {
	KeyID string `json:"keyid"`
	Sig   string `json:"sig"`
}

// PAE is DSSE's pre-authentication encoding, what is signed:
// "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, where LEN is the byte length in ASCII decimal.
func PAE(payloadType string, payload []byte) []byte {
	var b bytes.Buffer
	b.WriteString("DSSEv1 ")
	b.WriteString(strconv.Itoa(len(payloadType)))
	b.WriteByte(' ')
	b.WriteString(payloadType)
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(len(payload)))
	b.WriteByte(' ')
	b.Write(payload)
	return b.Bytes()
}

// Seal signs payload with key (Ed25519, Sign returning the raw signature) under kid and returns the envelope
// as one line of JSON with a final newline: a line of an .intoto.jsonl file.
func Seal(key crypto.Signer, kid, payloadType string, payload []byte) ([]byte, error) {
	if err := sign.CheckKid(kid); err != nil {
		return nil, fmt.Errorf("attestation: %w", err)
	}
	pub, ok := key.Public().(ed25519.PublicKey)
	if !ok {
		return nil, fmt.Errorf("attestation: key is %T, not Ed25519", key.Public())
	}
	pae := PAE(payloadType, payload)
	sig, err := key.Sign(nil, pae, crypto.Hash(0))
	if err != nil {
		return nil, fmt.Errorf("attestation: %w", err)
	}
	if !ed25519.Verify(pub, pae, sig) {
		return nil, errors.New("attestation: self-check of the new signature failed")
	}
	line, err := marshal(Envelope{
		Payload:     base64.StdEncoding.EncodeToString(payload),
		PayloadType: payloadType,
		Signatures:  []Signature{{KeyID: kid, Sig: base64.StdEncoding.EncodeToString(sig)}},
	})
	if err != nil {
		return nil, err
	}
	return append(line, '\n'), nil
}

// Opened is an envelope whose signature a trusted key accepted (or, with no keys, only read).
type Opened struct {
	PayloadType string
	Payload     []byte
	KeyID       string
	Source      string // where the trusted key came from; "" when not checked
}

// Open reads one envelope and checks its signatures against the trusted keys: a signature whose keyid picks
// a trusted key that accepts PAE(payloadType, payload) opens it. With no keys it returns the payload unchecked
// together with ErrNoKeys; otherwise the payload is returned only when verified (and, for the caller's report,
// with ErrUnknownKeyID or ErrBadSignature).
func Open(data []byte, keys []sign.TrustedKey) (*Opened, error) {
	if len(data) > MaxEnvelope {
		return nil, fmt.Errorf("%w: %d bytes, more than %d MiB", ErrMalformed, len(data), MaxEnvelope>>20)
	}
	var env Envelope
	if err := strictjson.UnmarshalKnown(bytes.TrimSpace(data), &env); err != nil {
		if bytes.Count(bytes.TrimSpace(data), []byte("\n")) > 0 {
			return nil, fmt.Errorf("%w: %v (a bundle's .intoto.jsonl holds one envelope, on one line)", ErrMalformed, err)
		}
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if len(env.Signatures) == 0 {
		return nil, fmt.Errorf("%w: no signatures", ErrMalformed)
	}
	sigs := make([]signed, len(env.Signatures))
	for i, s := range env.Signatures {
		sigs[i] = signed{keyID: s.KeyID, sig: s.Sig, picks: func(k sign.TrustedKey) bool { return k.Kid == s.KeyID }}
	}
	return open(env.Payload, env.PayloadType, env.Signatures[0].KeyID, sigs, keys)
}

// signed is one signature of an envelope, with the rule that says which trusted keys may have made it: an
// .intoto.jsonl signature's keyid names the kid, a Sigstore bundle's publicKey.hint does (sigstore.go).
type signed struct {
	keyID, sig string
	picks      func(sign.TrustedKey) bool
}

// open checks the signatures over PAE(payloadType, payload) against the trusted keys each may use, the one
// verification of both files: the first trusted key that accepts a signature of 64 bytes opens the envelope.
// id is what the caller reports as the signer's name (the keyid, the hint).
func open(payloadB64, payloadType, id string, sigs []signed, keys []sign.TrustedKey) (*Opened, error) {
	payload, err := base64.StdEncoding.Strict().DecodeString(payloadB64)
	if err != nil {
		return nil, fmt.Errorf("%w: payload is not standard base64: %v", ErrMalformed, err)
	}
	o := &Opened{PayloadType: payloadType, Payload: payload, KeyID: id}
	if len(keys) == 0 {
		return o, ErrNoKeys
	}
	pae := PAE(payloadType, payload)
	var rejected []string
	for _, s := range sigs {
		sig, err := base64.StdEncoding.Strict().DecodeString(s.sig)
		if err != nil || len(sig) != ed25519.SignatureSize {
			continue
		}
		for _, k := range keys {
			if !s.picks(k) || len(k.Public) != ed25519.PublicKeySize {
				continue
			}
			if ed25519.Verify(k.Public, pae, sig) {
				o.KeyID, o.Source = k.Kid, k.Source
				return o, nil
			}
			rejected = append(rejected, fmt.Sprintf("keyid %q: %s", k.Kid, k.Source))
		}
	}
	if len(rejected) > 0 {
		return nil, fmt.Errorf("%w: checked against %v", ErrBadSignature, rejected)
	}
	var ids []string
	for _, s := range sigs {
		ids = append(ids, strconv.Quote(s.keyID))
	}
	return o, fmt.Errorf("%w: keyid %v", ErrUnknownKeyID, ids)
}

func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
