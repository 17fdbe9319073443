package attest

import (
	"crypto/ed25519"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/sign"
)

// FuzzOpen: any bytes as an envelope are refused or opened, never a panic, and what opens under a key is
// what that key signed: CheckBundle then answers without a panic too.
func FuzzOpen(f *testing.F) {
	seed := ed25519.NewKeyFromSeed(make([]byte, 32))
	line, _ := SealBundle(seed, "k", "a.tar.gz", "00", []byte(`{"schema_version":1}`))
	f.Add(line)
	f.Add([]byte(`{"payload":"","payloadType":"","signatures":[{"keyid":"k","sig":""}]}`))
	keys := []sign.TrustedKey{{Kid: "k", Public: seed.Public().(ed25519.PublicKey), Source: "seed key"}}
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := Open(data, keys)
		if err != nil {
			return
		}
		if o.KeyID != "k" || o.Source != "seed key" {
			t.Fatalf("opened under keyid %q from %q", o.KeyID, o.Source)
		}
		CheckBundle(o, "a.tar.gz", "00", []byte(`{"schema_version":1}`))
	})
}

// FuzzOpenSigstore: any bytes as a .sigstore.json are refused or opened, never a panic, and what opens under a
// key is what that key signed.
func FuzzOpenSigstore(f *testing.F) {
	seed := ed25519.NewKeyFromSeed(make([]byte, 32))
	line, _ := SealBundle(seed, "k", "a.tar.gz", "00", []byte(`{"schema_version":1}`))
	b, _ := WrapSigstore(line)
	f.Add(b)
	f.Add([]byte(`{"mediaType":"application/vnd.dev.sigstore.bundle.v0.3+json","verificationMaterial":{"publicKey":{"hint":"k"}},"dsseEnvelope":{"payload":"","payloadType":"","signatures":[{"sig":""}]}}`))
	keys := []sign.TrustedKey{{Kid: "k", Public: seed.Public().(ed25519.PublicKey), Source: "seed key"}}
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := OpenSigstore(data, keys)
		if err != nil {
			return
		}
		if o.KeyID != "k" || o.Source != "seed key" {
			t.Fatalf("opened under hint %q from %q", o.KeyID, o.Source)
		}
		CheckBundle(o, "a.tar.gz", "00", []byte(`{"schema_version":1}`))
	})
}
