package sshsig

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/ssh"
)

// Namespace is the SSHSIG namespace of every signature git-bernstein writes and accepts (doc.go, "SSHSIG"). A
// namespace keeps a signature made for one purpose (git commits: "git", files: "file") from being replayed as
// another.
const Namespace = "git-bernstein"

// Errors of Verify, for errors.Is.
var (
	// ErrMalformed: not an armored SSHSIG, or its fields are not as PROTOCOL.sshsig frames them.
	ErrMalformed = errors.New("malformed SSH signature")
	// ErrNamespace: a well-formed signature made for another namespace.
	ErrNamespace = errors.New("SSH signature made for another namespace")
	// ErrBadSignature: the signature does not verify over these bytes with the key it names.
	ErrBadSignature = errors.New("SSH signature does not verify")
)

const (
	magic      = "SSHSIG"
	sigVersion = 1
	armorBegin = "-----BEGIN SSH SIGNATURE-----"
	armorEnd   = "-----END SSH SIGNATURE-----"
	// maxSig bounds an armored signature: an Ed25519 one is under 300 bytes, an RSA-16384 one under 6 KiB.
	maxSig = 64 << 10
)

// Digests are the message's hashes, computed by the caller in the same read that checks the message (the
// verifier reads an archive once). SSHSIG allows sha256 and sha512; ssh-keygen writes sha512.
type Digests struct {
	SHA256, SHA512 []byte
}

// DigestsOf hashes msg both ways.
func DigestsOf(msg []byte) Digests {
	a, b := sha256.Sum256(msg), sha512.Sum512(msg)
	return Digests{SHA256: a[:], SHA512: b[:]}
}

// wireSig is the SSHSIG blob (PROTOCOL.sshsig section 2) after the 6-byte magic.
type wireSig struct {
	Version       uint32
	PublicKey     []byte
	Namespace     string
	Reserved      string
	HashAlgorithm string
	Signature     []byte
}

// signedData is what the key signs (PROTOCOL.sshsig section 3), after the 6-byte magic. The message enters only
// as its hash.
type signedData struct {
	Namespace     string
	Reserved      string
	HashAlgorithm string
	Hash          []byte
}

// Sign signs the message whose sha512 is msgSHA512 with key (an Ed25519 crypto.Signer: a private key, or one
// held by ssh-agent) in namespace, and returns the armored signature that `ssh-keygen -Y verify` reads,
// with a final newline.
func Sign(key crypto.Signer, namespace string, msgSHA512 []byte) ([]byte, error) {
	if len(msgSHA512) != sha512.Size {
		return nil, fmt.Errorf("SSH signature: want the message's sha512, got %d bytes", len(msgSHA512))
	}
	if namespace == "" {
		return nil, errors.New("SSH signature: empty namespace")
	}
	pub, ok := key.Public().(ed25519.PublicKey)
	if !ok {
		return nil, fmt.Errorf("SSH signature: key is %T, not Ed25519", key.Public())
	}
	signer, err := ssh.NewSignerFromSigner(key)
	if err != nil {
		return nil, fmt.Errorf("SSH signature: %w", err)
	}
	toSign := append([]byte(magic), ssh.Marshal(signedData{Namespace: namespace, HashAlgorithm: "sha512", Hash: msgSHA512})...)
	sig, err := signer.Sign(rand.Reader, toSign)
	if err != nil {
		return nil, fmt.Errorf("SSH signature: %w", err)
	}
	if sig.Format != ssh.KeyAlgoED25519 || !ed25519.Verify(pub, toSign, sig.Blob) {
		return nil, fmt.Errorf("SSH signature: the key returned a %q signature that does not verify as Ed25519", sig.Format)
	}
	blob := append([]byte(magic), ssh.Marshal(wireSig{
		Version: sigVersion, PublicKey: signer.PublicKey().Marshal(), Namespace: namespace,
		HashAlgorithm: "sha512", Signature: ssh.Marshal(sig),
	})...)
	return armor(blob), nil
}

// armor is PROTOCOL.sshsig section 1: the blob in base64, lines of 70 characters, between the markers.
func armor(blob []byte) []byte {
	enc := base64.StdEncoding.EncodeToString(blob)
	var b bytes.Buffer
	b.WriteString(armorBegin + "\n")
	for len(enc) > 70 {
		b.WriteString(enc[:70] + "\n")
		enc = enc[70:]
	}
	b.WriteString(enc + "\n" + armorEnd + "\n")
	return b.Bytes()
}

