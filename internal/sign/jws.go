package sign

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	jose "github.com/go-jose/go-jose/v4"
)

// maxKidLen bounds a kid: it travels in every signature and in file names made from it.
const maxKidLen = 200

// header is the protected header (doc.go, "Signature"). Field order is the sorted order JCS gives.
type header struct {
	Alg  string   `json:"alg"`
	B64  bool     `json:"b64"`
	Crit []string `json:"crit"`
	Kid  string   `json:"kid"`
}

// ExpectedHeader returns the only protected header bytes a bundle signature by kid may carry:
// {"alg":"EdDSA","b64":false,"crit":["b64"],"kid":"<kid>"} in its RFC 8785 form, so the escaping of an
// unusual kid is fixed too.
func ExpectedHeader(kid string) ([]byte, error) {
	raw, err := json.Marshal(header{Alg: "EdDSA", B64: false, Crit: []string{"b64"}, Kid: kid})
	if err != nil {
		return nil, err
	}
	return Canonicalize(raw)
}

// CheckKid says whether kid can sign: non-empty, at most 200 bytes of UTF-8, and none of the characters
// that JSON encoders escape differently (control characters, `"`, `\`, and the `<`, `>`, `&`, U+2028,
// U+2029 that go-jose escapes but RFC 8785 does not), so that the header bytes are the same whoever
// writes them.
func CheckKid(kid string) error {
	switch {
	case kid == "":
		return errors.New("kid is empty")
	case len(kid) > maxKidLen:
		return fmt.Errorf("kid is %d bytes long; at most %d", len(kid), maxKidLen)
	case !utf8.ValidString(kid):
		return fmt.Errorf("kid %q is not valid UTF-8", kid)
	}
	for _, r := range kid {
		if unicode.IsControl(r) || strings.ContainsRune("\"\\<>&\u2028\u2029", r) {
			return fmt.Errorf("kid %q contains %q; use letters, digits and punctuation such as - _ . : @ /", kid, r)
		}
	}
	return nil
}

// SignDetached signs payload (the canonical manifest) with key and returns the compact detached JWS with
// unencoded payload, `<protected>..<signature>` (RFC 7515 appendix F, RFC 7797).
func SignDetached(key ed25519.PrivateKey, kid string, payload []byte) (string, error) {
	if err := CheckKid(kid); err != nil {
		return "", fmt.Errorf("sign: %w", err)
	}
	if len(key) != ed25519.PrivateKeySize {
		return "", fmt.Errorf("sign: Ed25519 private key has %d bytes, want %d", len(key), ed25519.PrivateKeySize)
	}
	want, err := ExpectedHeader(kid)
	if err != nil {
		return "", fmt.Errorf("sign: %w", err)
	}
	jws, err := signUnencoded(jose.SigningKey{Algorithm: jose.EdDSA, Key: jose.JSONWebKey{Key: key, KeyID: kid}}, payload)
	if err != nil {
		return "", fmt.Errorf("sign: %w", err)
	}
	// go-jose builds the header from a map; make sure it is byte for byte the header the verifier demands and
	// that the signature checks, so we never write a signature our own verifier would refuse.
	protected, _, _ := strings.Cut(jws, ".")
	got, err := base64.RawURLEncoding.DecodeString(protected)
	if err != nil || string(got) != string(want) {
		return "", fmt.Errorf("sign: go-jose wrote protected header %q, want %q", got, want)
	}
	_, sigB64, _ := strings.Cut(jws, "..")
	sig, err := base64.RawURLEncoding.DecodeString(sigB64)
	if err != nil || !ed25519.Verify(key.Public().(ed25519.PublicKey), signingInput(protected, payload), sig) {
		return "", fmt.Errorf("sign: self-check of the new signature failed (token %q)", jws)
	}
	return jws, nil
}

// signUnencoded is the go-jose recipe for RFC 7797: b64=false, crit ["b64"], detached compact form. go-jose's
// attached compact output with b64=false still base64-encodes the payload, so only the detached form is used.
func signUnencoded(sk jose.SigningKey, payload []byte) (string, error) {
	signer, err := jose.NewSigner(sk, (&jose.SignerOptions{}).WithBase64(false))
	if err != nil {
		return "", err
	}
	obj, err := signer.Sign(payload)
	if err != nil {
		return "", err
	}
	return obj.DetachedCompactSerialize()
}

// signingInput is RFC 7797 section 3's JWS Signing Input for b64=false: the encoded header, a dot, and the
// payload bytes as they are.
func signingInput(protectedB64 string, payload []byte) []byte {
	in := make([]byte, 0, len(protectedB64)+1+len(payload))
	in = append(in, protectedB64...)
	in = append(in, '.')
	return append(in, payload...)
}
