package sign

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	jose "github.com/go-jose/go-jose/v4"
)

// Outcomes of VerifyDetached, for errors.Is. The verifier maps them to its verdicts; the wrapped message says
// what exactly was wrong.
var (
	// ErrMalformed: not a compact detached JWS at all (part count, attached payload, base64, empty parts).
	ErrMalformed = errors.New("malformed detached JWS")
	// ErrHeader: the protected header is not exactly ExpectedHeader(kid) (forged alg, b64, crit, extra members…).
	ErrHeader = errors.New("protected header refused")
	// ErrNoKeys: nothing to verify against; the caller gave no trusted key.
	ErrNoKeys = errors.New("no trusted keys given")
	// ErrUnknownKid: no trusted key has the signature's kid.
	ErrUnknownKid = errors.New("no trusted key has this kid")
	// ErrBadSignature: a trusted key with the kid rejects the signature.
	ErrBadSignature = errors.New("signature does not verify")
)

// maxJWS bounds the token: a real one is under 400 bytes; a huge one is an attack on the decoder.
const maxJWS = 16 << 10

// VerifyDetached checks jws, a compact detached JWS with unencoded payload, over payload against the trusted
// keys. It returns the kid the header names, also with most errors once the header could be read. Only the
// exact header (doc.go, "Signature") is accepted; the key is picked by kid, and when several trusted keys share the
// kid any one of them may vouch. Surrounding whitespace (a file's final newline) is ignored.
func VerifyDetached(jws string, payload []byte, keys []TrustedKey) (string, error) {
	// A .jws file usually ends in a newline; whitespace anywhere else is malformed.
	jws = strings.TrimSpace(jws)
	// A readable header that is not ours is a forgery whatever the rest looks like (alg none with an empty
	// signature, an HS256 MAC, an attached payload): say so, rather than calling the token merely malformed.
	if first, _, ok := strings.Cut(jws, "."); ok && len(jws) <= maxJWS && first != "" && strings.IndexFunc(first, notBase64URL) < 0 {
		if _, err := b64.DecodeString(first); err == nil {
			if kid, err := checkHeader(first); err != nil {
				return kid, err
			}
		}
	}
	protectedB64, sig, err := splitDetached(jws)
	if err != nil {
		return "", err
	}
	kid, err := checkHeader(protectedB64)
	if err != nil {
		return kid, err
	}
	if len(keys) == 0 {
		return kid, ErrNoKeys
	}
	var candidates []TrustedKey
	for _, k := range keys {
		if k.Kid == kid {
			candidates = append(candidates, k)
		}
	}
	if len(candidates) == 0 {
		return kid, fmt.Errorf("%w: kid %q; trusted kids: %s", ErrUnknownKid, kid, kidList(keys))
	}
	obj, err := jose.ParseDetached(jws, payload, []jose.SignatureAlgorithm{jose.EdDSA})
	if err != nil {
		return kid, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	for _, k := range candidates {
		if len(k.Public) != ed25519.PublicKeySize {
			continue
		}
		// ed25519.Verify is the ground truth; go-jose must agree so that its header handling adds no surprise.
		if obj.DetachedVerify(payload, k.Public) == nil && ed25519.Verify(k.Public, signingInput(protectedB64, payload), sig) {
			return kid, nil
		}
	}
	return kid, fmt.Errorf("%w: kid %q, checked against %s", ErrBadSignature, kid, sourceList(candidates))
}

// splitDetached takes `<protected>..<signature>` apart, strictly: base64url without padding, canonical.
func splitDetached(jws string) (string, []byte, error) {
	if len(jws) > maxJWS {
		return "", nil, fmt.Errorf("%w: %d bytes, more than a signature can be (%d)", ErrMalformed, len(jws), maxJWS)
	}
	parts := strings.Split(jws, ".")
	if len(parts) != 3 {
		return "", nil, fmt.Errorf("%w: %d dot-separated parts, want 3 (<protected>..<signature>)", ErrMalformed, len(parts))
	}
	if parts[1] != "" {
		return "", nil, fmt.Errorf("%w: the payload part is not empty; a bundle signature is detached (RFC 7515 appendix F)", ErrMalformed)
	}
	if parts[0] == "" || parts[2] == "" {
		return "", nil, fmt.Errorf("%w: empty protected header or signature", ErrMalformed)
	}
	for i, name := range map[int]string{0: "protected header", 2: "signature"} {
		if j := strings.IndexFunc(parts[i], notBase64URL); j >= 0 {
			return "", nil, fmt.Errorf("%w: %s has %q at offset %d; want base64url without padding", ErrMalformed, name, parts[i][j], j)
		}
	}
	if _, err := b64.DecodeString(parts[0]); err != nil {
		return "", nil, fmt.Errorf("%w: protected header is not base64url: %v", ErrMalformed, err)
	}
	sig, err := b64.DecodeString(parts[2])
	if err != nil {
		return "", nil, fmt.Errorf("%w: signature is not base64url: %v", ErrMalformed, err)
	}
	if len(sig) != ed25519.SignatureSize {
		return "", nil, fmt.Errorf("%w: signature is %d bytes, an Ed25519 signature is %d", ErrMalformed, len(sig), ed25519.SignatureSize)
	}
	return parts[0], sig, nil
}

// notBase64URL is true outside RFC 4648 section 5's alphabet. encoding/base64 skips \r and \n silently,
// so they are refused here to keep one spelling per token.
func notBase64URL(r rune) bool {
	return !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_')
}

// b64 refuses padding, whitespace and non-zero trailing bits, so one token has one spelling.
var b64 = base64.RawURLEncoding.Strict()

// checkHeader returns the kid when the header is exactly ExpectedHeader(kid). The member checks come first
// only to say precisely what is wrong; the byte comparison at the end is what decides, and it also refuses
// duplicate members, whitespace and other spellings.
func checkHeader(protectedB64 string) (string, error) {
	raw, _ := b64.DecodeString(protectedB64)
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return "", fmt.Errorf("%w: not a JSON object: %.80q", ErrHeader, raw)
	}
	var kid string
	if k, ok := m["kid"]; ok && json.Unmarshal(k, &kid) == nil {
		kid = strings.ToValidUTF8(kid, "\uFFFD")
	}
	want := map[string]string{"alg": `"EdDSA"`, "b64": `false`, "crit": `["b64"]`}
	for _, name := range []string{"alg", "b64", "crit"} {
		v, ok := m[name]
		if !ok {
			return kid, fmt.Errorf("%w: %q is missing; want %s", ErrHeader, name, want[name])
		}
		if !jsonEqual(v, want[name]) {
			return kid, fmt.Errorf("%w: %q is %.40s; only %s is accepted", ErrHeader, name, v, want[name])
		}
	}
	if kid == "" {
		return kid, fmt.Errorf("%w: \"kid\" is missing, empty or not a string", ErrHeader)
	}
	for name := range m {
		if _, ok := want[name]; !ok && name != "kid" {
			return kid, fmt.Errorf("%w: unexpected member %.40q", ErrHeader, name)
		}
	}
	exp, err := ExpectedHeader(kid)
	if err != nil || !bytes.Equal(raw, exp) {
		return kid, fmt.Errorf("%w: header bytes %.200q are not exactly %q (duplicate members, spacing or escaping differ)", ErrHeader, raw, exp)
	}
	return kid, nil
}

// jsonEqual compares a JSON value with an expected compact spelling, ignoring only insignificant whitespace
// (the final byte comparison catches that).
func jsonEqual(v json.RawMessage, want string) bool {
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return false
	}
	return b.String() == want
}

func kidList(keys []TrustedKey) string {
	seen := map[string]bool{}
	var kids []string
	for _, k := range keys {
		if !seen[k.Kid] {
			seen[k.Kid] = true
			kids = append(kids, fmt.Sprintf("%q", k.Kid))
		}
	}
	sort.Strings(kids)
	return strings.Join(kids, ", ")
}

func sourceList(keys []TrustedKey) string {
	var s []string
	for _, k := range keys {
		s = append(s, k.Source)
	}
	return strings.Join(s, "; ")
}
