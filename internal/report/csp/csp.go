// Package csp computes Content Security Policy source hashes (CSP Level 3, "hash-source"): the base64 of the
// SHA-256 of an inline <style> or <script> element's exact text, so a page can allow its own inline code and
// nothing else.
package csp

import (
	"crypto/sha256"
	"encoding/base64"
)

// Hash returns 'sha256-…' for text, quoted as it appears in a policy.
func Hash(text string) string {
	sum := sha256.Sum256([]byte(text))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}
