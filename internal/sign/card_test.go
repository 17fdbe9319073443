package sign

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseCardShapes(t *testing.T) {
	pub, _ := mustKey(t, 1)
	pub2, _ := mustKey(t, 2)
	pemStr := func(p []byte) string {
		b, err := MarshalPublicKeyPEM(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	P, P2 := q(pemStr(pub)), q(pemStr(pub2))
	X, X2 := q(base64.RawURLEncoding.EncodeToString(pub)), q(base64.RawURLEncoding.EncodeToString(pub2))
	ecKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ecDER, _ := x509.MarshalPKIXPublicKey(&ecKey.PublicKey)
	ecPEM := q(string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: ecDER})))

	tests := []struct {
		name     string
		card     string
		wantKids []string
		wantErr  string // substring; "" means accepted
	}{
		{"flat", `{"protocolVersion":"a2a/1.0","agent_id":"a","kid":"k1","public_key_pem":` + P + `}`, []string{"k1"}, ""},
		{"flat snake_case version", `{"protocol_version":"a2a/1.0","agent_id":"a","kid":"k1","public_key_pem":` + P + `}`, []string{"k1"}, ""},
		{"flat as upstream documents it, without a version", `{"agent_id":"a","kid":"k1","public_key_pem":` + P + `}`, []string{"k1"}, ""},
		{"flat without version or agent id", `{"kid":"k1","public_key_pem":` + P + `}`, []string{"k1"}, ""},
		{"flat without agent id", `{"protocolVersion":"a2a/1.0","kid":"k1","public_key_pem":` + P + `}`, []string{"k1"}, ""},
		{"a2a card", `{"name":"bot","protocolVersion":"0.3","url":"https://x","capabilities":{},"signatures":[],
			"keys":[{"kty":"OKP","crv":"Ed25519","alg":"EdDSA","kid":"k1","use":"sig","pem":` + P + `},
			        {"kty":"OKP","crv":"Ed25519","kid":"k2","x":` + X2 + `}]}`, []string{"k1", "k2"}, ""},
		{"jwk", `{"kty":"OKP","crv":"Ed25519","kid":"k1","x":` + X + `}`, []string{"k1"}, ""},
		{"jwk with pem and x agreeing", `{"kty":"OKP","crv":"Ed25519","kid":"k1","x":` + X + `,"pem":` + P + `}`, []string{"k1"}, ""},
		{"jwks", `{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"k1","x":` + X + `,"use":"sig","alg":"EdDSA"}]}`, []string{"k1"}, ""},
		{"same key twice", `{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"k1","x":` + X + `},{"kty":"OKP","crv":"Ed25519","kid":"k1","pem":` + P + `}]}`, []string{"k1", "k1"}, ""},

		{"not JSON", `kid=k1`, nil, "not valid JSON"},
		{"trailing data", `{"kty":"OKP"} {}`, nil, "not valid JSON"},
		{"duplicate member", `{"protocolVersion":"a2a/1.0","kid":"k1","kid":"k2","public_key_pem":` + P + `}`, nil, `duplicate member "kid"`},
		{"case twin kid", `{"protocolVersion":"a2a/1.0","kid":"k1","KID":"k2","public_key_pem":` + P + `}`, nil, `members "kid" and "KID" differ only in letter case`},
		{"case twin agent", `{"agent_id":"agent:coder","AGENT_ID":"agent:steward","kid":"k1","public_key_pem":` + P + `}`, nil, `members "agent_id" and "AGENT_ID" differ only in letter case`},
		{"kelvin twin kid", "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"kid\":\"k1\",\"\u212Aid\":\"k2\",\"x\":" + X + "}", nil, `differ only in letter case`},
		{"jwks case twin x", `{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"k1","x":` + X + `,"X":` + X2 + `}]}`, nil, `$.keys[0]: members "x" and "X"`},
		{"a2a nested twin", `{"name":"coder","Name":"steward","keys":[{"kty":"OKP","crv":"Ed25519","kid":"k1","x":` + X + `}]}`, nil, `members "name" and "Name"`},
		{"array", `[]`, nil, "want a JSON object"},
		{"unknown shape", `{"name":"bot"}`, nil, "not an agent card, JWK or JWKS"},
		{"flat versions disagree", `{"protocolVersion":"a2a/1.0","protocol_version":"a2a/2.0","kid":"k1","public_key_pem":` + P + `}`, nil, "disagree"},
		{"flat kid number", `{"protocolVersion":"a2a/1.0","kid":7,"public_key_pem":` + P + `}`, nil, `"kid" must be a string`},
		{"flat kid missing", `{"protocolVersion":"a2a/1.0","public_key_pem":` + P + `}`, nil, `"kid" is missing`},
		{"flat agent id number", `{"protocolVersion":"a2a/1.0","agent_id":1,"kid":"k1","public_key_pem":` + P + `}`, nil, `"agent_id" must be a string`},
		{"flat pem garbage", `{"protocolVersion":"a2a/1.0","kid":"k1","public_key_pem":"hello"}`, nil, "no PEM block"},
		{"flat pem not ed25519", `{"protocolVersion":"a2a/1.0","kid":"k1","public_key_pem":` + ecPEM + `}`, nil, "holds an ECDSA key, not an Ed25519 key"},
		{"flat pem two blocks", `{"protocolVersion":"a2a/1.0","kid":"k1","public_key_pem":` + q(pemStr(pub)+pemStr(pub2)) + `}`, nil, "data after the first PEM block"},
		{"keys not array", `{"keys":{"kty":"OKP"}}`, nil, `"keys" must be an array`},
		{"keys empty", `{"keys":[]}`, nil, `"keys" is empty`},
		{"keys entry not object", `{"keys":[1]}`, nil, "keys[0]: want a JSON object"},
		{"jwks rsa entry", `{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"k1","x":` + X + `},{"kty":"RSA","kid":"r","n":"AQAB","e":"AQAB"}]}`, nil, `keys[1]: kty "RSA" crv "" is not an Ed25519 key`},
		{"jwk x25519", `{"kty":"OKP","crv":"X25519","kid":"k1","x":` + X + `}`, nil, `crv "X25519" is not an Ed25519 key`},
		{"jwk alg ES256", `{"kty":"OKP","crv":"Ed25519","alg":"ES256","kid":"k1","x":` + X + `}`, nil, `alg "ES256"`},
		{"jwk use enc", `{"kty":"OKP","crv":"Ed25519","use":"enc","kid":"k1","x":` + X + `}`, nil, `use "enc"`},
		{"jwk private", `{"kty":"OKP","crv":"Ed25519","kid":"k1","x":` + X + `,"d":"AAAA"}`, nil, "holds a private key"},
		{"jwk without kid", `{"kty":"OKP","crv":"Ed25519","x":` + X + `}`, nil, `"kid" is missing`},
		{"jwk short x", `{"kty":"OKP","crv":"Ed25519","kid":"k1","x":"AAAA"}`, nil, `"x" must be 32 bytes`},
		{"jwk padded x", `{"kty":"OKP","crv":"Ed25519","kid":"k1","x":` + q(base64.URLEncoding.EncodeToString(pub)) + `}`, nil, `"x" must be 32 bytes`},
		{"jwk x not string", `{"kty":"OKP","crv":"Ed25519","kid":"k1","x":[1]}`, nil, `"x" must be a string`},
		{"jwk no key material", `{"kty":"OKP","crv":"Ed25519","kid":"k1"}`, nil, "no key material"},
		{"jwk x and pem differ", `{"kty":"OKP","crv":"Ed25519","kid":"k1","x":` + X + `,"pem":` + P2 + `}`, nil, "different keys"},
		{"kid names two keys", `{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"k1","x":` + X + `},{"kty":"OKP","crv":"Ed25519","kid":"k1","x":` + X2 + `}]}`, nil, "names two different keys"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			keys, err := ParseCard([]byte(tc.card), "alice.json")
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), "alice.json") {
					t.Fatalf("got %v, want an error naming alice.json containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var kids []string
			for _, k := range keys {
				kids = append(kids, k.Kid)
				if !strings.HasPrefix(k.Source, "alice.json") {
					t.Errorf("Source %q does not name the file", k.Source)
				}
				if !k.Public.Equal(pub) && !k.Public.Equal(pub2) {
					t.Errorf("kid %s: unexpected key", k.Kid)
				}
			}
			if strings.Join(kids, ",") != strings.Join(tc.wantKids, ",") {
				t.Errorf("kids = %v, want %v", kids, tc.wantKids)
			}
		})
	}
}

