package sign

import (
	"bytes"
	"crypto"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/git-bernstein/git-bernstein/internal/regularfile"
)

// maxKeyFile bounds what LoadPrivateKey reads: a PKCS#8 Ed25519 PEM is about 120 bytes.
const maxKeyFile = 64 << 10

// GenerateKey makes a new Ed25519 key pair from crypto/rand.
func GenerateKey() (ed25519.PublicKey, ed25519.PrivateKey, error) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, nil, fmt.Errorf("generate Ed25519 key: %w", err)
	}
	return pub, priv, nil
}

// MarshalPrivateKeyPEM encodes key as unencrypted PKCS#8 ("BEGIN PRIVATE KEY"), the form openssl and the
// Python tool read (doc.go, "Keys").
func MarshalPrivateKeyPEM(key ed25519.PrivateKey) ([]byte, error) {
	if len(key) != ed25519.PrivateKeySize {
		return nil, fmt.Errorf("marshal private key: Ed25519 private key has %d bytes, want %d", len(key), ed25519.PrivateKeySize)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, fmt.Errorf("marshal private key: %w", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), nil
}

// MarshalPublicKeyPEM encodes pub as SubjectPublicKeyInfo ("BEGIN PUBLIC KEY"), as agent cards carry it.
func MarshalPublicKeyPEM(pub ed25519.PublicKey) ([]byte, error) {
	if len(pub) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("marshal public key: Ed25519 public key has %d bytes, want %d", len(pub), ed25519.PublicKeySize)
	}
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return nil, fmt.Errorf("marshal public key: %w", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), nil
}

// LoadPrivateKey reads an unencrypted PKCS#8 Ed25519 private key in PEM. Errors name the file and say what
// kind of key it holds instead when that is the problem.
func LoadPrivateKey(path string) (ed25519.PrivateKey, error) {
	// A FIFO or a folder is an error at once, not a hang; a file over maxKeyFile is not a key.
	data, err := regularfile.ReadFile(path, "signing key", maxKeyFile)
	if err != nil {
		return nil, err
	}
	key, err := ParsePrivateKeyPEM(data)
	if err != nil {
		return nil, fmt.Errorf("signing key %s: %w", path, err)
	}
	return key, nil
}

// ParsePrivateKeyPEM is LoadPrivateKey without the file.
func ParsePrivateKeyPEM(data []byte) (ed25519.PrivateKey, error) {
	const want = "want an unencrypted PKCS#8 Ed25519 key (BEGIN PRIVATE KEY), as `git bernstein keygen` writes"
	block, rest := pem.Decode(data)
	if block == nil {
		return nil, fmt.Errorf("no PEM block found; %s", want)
	}
	if len(bytes.TrimSpace(rest)) != 0 {
		return nil, fmt.Errorf("data after the first PEM block; %s", want)
	}
	switch block.Type {
	case "PRIVATE KEY":
	case "ENCRYPTED PRIVATE KEY":
		return nil, fmt.Errorf("the key is encrypted; %s (decrypt a copy with `openssl pkey -in KEY -out PLAIN.pem`)", want)
	case "OPENSSH PRIVATE KEY":
		return nil, fmt.Errorf("this is an OpenSSH key, not PKCS#8; %s", want)
	case "PUBLIC KEY":
		return nil, fmt.Errorf("this is a public key; %s", want)
	default:
		return nil, fmt.Errorf("PEM block %q is not a PKCS#8 private key; %s", block.Type, want)
	}
	if _, encrypted := block.Headers["Proc-Type"]; encrypted {
		return nil, fmt.Errorf("the key is encrypted (Proc-Type header); %s", want)
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("parse PKCS#8: %w; %s", err, want)
	}
	key, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("holds %s, not an Ed25519 key; %s", keyKind(k), want)
	}
	return key, nil
}

// ParsePublicKeyPEM reads one SubjectPublicKeyInfo PEM block holding an Ed25519 key.
func ParsePublicKeyPEM(data []byte) (ed25519.PublicKey, error) {
	block, rest := pem.Decode(data)
	if block == nil {
		return nil, errors.New("no PEM block found; want an Ed25519 public key (BEGIN PUBLIC KEY)")
	}
	if len(bytes.TrimSpace(rest)) != 0 {
		return nil, errors.New("data after the first PEM block; want exactly one public key")
	}
	if block.Type != "PUBLIC KEY" {
		return nil, fmt.Errorf("PEM block %q is not a public key; want BEGIN PUBLIC KEY (SubjectPublicKeyInfo)", block.Type)
	}
	k, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("parse SubjectPublicKeyInfo: %w", err)
	}
	pub, ok := k.(ed25519.PublicKey)
	if !ok {
		return nil, fmt.Errorf("holds %s, not an Ed25519 key; git-bernstein only trusts Ed25519 keys", keyKind(k))
	}
	return pub, nil
}

// Fingerprint is the RFC 7638 JWK thumbprint (SHA-256, base64url) of pub: a short name any JOSE library can
// recompute from the card's key.
func Fingerprint(pub ed25519.PublicKey) (string, error) {
	t, err := (&jose.JSONWebKey{Key: pub}).Thumbprint(crypto.SHA256)
	if err != nil {
		return "", fmt.Errorf("fingerprint public key: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(t), nil
}

func keyKind(k any) string {
	switch k.(type) {
	case *rsa.PrivateKey, *rsa.PublicKey:
		return "an RSA key"
	case *ecdsa.PrivateKey, *ecdsa.PublicKey:
		return "an ECDSA key"
	case *ecdh.PrivateKey, *ecdh.PublicKey:
		return "an ECDH (e.g. X25519) key"
	default:
		return fmt.Sprintf("a %T", k)
	}
}