// dearmor takes the blob out of an armored signature: the markers on lines of their own, base64 between
// them (any line length, as ssh-keygen reads it), only whitespace around.
func dearmor(data []byte) ([]byte, error) {
	if len(data) > maxSig {
		return nil, fmt.Errorf("%w: %d bytes, more than a signature can be", ErrMalformed, len(data))
	}
	s := strings.TrimSpace(strings.ReplaceAll(string(data), "\r\n", "\n"))
	body, ok := strings.CutPrefix(s, armorBegin+"\n")
	if !ok {
		return nil, fmt.Errorf("%w: does not begin with %s", ErrMalformed, armorBegin)
	}
	body, ok = strings.CutSuffix(body, "\n"+armorEnd)
	if !ok {
		return nil, fmt.Errorf("%w: does not end with %s", ErrMalformed, armorEnd)
	}
	blob, err := base64.StdEncoding.Strict().DecodeString(strings.ReplaceAll(body, "\n", ""))
	if err != nil {
		return nil, fmt.Errorf("%w: base64: %v", ErrMalformed, err)
	}
	return blob, nil
}

// Verified is what a good signature says: the key that made it.
type Verified struct {
	Key           ssh.PublicKey
	Fingerprint   string // SHA256:…, as ssh-keygen -l prints it
	HashAlgorithm string // sha512 or sha256
}

// Verify checks an armored SSHSIG over the message whose digests are d, in namespace, with the public key the
// signature itself carries. Whether that key is trusted is the caller's question (AllowedSigner.Allows).
// Like ssh-keygen, it accepts any key type x/crypto/ssh verifies; the key comes back for the caller to judge.
func Verify(armored []byte, namespace string, d Digests) (*Verified, error) {
	blob, err := dearmor(armored)
	if err != nil {
		return nil, err
	}
	rest, ok := bytes.CutPrefix(blob, []byte(magic))
	if !ok {
		return nil, fmt.Errorf("%w: no %q preamble", ErrMalformed, magic)
	}
	var w wireSig
	if err := ssh.Unmarshal(rest, &w); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if w.Version != sigVersion {
		return nil, fmt.Errorf("%w: version %d, want %d", ErrMalformed, w.Version, sigVersion)
	}
	pub, err := ssh.ParsePublicKey(w.PublicKey)
	if err != nil {
		return nil, fmt.Errorf("%w: public key: %v", ErrMalformed, err)
	}
	var sig ssh.Signature
	if err := ssh.Unmarshal(w.Signature, &sig); err != nil {
		return nil, fmt.Errorf("%w: signature: %v", ErrMalformed, err)
	}
	v := &Verified{Key: pub, Fingerprint: ssh.FingerprintSHA256(pub), HashAlgorithm: w.HashAlgorithm}
	if w.Namespace != namespace {
		return v, fmt.Errorf("%w: made for namespace %q, want %q", ErrNamespace, w.Namespace, namespace)
	}
	var h []byte
	switch w.HashAlgorithm {
	case "sha512":
		h = d.SHA512
	case "sha256":
		h = d.SHA256
	default:
		return v, fmt.Errorf("%w: hash algorithm %q (want sha512 or sha256)", ErrMalformed, w.HashAlgorithm)
	}
	if h == nil {
		return v, fmt.Errorf("%w: no %s digest of the message was computed", ErrBadSignature, w.HashAlgorithm)
	}
	signed := append([]byte(magic), ssh.Marshal(signedData{Namespace: w.Namespace, Reserved: w.Reserved, HashAlgorithm: w.HashAlgorithm, Hash: h})...)
	// PROTOCOL.sshsig: for RSA keys the signature must be rsa-sha2-*, never ssh-rsa (SHA-1).
	if sig.Format == ssh.KeyAlgoRSA {
		return v, fmt.Errorf("%w: ssh-rsa (SHA-1) signatures are refused, as ssh-keygen refuses them", ErrBadSignature)
	}
	if err := pub.Verify(signed, &sig); err != nil {
		return v, fmt.Errorf("%w: key %s: %v", ErrBadSignature, v.Fingerprint, err)
	}
	return v, nil
}

// Ed25519 returns the raw key of an ssh-ed25519 public key, or nil for any other type (sk- keys included).
func Ed25519(pub ssh.PublicKey) ed25519.PublicKey {
	if pub == nil || pub.Type() != ssh.KeyAlgoED25519 {
		return nil
	}
	cp, ok := pub.(ssh.CryptoPublicKey)
	if !ok {
		return nil
	}
	k, _ := cp.CryptoPublicKey().(ed25519.PublicKey)
	return k
}

// Fingerprint is the key's SHA256 fingerprint as ssh-keygen -l prints it ("SHA256:" and unpadded base64): the
// kid a bundle signed with an SSH key carries unless another is configured.
func Fingerprint(pub ed25519.PublicKey) (string, error) {
	k, err := ssh.NewPublicKey(pub)
	if err != nil {
		return "", err
	}
	return ssh.FingerprintSHA256(k), nil
}

// FingerprintOf is ssh.FingerprintSHA256, so callers need not import x/crypto/ssh.
func FingerprintOf(pub ssh.PublicKey) string { return ssh.FingerprintSHA256(pub) }
