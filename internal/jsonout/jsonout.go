// Package jsonout is the one way git-bernstein writes JSON for people and scripts to read: indented by two
// spaces, no HTML escaping (readers are programs and terminals, not browsers; "<" stays "<"), a final newline.
// manifest.json, git/commits.json, agent cards, --json output and the verifier's report all use it, so they are
// spelled alike.
package jsonout

import (
	"bytes"
	"encoding/json"
	"io"
)

// Write writes v to w.
func Write(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// Bytes returns what Write writes.
func Bytes(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := Write(&b, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
