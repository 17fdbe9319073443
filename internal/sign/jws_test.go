package sign

import (
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strings"
	"testing"

	jose "github.com/go-jose/go-jose/v4"
	"pgregory.net/rapid"
)

func mustKey(t testing.TB, seedByte byte) (ed25519.PublicKey, ed25519.PrivateKey) {
	t.Helper()
	seed := make([]byte, ed25519.SeedSize)
	for i := range seed {
		seed[i] = seedByte + byte(i)
	}
	priv := ed25519.NewKeyFromSeed(seed)
	return priv.Public().(ed25519.PublicKey), priv
}

func b64d(t testing.TB, s string) []byte {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		t.Fatalf("decode %q: %v", s, err)
	}
	return b
}

// RFC 7797 section 4.2: HS256 over "$.02" with b64=false, detached. Our go-jose recipe and our signing-input
// construction must both give the RFC's bytes.
func TestRFC7797Section4_2(t *testing.T) {
	const (
		k    = "AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"
		want = "eyJhbGciOiJIUzI1NiIsImI2NCI6ZmFsc2UsImNyaXQiOlsiYjY0Il19..A5dxf2s96_n5FLueVuW1Z_vh161FwXZC4YLPff6dmDY"
	)
	key, payload := b64d(t, k), []byte("$.02")
	got, err := signUnencoded(jose.SigningKey{Algorithm: jose.HS256, Key: key}, payload)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("go-jose recipe:\n got %s\nwant %s", got, want)
	}
	protected, sig, _ := strings.Cut(want, "..")
	mac := hmac.New(sha256.New, key)
	mac.Write(signingInput(protected, payload))
	if !hmac.Equal(mac.Sum(nil), b64d(t, sig)) {
		t.Errorf("signingInput(%q, %q) does not give the RFC's HMAC", protected, payload)
	}
}

// rfc8037Key is RFC 8037 appendix A.1's Ed25519 key.
func rfc8037Key(t testing.TB) ed25519.PrivateKey {
	priv := ed25519.NewKeyFromSeed(b64d(t, "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"))
	if got := base64.RawURLEncoding.EncodeToString(priv.Public().(ed25519.PublicKey)); got != "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo" {
		t.Fatalf("RFC 8037 A.1 public key: got %s", got)
	}
	return priv
}

// RFC 8037 A.4: Ed25519 is deterministic, so the same key and input must give the RFC's exact signature,
// through go-jose and through crypto/ed25519.
func TestRFC8037A4(t *testing.T) {
	const want = "eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc." +
		"hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg"
	priv := rfc8037Key(t)
	// The key goes through our PEM round trip first, so the vector also covers MarshalPrivateKeyPEM/Parse.
	p, err := MarshalPrivateKeyPEM(priv)
	if err != nil {
		t.Fatal(err)
	}
	priv, err = ParsePrivateKeyPEM(p)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.EdDSA, Key: priv}, nil)
	if err != nil {
		t.Fatal(err)
	}
	obj, err := signer.Sign([]byte("Example of Ed25519 signing"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := obj.CompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("go-jose:\n got %s\nwant %s", got, want)
	}
	parts := strings.Split(want, ".")
	sig := ed25519.Sign(priv, []byte(parts[0]+"."+parts[1]))
	if base64.RawURLEncoding.EncodeToString(sig) != parts[2] {
		t.Errorf("crypto/ed25519 signature differs from the RFC's")
	}
	fp, err := Fingerprint(priv.Public().(ed25519.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	if fp != "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k" { // RFC 8037 A.3
		t.Errorf("Fingerprint = %s, want RFC 8037 A.3's thumbprint", fp)
	}
}

func TestSignDetachedShape(t *testing.T) {
	priv := rfc8037Key(t)
	payload := []byte(`{"a":1,"b":"x.y"}`)
	jws, err := SignDetached(priv, "bernstein-2025", payload)
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(jws, ".")
	if len(parts) != 3 || parts[1] != "" {
		t.Fatalf("not detached compact: %s", jws)
	}
	if got := string(b64d(t, parts[0])); got != `{"alg":"EdDSA","b64":false,"crit":["b64"],"kid":"bernstein-2025"}` {
		t.Errorf("protected header = %s", got)
	}
	// Deterministic: a fixed key, kid and payload give a fixed token (pinned so a library change shows up).
	again, _ := SignDetached(priv, "bernstein-2025", payload)
	if again != jws {
		t.Errorf("signing twice gave two tokens")
	}
	if !ed25519.Verify(priv.Public().(ed25519.PublicKey), []byte(parts[0]+"."+string(payload)), b64d(t, parts[2])) {
		t.Errorf("crypto/ed25519 rejects the signature over <protected>.<payload>")
	}
}

func TestSignDetachedRefusesBadKids(t *testing.T) {
	_, priv := mustKey(t, 1)
	for _, kid := range []string{"", "a\"b", `a\b`, "a<b", "a&b", "tab\there", "nl\n", "\u2028", "\xff", strings.Repeat("k", 201)} {
		if _, err := SignDetached(priv, kid, []byte("{}")); err == nil {
			t.Errorf("SignDetached accepted kid %q", kid)
		}
	}
	for _, kid := range []string{"k", "agent:alice@example.com/2025-01", "ключ-1", strings.Repeat("k", 200)} {
		if _, err := SignDetached(priv, kid, []byte("{}")); err != nil {
			t.Errorf("SignDetached refused kid %q: %v", kid, err)
		}
	}
}

// Any kid CheckKid allows and any payload: our signature verifies under go-jose, under plain crypto/ed25519,
// and under VerifyDetached; a flipped payload byte fails all three.
func TestSignVerifyAgreeProperty(t *testing.T) {
	_, priv := mustKey(t, 7)
	pub := priv.Public().(ed25519.PublicKey)
	rapid.Check(t, func(rt *rapid.T) {
		kid := rapid.StringMatching(`[A-Za-z0-9._:@/ +=é-]{1,40}`).Draw(rt, "kid")
		payload := rapid.SliceOf(rapid.Byte()).Draw(rt, "payload")
		jws, err := SignDetached(priv, kid, payload)
		if err != nil {
			rt.Fatal(err)
		}
		check := func(p []byte) (joseOK, plainOK, oursOK bool) {
			obj, err := jose.ParseDetached(jws, p, []jose.SignatureAlgorithm{jose.EdDSA})
			joseOK = err == nil && obj.DetachedVerify(p, pub) == nil
			parts := strings.Split(jws, ".")
			sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
			plainOK = ed25519.Verify(pub, append([]byte(parts[0]+"."), p...), sig)
			_, err = VerifyDetached(jws, p, []TrustedKey{{Kid: kid, Public: pub}})
			oursOK = err == nil
			return
		}
		if a, b, c := check(payload); !a || !b || !c {
			rt.Fatalf("valid signature: go-jose %v, ed25519 %v, VerifyDetached %v", a, b, c)
		}
		if len(payload) > 0 {
			bad := append([]byte(nil), payload...)
			bad[rapid.IntRange(0, len(bad)-1).Draw(rt, "i")] ^= byte(rapid.IntRange(1, 255).Draw(rt, "x"))
			if a, b, c := check(bad); a || b || c {
				rt.Fatalf("changed payload: go-jose %v, ed25519 %v, VerifyDetached %v", a, b, c)
			}
		}
	})
}
