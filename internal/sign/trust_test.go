package sign

import (
	"bytes"
	"crypto/ed25519"
	"strings"
	"testing"
)

func TestTrustSetRefusesOneKidForTwoKeys(t *testing.T) {
	t.Parallel()
	pubA, _, _ := ed25519.GenerateKey(bytes.NewReader(bytes.Repeat([]byte{1}, 64)))
	pubB, _, _ := ed25519.GenerateKey(bytes.NewReader(bytes.Repeat([]byte{2}, 64)))
	var s TrustSet
	if err := s.Add([]TrustedKey{{Kid: "ci", Public: pubA, Source: "a.card.json"}}); err != nil {
		t.Fatal(err)
	}
	// The same key again, from another card, is fine.
	if err := s.Add([]TrustedKey{{Kid: "ci", Public: pubA, Source: "copy.card.json"}, {Kid: "other", Public: pubB, Source: "copy.card.json"}}); err != nil {
		t.Fatal(err)
	}
	err := s.Add([]TrustedKey{{Kid: "ci", Public: pubB, Source: "b.card.json"}})
	if err == nil || !strings.Contains(err.Error(), "a.card.json") || !strings.Contains(err.Error(), "b.card.json") {
		t.Fatalf("Add(conflicting kid) = %v; want an error naming both cards", err)
	}
	if len(s.Keys()) != 3 {
		t.Errorf("keys = %d, want 3 (the refused card adds none)", len(s.Keys()))
	}
}
