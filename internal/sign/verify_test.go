package sign

import (
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

// forge signs arbitrary protected header bytes with a real key, so that only the header check stands between
// the token and acceptance.
func forge(priv ed25519.PrivateKey, header string, payload []byte) string {
	h := base64.RawURLEncoding.EncodeToString([]byte(header))
	sig := ed25519.Sign(priv, append([]byte(h+"."), payload...))
	return h + ".." + base64.RawURLEncoding.EncodeToString(sig)
}

func TestVerifyDetachedRejectsForgedHeaders(t *testing.T) {
	pub, priv := mustKey(t, 1)
	keys := []TrustedKey{{Kid: "k1", Public: pub, Source: "test"}}
	payload := []byte(`{"schema_version":1}`)
	good := `{"alg":"EdDSA","b64":false,"crit":["b64"],"kid":"k1"}`
	if kid, err := VerifyDetached(forge(priv, good, payload), payload, keys); err != nil || kid != "k1" {
		t.Fatalf("control: the exact header must verify: kid %q, %v", kid, err)
	}
	for name, h := range map[string]string{
		"alg none":             `{"alg":"none","b64":false,"crit":["b64"],"kid":"k1"}`,
		"alg HS256":            `{"alg":"HS256","b64":false,"crit":["b64"],"kid":"k1"}`,
		"alg ES256":            `{"alg":"ES256","b64":false,"crit":["b64"],"kid":"k1"}`,
		"alg lower case":       `{"alg":"eddsa","b64":false,"crit":["b64"],"kid":"k1"}`,
		"alg missing":          `{"b64":false,"crit":["b64"],"kid":"k1"}`,
		"alg not a string":     `{"alg":1,"b64":false,"crit":["b64"],"kid":"k1"}`,
		"b64 true":             `{"alg":"EdDSA","b64":true,"crit":["b64"],"kid":"k1"}`,
		"b64 missing":          `{"alg":"EdDSA","crit":["b64"],"kid":"k1"}`,
		"b64 as string":        `{"alg":"EdDSA","b64":"false","crit":["b64"],"kid":"k1"}`,
		"crit missing":         `{"alg":"EdDSA","b64":false,"kid":"k1"}`,
		"crit empty":           `{"alg":"EdDSA","b64":false,"crit":[],"kid":"k1"}`,
		"crit extra entry":     `{"alg":"EdDSA","b64":false,"crit":["b64","exp"],"kid":"k1"}`,
		"crit repeated":        `{"alg":"EdDSA","b64":false,"crit":["b64","b64"],"kid":"k1"}`,
		"crit as string":       `{"alg":"EdDSA","b64":false,"crit":"b64","kid":"k1"}`,
		"kid missing":          `{"alg":"EdDSA","b64":false,"crit":["b64"]}`,
		"kid empty":            `{"alg":"EdDSA","b64":false,"crit":["b64"],"kid":""}`,
		"kid a number":         `{"alg":"EdDSA","b64":false,"crit":["b64"],"kid":1}`,
		"extra typ":            `{"alg":"EdDSA","b64":false,"crit":["b64"],"kid":"k1","typ":"JOSE"}`,
		"embedded jwk":         `{"alg":"EdDSA","b64":false,"crit":["b64"],"jwk":{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"},"kid":"k1"}`,
		"duplicate alg":        `{"alg":"none","alg":"EdDSA","b64":false,"crit":["b64"],"kid":"k1"}`,
		"duplicate kid":        `{"alg":"EdDSA","b64":false,"crit":["b64"],"kid":"k2","kid":"k1"}`,
		"duplicate b64":        `{"alg":"EdDSA","b64":true,"b64":false,"crit":["b64"],"kid":"k1"}`,
		"spaces":               `{"alg": "EdDSA", "b64": false, "crit": ["b64"], "kid": "k1"}`,
		"reordered":            `{"kid":"k1","alg":"EdDSA","b64":false,"crit":["b64"]}`,
		"escaped kid spelling": `{"alg":"EdDSA","b64":false,"crit":["b64"],"kid":"\u006b1"}`,
		"trailing newline":     good + "\n",
		"not JSON":             `alg=EdDSA`,
		"JSON array":           `["EdDSA"]`,
		"JSON null":            `null`,
		"invalid UTF-8 kid":    "{\"alg\":\"EdDSA\",\"b64\":false,\"crit\":[\"b64\"],\"kid\":\"k1\xff\"}",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := VerifyDetached(forge(priv, h, payload), payload, keys)
			if !errors.Is(err, ErrHeader) {
				t.Fatalf("got %v, want ErrHeader", err)
			}
		})
	}
}

