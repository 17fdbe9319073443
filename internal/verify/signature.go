package verify

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/git-bernstein/git-bernstein/internal/sign"
)

// checkSignature checks the detached JWS over the manifest (doc.go, "Signature") and then whether its key is one the user
// gave. It returns the signature check, the trust check (nil when there is nothing to judge) and the JWS's kid.
//
// The payload is the manifest's JCS form. When that fails but the upstream Python tool's form (json.dumps,
// sort_keys, compact) verifies, the signature passes with a warning: the key holder signed this very manifest,
// only spelled the other way.
func checkSignature(manifestJSON, sig []byte, keys []sign.TrustedKey) (Check, *Check, string) {
	if sig == nil {
		return Check{Check: CheckSignature, Status: Warn,
				Detail: "no signature given (no SIGNATURE argument and no <ARCHIVE>.jws): nothing says who made this bundle"},
			&Check{Check: CheckTrust, Status: Warn, Detail: "nothing to trust without a signature"}, ""
	}
	canon, err := sign.Canonicalize(manifestJSON)
	if err != nil {
		return Check{Check: CheckSignature, Status: Fail, Detail: fmt.Sprintf("the manifest has no canonical form to check: %v", err)}, nil, ""
	}
	kid, err := sign.VerifyDetached(string(sig), canon, keys)
	legacy := false
	if errors.Is(err, sign.ErrBadSignature) {
		if old, lerr := sign.LegacyCanonical(manifestJSON); lerr == nil && !bytes.Equal(old, canon) {
			if _, lerr := sign.VerifyDetached(string(sig), old, keys); lerr == nil {
				err, legacy = nil, true
			}
		}
	}
	switch {
	case err == nil && legacy:
		return Check{Check: CheckSignature, Status: Warn,
			Detail: fmt.Sprintf("EdDSA, kid %q, verifies over the legacy Python json.dumps form of the manifest, not its JCS form (RFC 8785): "+
				"made by the upstream Python tool; re-sign with git bernstein to drop this warning", kid)}, trusted(kid, keys), kid
	case err == nil:
		return Check{Check: CheckSignature, Status: Pass,
			Detail: fmt.Sprintf("EdDSA, kid %q, over the manifest's JCS form (RFC 8785), exact protected header", kid)}, trusted(kid, keys), kid
	case errors.Is(err, sign.ErrNoKeys):
		return Check{Check: CheckSignature, Status: Warn,
				Detail: fmt.Sprintf("well formed, kid %q, but not checked: no --card given", kid)},
			&Check{Check: CheckTrust, Status: Warn,
				Detail: "no --card given: no key you trust checked the signature, and the bundle brings no trust of its own"}, kid
	case errors.Is(err, sign.ErrUnknownKid):
		return Check{Check: CheckSignature, Status: Warn, Detail: fmt.Sprintf("not checked: no card you gave has kid %q", kid)},
			&Check{Check: CheckTrust, Status: Fail, Detail: fmt.Sprintf("signed with kid %q, which none of your --card files holds", kid),
				Problems: []string{err.Error()}}, kid
	case errors.Is(err, sign.ErrBadSignature):
		return Check{Check: CheckSignature, Status: Fail,
			Detail:   fmt.Sprintf("the key you trust as kid %q rejects it: the manifest was changed after signing, or another key signed it", kid),
			Problems: []string{err.Error()}}, nil, kid
	case errors.Is(err, sign.ErrHeader):
		return Check{Check: CheckSignature, Status: Fail,
			Detail:   "forged or foreign protected header: only {\"alg\":\"EdDSA\",\"b64\":false,\"crit\":[\"b64\"],\"kid\":…} is accepted",
			Problems: []string{err.Error()}}, nil, kid
	}
	if h, ok := foreignHeader(sig); ok {
		return Check{Check: CheckSignature, Status: Fail,
			Detail:   fmt.Sprintf("forged or foreign token: protected header %.200q is not ours, and the token is not a detached Ed25519 JWS", h),
			Problems: []string{err.Error()}}, nil, kid
	}
	return Check{Check: CheckSignature, Status: Fail, unusable: true,
		Detail:   "the signature file is not a detached JWS (damaged, cut short, or not a signature)",
		Problems: []string{err.Error()}}, nil, kid
}

// trusted is the trust check after a good signature: the key is one the user gave, named by where it came from.
func trusted(kid string, keys []sign.TrustedKey) *Check {
	var from []string
	for _, k := range keys {
		if k.Kid == kid {
			from = append(from, k.Source)
		}
	}
	return &Check{Check: CheckTrust, Status: Pass,
		Detail: fmt.Sprintf("kid %q is a key you gave: %s", kid, strings.Join(from, "; "))}
}

// foreignHeader returns the protected header of a token that sign calls malformed when that header is readable
// JSON and not ours. sign checks a token's shape (three parts, empty payload, 64-byte signature) before its
// header, so `alg: none` with no signature, an HMAC tag or an attached payload come back malformed; they are
// forgeries (exit 1), not damage (exit 2).
func foreignHeader(jws []byte) (string, bool) {
	first, _, ok := strings.Cut(strings.TrimSpace(string(jws)), ".")
	if !ok {
		return "", false
	}
	raw, err := base64.RawURLEncoding.DecodeString(first)
	if err != nil {
		return "", false
	}
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return "", false
	}
	kid, _ := m["kid"].(string)
	if want, err := sign.ExpectedHeader(kid); err == nil && bytes.Equal(raw, want) {
		return "", false
	}
	return string(raw), true
}
