package sign

import (
	"crypto"
	"crypto/ed25519"
	"encoding/base64"
	"fmt"
)

// SignDetachedWith is SignDetached for a key whose private half may live elsewhere (ssh-agent): any
// crypto.Signer with an Ed25519 public key whose Sign returns the raw 64-byte signature of the message. The
// token is the same as SignDetached's (doc.go, "Signature"), byte for byte, and is checked with
// VerifyDetached (go-jose and crypto/ed25519) before it is returned.
func SignDetachedWith(key crypto.Signer, kid string, payload []byte) (string, error) {
	if priv, ok := key.(ed25519.PrivateKey); ok {
		return SignDetached(priv, kid, payload)
	}
	if err := CheckKid(kid); err != nil {
		return "", fmt.Errorf("sign: %w", err)
	}
	pub, ok := key.Public().(ed25519.PublicKey)
	if !ok || len(pub) != ed25519.PublicKeySize {
		return "", fmt.Errorf("sign: the key is %T, not Ed25519", key.Public())
	}
	h, err := ExpectedHeader(kid)
	if err != nil {
		return "", fmt.Errorf("sign: %w", err)
	}
	protected := base64.RawURLEncoding.EncodeToString(h)
	sig, err := key.Sign(nil, signingInput(protected, payload), crypto.Hash(0))
	if err != nil {
		return "", fmt.Errorf("sign: %w", err)
	}
	jws := protected + ".." + base64.RawURLEncoding.EncodeToString(sig)
	if _, err := VerifyDetached(jws, payload, []TrustedKey{{Kid: kid, Public: pub, Source: "the signing key"}}); err != nil {
		return "", fmt.Errorf("sign: self-check of the new signature failed: %w", err)
	}
	return jws, nil
}

// HeaderKid returns the kid of a detached JWS whose protected header is exactly ours, without checking the
// signature: the verifier needs it to pick keys by principal from an allowed signers file. "" when the header
// is not ours (VerifyDetached then says why).
func HeaderKid(jws string) string {
	kid, err := VerifyDetached(jws, nil, nil)
	if err != ErrNoKeys {
		return ""
	}
	return kid
}
