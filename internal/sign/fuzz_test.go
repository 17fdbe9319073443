package sign

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// FuzzVerifyDetached: no input crashes the verifier, every refusal is one of the typed outcomes, and nothing
// but the real token for the real payload is accepted.
func FuzzVerifyDetached(f *testing.F) {
	pub, priv := mustKey(f, 9)
	payload := []byte(`{"schema_version":1}`)
	good, err := SignDetached(priv, "k9", payload)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good, payload)
	f.Add(good+"A", payload)
	f.Add(forge(priv, `{"alg":"none","b64":false,"crit":["b64"],"kid":"k9"}`, payload), payload)
	f.Add("..", []byte{})
	keys := []TrustedKey{{Kid: "k9", Public: pub}}
	f.Fuzz(func(t *testing.T, jws string, p []byte) {
		_, err := VerifyDetached(jws, p, keys)
		if err == nil {
			if !bytes.Equal(p, payload) {
				t.Fatalf("accepted a token for payload %q", p)
			}
			return
		}
		for _, e := range []error{ErrMalformed, ErrHeader, ErrUnknownKid, ErrBadSignature} {
			if errors.Is(err, e) {
				return
			}
		}
		t.Fatalf("untyped error: %v", err)
	})
}

// FuzzParseCard: no card crashes the parser, and every key it returns is a whole Ed25519 key with a kid.
func FuzzParseCard(f *testing.F) {
	pub, _ := mustKey(f, 1)
	card, _ := MarshalCard("a", "k1", pub)
	f.Add(card)
	f.Add([]byte(`{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"k1","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}]}`))
	f.Add([]byte(`{"kty":"OKP","crv":"Ed25519","kid":"k1","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		keys, err := ParseCard(data, "fuzz.json")
		if err != nil {
			return
		}
		for _, k := range keys {
			if k.Kid == "" || len(k.Public) != 32 {
				t.Fatalf("bad key %+v", k)
			}
		}
	})
}

// FuzzLegacyCanonical: the legacy form of any accepted document is JSON meaning the same thing, and is
// already canonical (a fixed point).
func FuzzLegacyCanonical(f *testing.F) {
	f.Add([]byte(`{"b":[1,2.5,"é😀"],"a":null}`))
	f.Add([]byte(`[1e16,-0,0.0001,"\u0000"]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := LegacyCanonical(data)
		if err != nil {
			return
		}
		again, err := LegacyCanonical(out)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("not a fixed point: %s -> %s (%v)", out, again, err)
		}
		var a, b any
		if json.Unmarshal(data, &a) != nil || json.Unmarshal(out, &b) != nil {
			t.Fatalf("output %s is not JSON", out)
		}
		// DeepEqual compares floats with ==, so Python's int("-0") == 0 counts as the same.
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("meaning changed: %s -> %s", data, out)
		}
	})
}