func TestLoadCard(t *testing.T) {
	pub, priv := mustKey(t, 3)
	dir := t.TempDir()
	card, err := MarshalCard("git-bernstein", "k3", pub)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "k3.card.json")
	if err := os.WriteFile(path, card, 0o644); err != nil {
		t.Fatal(err)
	}
	keys, err := LoadCard(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 1 || keys[0].Kid != "k3" || !keys[0].Public.Equal(pub) || keys[0].Source != path+" (flat card)" {
		t.Fatalf("LoadCard = %+v", keys)
	}
	// What keygen writes is what the verifier trusts.
	jws, _ := SignDetached(priv, "k3", []byte("{}"))
	if _, err := VerifyDetached(jws, []byte("{}"), keys); err != nil {
		t.Errorf("card from MarshalCard does not verify our signature: %v", err)
	}

	// The minimal card upstream's help describes (agent_id, kid, public_key_pem; no protocolVersion) is trusted too.
	pemKey, _ := MarshalPublicKeyPEM(pub)
	minimal, _ := json.Marshal(map[string]string{"agent_id": "bernstein", "kid": "k3", "public_key_pem": string(pemKey)})
	minimalPath := filepath.Join(dir, "minimal.card.json")
	os.WriteFile(minimalPath, minimal, 0o644)
	if keys, err := LoadCard(minimalPath); err != nil {
		t.Errorf("minimal upstream card refused: %v", err)
	} else if _, err := VerifyDetached(jws, []byte("{}"), keys); err != nil {
		t.Errorf("minimal upstream card does not verify our signature: %v", err)
	}

	big := filepath.Join(dir, "big.json")
	os.WriteFile(big, append(card, make([]byte, MaxCardSize)...), 0o644)
	if _, err := LoadCard(big); err == nil || !strings.Contains(err.Error(), big) || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("oversized card: %v", err)
	}
	missing := filepath.Join(dir, "missing.json")
	if _, err := LoadCard(missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing card: %v", err)
	}
}

func TestMarshalCardFormat(t *testing.T) {
	pub := rfc8037Key(t).Public().(ed25519.PublicKey)
	got, err := MarshalCard("agent <&>", "k1", pub)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n" +
		"  \"protocolVersion\": \"a2a/1.0\",\n" +
		"  \"agent_id\": \"agent <&>\",\n" +
		"  \"kid\": \"k1\",\n" +
		"  \"public_key_pem\": \"-----BEGIN PUBLIC KEY-----\\nMCowBQYDK2VwAyEA11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=\\n-----END PUBLIC KEY-----\\n\"\n" +
		"}\n"
	if string(got) != want {
		t.Errorf("card:\n%s\nwant:\n%s", got, want)
	}
}
