package attest

import (
	"bytes"
	"crypto"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/strictjson"
)

const (
	// StatementType is the in-toto Statement v1 `_type`.
	StatementType = "https://in-toto.io/Statement/v1"
	// PredicateType names the predicate of a bundle's statement: manifest.json, schema_version 1.
	PredicateType = "https://github.com/git-bernstein/git-bernstein/bundle-manifest/v1"
	// Suffix is what is appended to the archive's path to name its attestation.
	Suffix = ".intoto.jsonl"
)

// ErrMismatch: the statement does not describe this archive (another digest, another manifest, another
// predicate type).
var ErrMismatch = errors.New("the attestation does not describe this archive")

// Statement is an in-toto Statement v1 (doc.go, "Statement").
type Statement struct {
	Type          string          `json:"_type"`
	Subject       []Subject       `json:"subject"`
	PredicateType string          `json:"predicateType"`
	Predicate     json.RawMessage `json:"predicate"`
}

// Subject is one artifact a statement is about.
type Subject struct {
	Name   string            `json:"name"`
	Digest map[string]string `json:"digest"`
}

// BundleStatement is the statement about a bundle archive, in its JCS form (RFC 8785): subject the archive's
// base name and sha256 (lower-case hex), then oci when given (the archive's manifest in an OCI store,
// OCIManifestSubject), predicate the manifest, in JCS form too.
func BundleStatement(name, sha256Hex string, manifestJSON []byte, oci ...Subject) ([]byte, error) {
	if len(oci) > 1 || len(oci) == 1 && !isOCIManifest(oci[0]) {
		return nil, fmt.Errorf("attestation: besides the archive, one OCI manifest subject at most (oci://HOST/REPOSITORY@sha256:<hex>)")
	}
	pred, err := sign.Canonicalize(manifestJSON)
	if err != nil {
		return nil, fmt.Errorf("attestation: manifest: %w", err)
	}
	return Canonical(Statement{
		Type:          StatementType,
		Subject:       append([]Subject{{Name: name, Digest: map[string]string{"sha256": sha256Hex}}}, oci...),
		PredicateType: PredicateType,
		Predicate:     pred,
	})
}

// Canonical is v (any statement) as JSON in its JCS form, the payload bytes an envelope carries.
func Canonical(v any) ([]byte, error) {
	raw, err := marshal(v)
	if err != nil {
		return nil, fmt.Errorf("attestation: %w", err)
	}
	c, err := sign.Canonicalize(raw)
	if err != nil {
		return nil, fmt.Errorf("attestation: %w", err)
	}
	return c, nil
}

// SealBundle is the whole .intoto.jsonl file for a bundle: its statement (with the OCI manifest subject oci, when
// given) in a DSSE envelope signed by key as kid.
func SealBundle(key crypto.Signer, kid, name, sha256Hex string, manifestJSON []byte, oci ...Subject) ([]byte, error) {
	st, err := BundleStatement(name, sha256Hex, manifestJSON, oci...)
	if err != nil {
		return nil, err
	}
	return Seal(key, kid, PayloadType, st)
}

// Checked is what CheckBundle found besides a match: warnings, and the name of the OCI manifest subject when the
// statement has one.
type Checked struct {
	Warnings    []string
	OCIManifest string
}

// CheckBundle holds an opened payload against the archive: payloadType, _type and predicateType exact, a first
// subject whose sha256 is the archive's, at most one more subject and that one an OCI manifest's
// (OCIManifestSubject: doc.go, "OCI manifest subject"), and a predicate that is the manifest (equal JCS forms). A
// subject name other than the archive's file name is only a warning: archives are renamed, and the digest is
// what binds.
func CheckBundle(o *Opened, name, sha256Hex string, manifestJSON []byte) (Checked, error) {
	var c Checked
	if o.PayloadType != PayloadType {
		return c, fmt.Errorf("%w: payloadType %q, want %q", ErrMismatch, o.PayloadType, PayloadType)
	}
	var st Statement
	if err := strictjson.UnmarshalKnown(o.Payload, &st); err != nil {
		return c, fmt.Errorf("%w: the payload is not a Statement: %v", ErrMismatch, err)
	}
	switch {
	case st.Type != StatementType:
		return c, fmt.Errorf("%w: _type %q, want %q", ErrMismatch, st.Type, StatementType)
	case st.PredicateType != PredicateType:
		return c, fmt.Errorf("%w: predicateType %q, want %q", ErrMismatch, st.PredicateType, PredicateType)
	case len(st.Subject) == 0 || len(st.Subject) > 2:
		return c, fmt.Errorf("%w: %d subjects, want the archive (and at most an OCI manifest after it)", ErrMismatch, len(st.Subject))
	}
	if got := st.Subject[0].Digest["sha256"]; got != sha256Hex {
		return c, fmt.Errorf("%w: subject sha256 %q, the archive's is %s", ErrMismatch, got, sha256Hex)
	}
	if len(st.Subject) == 2 {
		if !isOCIManifest(st.Subject[1]) {
			return c, fmt.Errorf("%w: a second subject %q that is not an OCI manifest (oci://HOST[:PORT]/REPOSITORY@sha256:<hex>, its one digest that sha256)",
				ErrMismatch, clip(st.Subject[1].Name))
		}
		c.OCIManifest = st.Subject[1].Name
	}
	want, err := sign.Canonicalize(manifestJSON)
	if err != nil {
		return c, fmt.Errorf("%w: manifest: %v", ErrMismatch, err)
	}
	got, err := sign.Canonicalize(st.Predicate)
	if err != nil || !bytes.Equal(got, want) {
		return c, fmt.Errorf("%w: the predicate is not this archive's manifest", ErrMismatch)
	}
	if st.Subject[0].Name != name {
		c.Warnings = append(c.Warnings, fmt.Sprintf("subject name %q is not the archive's file name %q (renamed?); the sha256 matches", st.Subject[0].Name, name))
	}
	return c, nil
}

// clip shortens a name from a statement for a message: a hostile one may be megabytes long.
func clip(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}
