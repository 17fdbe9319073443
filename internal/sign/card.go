package sign

import (
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/git-bernstein/git-bernstein/internal/jsonout"
	"github.com/git-bernstein/git-bernstein/internal/regularfile"
	"github.com/git-bernstein/git-bernstein/internal/strictjson"
)

// MaxCardSize bounds a card file: real ones are a few KiB, and the file is untrusted input.
const MaxCardSize = 1 << 20

// CardProtocolVersion is what keygen writes in a flat card, and what a flat card without a version is taken to
// say, as upstream's reader does.
const CardProtocolVersion = "a2a/1.0"

// TrustedKey is a public key the user vouches for, and where it came from so reports can name it.
type TrustedKey struct {
	Kid    string
	Public ed25519.PublicKey
	Source string // e.g. `alice.card.json (flat card)` or `jwks.json keys[2]`
}

// FlatCard is the agent card `bundle verify --card` reads upstream and keygen writes (doc.go, "Agent cards").
type FlatCard struct {
	ProtocolVersion string `json:"protocolVersion"`
	AgentID         string `json:"agent_id"`
	Kid             string `json:"kid"`
	PublicKeyPEM    string `json:"public_key_pem"`
}

// MarshalCard returns the flat card for pub as indented JSON with a final newline.
func MarshalCard(agentID, kid string, pub ed25519.PublicKey) ([]byte, error) {
	if agentID == "" {
		return nil, errors.New("agent card: agent id is empty")
	}
	if err := CheckKid(kid); err != nil {
		return nil, fmt.Errorf("agent card: %w", err)
	}
	p, err := MarshalPublicKeyPEM(pub)
	if err != nil {
		return nil, fmt.Errorf("agent card: %w", err)
	}
	b, err := jsonout.Bytes(FlatCard{ProtocolVersion: CardProtocolVersion, AgentID: agentID, Kid: kid, PublicKeyPEM: string(p)})
	if err != nil {
		return nil, fmt.Errorf("agent card: %w", err)
	}
	return b, nil
}

// LoadCard reads the trusted keys in a card file: a flat agent card, an A2A-shaped card with keys[], a JWK
// or a JWKS. Every key must be Ed25519 and carry a kid; anything else is an error naming the file and entry.
func LoadCard(path string) ([]TrustedKey, error) { return LoadCardAs(path, path) }

// LoadCardAs is LoadCard naming the card name in errors and in TrustedKey.Source (the path as the user wrote it).
// The file must be a regular file (a FIFO or device is refused at once, never waited on) of at most MaxCardSize.
func LoadCardAs(path, name string) ([]TrustedKey, error) {
	data, err := regularfile.ReadFile(path, "card", MaxCardSize)
	if errors.Is(err, regularfile.ErrTooLarge) {
		return nil, fmt.Errorf("card %s: larger than %d KiB; a card holds a few keys", name, MaxCardSize>>10)
	}
	if err != nil {
		return nil, err
	}
	return ParseCard(data, name)
}

// ParseCard is LoadCard on bytes; source names them in errors and in TrustedKey.Source.
func ParseCard(data []byte, source string) ([]TrustedKey, error) {
	c, err := ReadCard(data, source)
	if err != nil {
		return nil, err
	}
	return c.Keys, nil
}

// Card is what one card file says: the agent it names and the keys it vouches for.
type Card struct {
	// Agent is a flat card's agent_id, else an A2A card's name; "" for a JWK, a JWKS or a card that names none.
	Agent string
	Keys  []TrustedKey
}

// ReadCard reads a card file once, strictly (package strictjson: no member twice, no two names that differ only
// in letter case, exact names), so that the key and the agent it is bound to come from one reading: a card
// with "agent_id":"agent:coder" and "AGENT_ID":"agent:steward" is refused, not bound to either.
func ReadCard(data []byte, source string) (*Card, error) {
	v, err := strictjson.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("card %s: not valid JSON: %v", source, err)
	}
	top, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("card %s: want a JSON object (agent card, JWK or JWKS)", source)
	}
	obj := object{m: top, where: "card " + source}
	card := &Card{}
	agentID, err := obj.optString("agent_id")
	if err != nil {
		return nil, err
	}
	name, err := obj.optString("name")
	if err != nil {
		return nil, err
	}
	if card.Agent = agentID; agentID == "" {
		card.Agent = name
	}
	var keys []TrustedKey
	switch {
	case has(top, "public_key_pem"):
		k, err := parseFlatCard(obj, source)
		if err != nil {
			return nil, err
		}
		keys = append(keys, k)
	case has(top, "keys"):
		entries, ok := top["keys"].([]any)
		if !ok {
			return nil, fmt.Errorf("card %s: \"keys\" must be an array of JWKs", source)
		}
		if len(entries) == 0 {
			return nil, fmt.Errorf("card %s: \"keys\" is empty; no key to trust", source)
		}
		shape := "JWKS"
		if has(top, "protocolVersion") || has(top, "name") {
			shape = "A2A card"
		}
		for i, e := range entries {
			where := fmt.Sprintf("%s keys[%d]", source, i)
			m, ok := e.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("card %s: want a JSON object", where)
			}
			k, err := parseJWK(object{m: m, where: "card " + where}, where+" ("+shape+")")
			if err != nil {
				return nil, err
			}
			keys = append(keys, k)
		}
	case has(top, "kty"):
		k, err := parseJWK(obj, source+" (JWK)")
		if err != nil {
			return nil, err
		}
		keys = append(keys, k)
	default:
		return nil, fmt.Errorf("card %s: not an agent card, JWK or JWKS: found none of \"public_key_pem\", \"keys\", \"kty\"", source)
	}
	seen := map[string]ed25519.PublicKey{}
	for _, k := range keys {
		if prev, ok := seen[k.Kid]; ok && !prev.Equal(k.Public) {
			return nil, fmt.Errorf("card %s: kid %q names two different keys; a kid must pick one key", source, k.Kid)
		}
		seen[k.Kid] = k.Public
	}
	card.Keys = keys
	return card, nil
}