func TestVerifyDetachedRejectsMalformedTokens(t *testing.T) {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	pub, priv := mustKey(t, 1)
	keys := []TrustedKey{{Kid: "k1", Public: pub}}
	payload := []byte("{}")
	good, err := SignDetached(priv, "k1", payload)
	if err != nil {
		t.Fatal(err)
	}
	h, sig, _ := strings.Cut(good, "..")
	for name, tok := range map[string]string{
		"empty":             "",
		"one part":          h,
		"two parts":         h + "." + sig,
		"four parts":        h + ".." + sig + ".",
		"attached payload":  h + "." + base64.RawURLEncoding.EncodeToString(payload) + "." + sig,
		"raw payload":       h + ".{}." + sig,
		"empty header":      ".." + sig,
		"empty signature":   h + "..",
		"padding":           h + ".." + sig + "==",
		"std alphabet":      h + ".." + strings.NewReplacer("-", "+", "_", "/").Replace(sig) + "+/",
		"newline inside":    h + "..\n" + sig,
		"short signature":   h + ".." + sig[:len(sig)-4],
		"long signature":    h + ".." + sig + "AAAA",
		"non-canonical b64": h + ".." + sig[:len(sig)-1] + string(alphabet[strings.IndexByte(alphabet, sig[len(sig)-1])|1]),
		"huge":              strings.Repeat("A", maxJWS+1) + ".." + sig,
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := VerifyDetached(tok, payload, keys); !errors.Is(err, ErrMalformed) {
				t.Fatalf("got %v, want ErrMalformed", err)
			}
		})
	}
	if _, err := VerifyDetached(" "+good+"\n", payload, keys); err != nil {
		t.Errorf("surrounding whitespace: %v", err)
	}
}

func TestVerifyDetachedKeys(t *testing.T) {
	pub1, priv1 := mustKey(t, 1)
	pub2, priv2 := mustKey(t, 2)
	payload := []byte(`{"files":[],"schema_version":1}`)
	jws, err := SignDetached(priv1, "k1", payload)
	if err != nil {
		t.Fatal(err)
	}
	other, _ := SignDetached(priv1, "k1", []byte(`{"files":[],"schema_version":2}`))
	byKey2, _ := SignDetached(priv2, "k1", payload)
	_, sigOther, _ := strings.Cut(other, "..")
	h, _, _ := strings.Cut(jws, "..")

	tests := []struct {
		name    string
		jws     string
		keys    []TrustedKey
		want    error
		wantKid string
	}{
		{"right key", jws, []TrustedKey{{Kid: "k1", Public: pub1}}, nil, "k1"},
		{"right key among others", jws, []TrustedKey{{Kid: "k2", Public: pub2}, {Kid: "k1", Public: pub1}}, nil, "k1"},
		{"second key with the kid vouches", jws, []TrustedKey{{Kid: "k1", Public: pub2}, {Kid: "k1", Public: pub1}}, nil, "k1"},
		{"no keys", jws, nil, ErrNoKeys, "k1"},
		{"unknown kid", jws, []TrustedKey{{Kid: "k2", Public: pub1}}, ErrUnknownKid, "k1"},
		{"kids compare exactly", jws, []TrustedKey{{Kid: "K1", Public: pub1}, {Kid: "k1 ", Public: pub1}}, ErrUnknownKid, "k1"},
		{"wrong key under right kid", jws, []TrustedKey{{Kid: "k1", Public: pub2}}, ErrBadSignature, "k1"},
		{"signed by another key", byKey2, []TrustedKey{{Kid: "k1", Public: pub1}}, ErrBadSignature, "k1"},
		{"signature over another manifest", h + ".." + sigOther, []TrustedKey{{Kid: "k1", Public: pub1}}, ErrBadSignature, "k1"},
		{"truncated public key", jws, []TrustedKey{{Kid: "k1", Public: pub1[:31]}}, ErrBadSignature, "k1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			kid, err := VerifyDetached(tc.jws, payload, tc.keys)
			if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			if kid != tc.wantKid {
				t.Errorf("kid = %q, want %q", kid, tc.wantKid)
			}
		})
	}
	// One byte of the payload changed: never accepted.
	for i := range payload {
		bad := append([]byte(nil), payload...)
		bad[i] ^= 0x20
		if _, err := VerifyDetached(jws, bad, []TrustedKey{{Kid: "k1", Public: pub1}}); !errors.Is(err, ErrBadSignature) {
			t.Fatalf("payload byte %d flipped: %v", i, err)
		}
	}
}

// Forged headers are refused as forgeries (ErrHeader) even when the rest of the token is not even the shape of
// ours: an empty signature, a 32-byte MAC, an attached payload.
func TestForgedHeaderBeatsMalformedShape(t *testing.T) {
	enc := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	for name, tok := range map[string]string{
		"alg none, empty signature": enc(`{"alg":"none"}`) + "..",
		"HS256 MAC":                 enc(`{"alg":"HS256","b64":false,"crit":["b64"],"kid":"k"}`) + ".." + enc(strings.Repeat("m", 32)),
		"attached payload, b64":     enc(`{"alg":"EdDSA","kid":"k"}`) + "." + enc("{}") + "." + enc(strings.Repeat("s", 64)),
	} {
		if _, err := VerifyDetached(tok, []byte("{}"), nil); !errors.Is(err, ErrHeader) {
			t.Errorf("%s: %v, want ErrHeader", name, err)
		}
	}
}
