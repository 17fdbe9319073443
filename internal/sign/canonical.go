package sign

import (
	"fmt"

	"github.com/gowebpki/jcs"

	"github.com/git-bernstein/git-bernstein/internal/pyjson"
)

// Canonicalize returns the RFC 8785 (JCS) form of a JSON document: the bytes a bundle signature covers
// (doc.go, "Signature"). Duplicate keys, invalid UTF-8 and lone surrogates are errors, so two different documents
// never share a canonical form by accident.
func Canonicalize(manifestJSON []byte) ([]byte, error) {
	out, err := jcs.Transform(manifestJSON)
	if err != nil {
		return nil, fmt.Errorf("canonicalize JSON (RFC 8785): %w", err)
	}
	return out, nil
}

// LegacyCanonical returns what the upstream Python tool signed (doc.go, "Legacy payload"): json.dumps(obj, sort_keys=True,
// separators=(",", ":")) with the default ensure_ascii=True. It exists only so the verifier can check old
// bundles; new signatures always cover Canonicalize's output. The input must be strict JSON (as for
// Canonicalize); integers are kept exact, other numbers follow Python's float repr. Numbers beyond the float
// range (integers over 308 digits) are refused by that strict parser where Python would keep them; no
// manifest holds one.
func LegacyCanonical(manifestJSON []byte) ([]byte, error) {
	// JCS's parser is the strict gate (duplicate keys, bad UTF-8, lone surrogates, trailing data); its output
	// is not used because it rewrites integers as IEEE doubles, and Python keeps them exact.
	if _, err := jcs.Transform(manifestJSON); err != nil {
		return nil, fmt.Errorf("legacy canonical form: invalid JSON: %w", err)
	}
	v, err := pyjson.Parse(manifestJSON)
	if err != nil {
		return nil, fmt.Errorf("legacy canonical form: %w", err)
	}
	// json.dumps(obj, sort_keys=True, separators=(",", ":")) with the default ensure_ascii=True.
	out, err := pyjson.Encoding{ASCII: true}.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("legacy canonical form: %w", err)
	}
	return out, nil
}