func parseFlatCard(o object, source string) (TrustedKey, error) {
	pv, err := o.optString("protocolVersion")
	if err != nil {
		return TrustedKey{}, err
	}
	pv2, err := o.optString("protocol_version")
	if err != nil {
		return TrustedKey{}, err
	}
	// Upstream's own `bundle verify --card` help describes, and its reader accepts, a card of agent_id, kid and
	// public_key_pem alone, taking the version as a2a/1.0: a card without one is that card, not a broken one.
	// Only two spellings that disagree are refused, since then the card says two things at once.
	if pv != "" && pv2 != "" && pv != pv2 {
		return TrustedKey{}, fmt.Errorf("%s: \"protocolVersion\" %q and \"protocol_version\" %q disagree", o.where, pv, pv2)
	}
	if _, err := o.optString("agent_id"); err != nil {
		return TrustedKey{}, err
	}
	kid, err := o.reqString("kid")
	if err != nil {
		return TrustedKey{}, err
	}
	p, err := o.reqString("public_key_pem")
	if err != nil {
		return TrustedKey{}, err
	}
	pub, err := ParsePublicKeyPEM([]byte(p))
	if err != nil {
		return TrustedKey{}, fmt.Errorf("%s: public_key_pem: %w", o.where, err)
	}
	return TrustedKey{Kid: kid, Public: pub, Source: source + " (flat card)"}, nil
}

// parseJWK reads an OKP/Ed25519 public JWK (RFC 8037). A2A cards put the key in "pem" instead of (or beside)
// "x"; when both are there they must agree.
func parseJWK(o object, source string) (TrustedKey, error) {
	kty, err := o.reqString("kty")
	if err != nil {
		return TrustedKey{}, err
	}
	crv, err := o.optString("crv")
	if err != nil {
		return TrustedKey{}, err
	}
	if kty != "OKP" || crv != "Ed25519" {
		return TrustedKey{}, fmt.Errorf("%s: kty %q crv %q is not an Ed25519 key (want kty \"OKP\", crv \"Ed25519\"); git-bernstein only trusts Ed25519 keys", o.where, kty, crv)
	}
	if alg, err := o.optString("alg"); err != nil {
		return TrustedKey{}, err
	} else if alg != "" && alg != "EdDSA" {
		return TrustedKey{}, fmt.Errorf("%s: alg %q; an Ed25519 signing key has alg \"EdDSA\"", o.where, alg)
	}
	if use, err := o.optString("use"); err != nil {
		return TrustedKey{}, err
	} else if use != "" && use != "sig" {
		return TrustedKey{}, fmt.Errorf("%s: use %q; a signing key has use \"sig\"", o.where, use)
	}
	if has(o.m, "d") {
		return TrustedKey{}, fmt.Errorf("%s: holds a private key (\"d\"); give verifiers the public key only, and treat this one as leaked", o.where)
	}
	kid, err := o.reqString("kid")
	if err != nil {
		return TrustedKey{}, err
	}
	x, err := o.optString("x")
	if err != nil {
		return TrustedKey{}, err
	}
	p, err := o.optString("pem")
	if err != nil {
		return TrustedKey{}, err
	}
	var pub ed25519.PublicKey
	if x != "" {
		raw, err := b64.DecodeString(x)
		if err != nil || len(raw) != ed25519.PublicKeySize {
			return TrustedKey{}, fmt.Errorf("%s: \"x\" must be %d bytes of base64url without padding", o.where, ed25519.PublicKeySize)
		}
		pub = raw
	}
	if p != "" {
		fromPEM, err := ParsePublicKeyPEM([]byte(p))
		if err != nil {
			return TrustedKey{}, fmt.Errorf("%s: pem: %w", o.where, err)
		}
		if pub != nil && !pub.Equal(fromPEM) {
			return TrustedKey{}, fmt.Errorf("%s: \"x\" and \"pem\" are different keys", o.where)
		}
		pub = fromPEM
	}
	if pub == nil {
		return TrustedKey{}, fmt.Errorf("%s: no key material: want \"x\" (base64url) or \"pem\"", o.where)
	}
	return TrustedKey{Kid: kid, Public: pub, Source: source}, nil
}

// object reads members of a JSON object (a strictjson.Decode tree) by their exact names, with strict types and
// errors that say where.
type object struct {
	m     map[string]any
	where string
}

func has(m map[string]any, name string) bool {
	_, ok := m[name]
	return ok
}

// optString returns "" when name is absent; present, it must be a string.
func (o object) optString(name string) (string, error) {
	v, ok := o.m[name]
	if !ok {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%s: %q must be a string, got %.40s", o.where, name, jsonText(v))
	}
	return s, nil
}

// jsonText is v as JSON, for messages.
func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func (o object) reqString(name string) (string, error) {
	s, err := o.optString(name)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(s) == "" {
		return "", fmt.Errorf("%s: %q is missing or empty", o.where, name)
	}
	return s, nil
}
