package sshsig

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"

	"github.com/git-bernstein/git-bernstein/internal/regularfile"
	"github.com/git-bernstein/git-bernstein/internal/sign"
)

// maxKeyFile bounds a key file: an OpenSSH Ed25519 private key is about 400 bytes, a public key under 200.
const maxKeyFile = 64 << 10

// LiteralPrefix marks a public key written in place of a file name, as git's user.signingKey allows.
const LiteralPrefix = "key::"

// Key is a bundle signing key: Ed25519, with its private half in a file or in ssh-agent (doc.go, "Signing
// keys"). It is a crypto.Signer that returns plain 64-byte Ed25519 signatures, which is what an Ed25519 key in
// ssh-agent makes too, so the JWS and DSSE signatures it makes are the same as a file key's.
type Key struct {
	pub    ed25519.PublicKey
	signer ssh.Signer // nil: priv signs
	priv   ed25519.PrivateKey
	conn   io.Closer

	// SSH is true for OpenSSH keys (private key files, public keys whose private half is in ssh-agent): bundles
	// signed with them also get an SSHSIG .sig by default.
	SSH bool
	// Source says where the key came from, for messages: the file, or "ssh-agent (SHA256:…)".
	Source string
}

// Public returns the ed25519.PublicKey.
func (k *Key) Public() crypto.PublicKey { return k.pub }

// Fingerprint is the key's SHA256 fingerprint, the default kid of SSH keys.
func (k *Key) Fingerprint() string {
	f, _ := Fingerprint(k.pub)
	return f
}

// Sign signs msg (not a digest: Ed25519 hashes internally; opts must be crypto.Hash(0)) and returns the raw
// 64-byte signature, checked against the public key before it is returned, so an agent that answered with
// something else is an error, never a bad signature in a bundle.
func (k *Key) Sign(_ io.Reader, msg []byte, opts crypto.SignerOpts) ([]byte, error) {
	if opts != nil && opts.HashFunc() != 0 {
		return nil, errors.New("sign: Ed25519 signs the message itself, not a digest")
	}
	var sig []byte
	if k.signer == nil {
		sig = ed25519.Sign(k.priv, msg)
	} else {
		s, err := k.signer.Sign(nil, msg)
		if err != nil {
			return nil, fmt.Errorf("sign with %s: %w", k.Source, err)
		}
		if s.Format != ssh.KeyAlgoED25519 {
			return nil, fmt.Errorf("sign with %s: the agent answered with a %q signature, not ssh-ed25519", k.Source, s.Format)
		}
		sig = s.Blob
	}
	if !ed25519.Verify(k.pub, msg, sig) {
		return nil, fmt.Errorf("sign with %s: the signature does not verify with the key's public half", k.Source)
	}
	return sig, nil
}

// Close ends the connection to ssh-agent, if any.
func (k *Key) Close() error {
	if k.conn != nil {
		return k.conn.Close()
	}
	return nil
}

// FromPrivateKey wraps a key read from a PKCS#8 file (package sign).
func FromPrivateKey(priv ed25519.PrivateKey, source string) *Key {
	return &Key{pub: priv.Public().(ed25519.PublicKey), priv: priv, Source: source}
}

// LoadKey reads the signing key that spec names, as --sign-key, bernstein.signingKey or git's user.signingKey
// give it: "key::<public key>" (the private half in ssh-agent), or a file holding an OpenSSH private key, an
// OpenSSH public key (the private half in ssh-agent) or a PKCS#8 PEM key (package sign). getenv reads
// SSH_AUTH_SOCK. The caller closes the key.
func LoadKey(spec string, getenv func(string) string) (*Key, error) {
	if lit, ok := strings.CutPrefix(spec, LiteralPrefix); ok {
		pub, err := parsePublic([]byte(lit))
		if err != nil {
			return nil, fmt.Errorf("signing key %q: %w", spec, err)
		}
		return fromAgent(pub, getenv, "")
	}
	// A FIFO or a folder is an error at once, not a hang; a file over maxKeyFile is not a key.
	data, err := regularfile.ReadFile(spec, "signing key", maxKeyFile)
	if err != nil {
		return nil, err
	}
	trimmed := bytes.TrimSpace(data)
	switch {
	case bytes.HasPrefix(trimmed, []byte("-----BEGIN OPENSSH PRIVATE KEY-----")):
		return openSSHPrivate(spec, data, getenv)
	case bytes.HasPrefix(trimmed, []byte("-----BEGIN")):
		priv, err := sign.ParsePrivateKeyPEM(data)
		if err != nil {
			return nil, fmt.Errorf("signing key %s: %w", spec, err)
		}
		return FromPrivateKey(priv, spec), nil
	}
	if !looksLikePublicKey(trimmed) {
		// Neither PEM nor an OpenSSH public key line: say what a PKCS#8 reader says, and the other choices.
		_, err := sign.ParsePrivateKeyPEM(data)
		return nil, fmt.Errorf("signing key %s: %w (or an OpenSSH Ed25519 key: the private key file, or its .pub with the private half in ssh-agent)", spec, err)
	}
	pub, err := parsePublic(data)
	if err != nil {
		return nil, fmt.Errorf("signing key %s: %w; want an OpenSSH Ed25519 private key, its .pub with the private half in ssh-agent, or a PKCS#8 PEM key", spec, err)
	}
	return fromAgent(pub, getenv, spec)
}

// looksLikePublicKey is true when data starts with an OpenSSH key type name (ssh-…, sk-…, ecdsa-…), perhaps
// after authorized_keys options: what a .pub file or a key:: literal holds.
func looksLikePublicKey(data []byte) bool {
	for _, f := range bytes.Fields(data) {
		for _, p := range []string{"ssh-", "sk-", "ecdsa-"} {
			if bytes.HasPrefix(f, []byte(p)) {
				return true
			}
		}
	}
	return false
}

// parsePublic reads one OpenSSH public key line ("ssh-ed25519 AAAA… comment") and refuses every type but
// ssh-ed25519.
func parsePublic(data []byte) (ssh.PublicKey, error) {
	pub, _, _, _, err := ssh.ParseAuthorizedKey(data)
	if err != nil {
		return nil, fmt.Errorf("not an OpenSSH public key: %v", err)
	}
	if err := checkType(pub.Type()); err != nil {
		return nil, err
	}
	return pub, nil
}

// checkType explains why a key type cannot sign bundles.
func checkType(t string) error {
	switch {
	case t == ssh.KeyAlgoED25519:
		return nil
	case strings.HasPrefix(t, "sk-"):
		return fmt.Errorf("%s is a security-key (FIDO) key: its signatures cover the authenticator's flags and counter as well as the message, "+
			"so they are not plain Ed25519 and no JWS or DSSE verifier can check them; use an ssh-ed25519 key (ssh-keygen -t ed25519), "+
			"held in ssh-agent if you like", t)
	case strings.Contains(t, "-cert-v01@openssh.com"):
		return fmt.Errorf("%s is a certificate; give the Ed25519 key itself", t)
	}
	return fmt.Errorf("%s is not an Ed25519 key; bundles are signed with Ed25519 only: make one with ssh-keygen -t ed25519", t)
}

// openSSHPrivate reads an OpenSSH private key file. An encrypted one is used through ssh-agent when the agent
// holds it (as ssh-keygen -Y sign does), else refused with what to do: git-bernstein never asks for a passphrase.
func openSSHPrivate(path string, data []byte, getenv func(string) string) (*Key, error) {
	if pub := openSSHPublicHalf(data); pub != nil {
		if err := checkType(pub.Type()); err != nil {
			return nil, fmt.Errorf("signing key %s: %w", path, err)
		}
	}
	raw, err := ssh.ParseRawPrivateKey(data)
	var missing *ssh.PassphraseMissingError
	if errors.As(err, &missing) {
		if missing.PublicKey == nil {
			return nil, fmt.Errorf("signing key %s is encrypted: add it to ssh-agent (ssh-add %s) and give its .pub, or use an unencrypted Ed25519 key", path, path)
		}
		k, aerr := fromAgent(missing.PublicKey, getenv, path)
		if aerr != nil {
			return nil, fmt.Errorf("signing key %s is encrypted and git-bernstein never asks for a passphrase: add it to ssh-agent (ssh-add %s), "+
				"or use an unencrypted Ed25519 key (%v)", path, path, aerr)
		}
		return k, nil
	}
	if err != nil {
		return nil, fmt.Errorf("signing key %s: %v", path, err)
	}
	var priv ed25519.PrivateKey
	switch k := raw.(type) {
	case ed25519.PrivateKey:
		priv = k
	case *ed25519.PrivateKey:
		priv = *k
	default:
		return nil, fmt.Errorf("signing key %s: holds a %T, not an Ed25519 key; bundles are signed with Ed25519 only: make one with ssh-keygen -t ed25519", path, raw)
	}
	k := FromPrivateKey(priv, path)
	k.SSH = true
	return k, nil
}

// openSSHPublicHalf reads the public key that an OpenSSH private key file stores in the clear
// (PROTOCOL.key: "openssh-key-v1\0", cipher, kdf, kdf options, key count, then the first public key), so that
// an sk- or RSA key is named as such even when encrypted. nil when it cannot be read.
func openSSHPublicHalf(data []byte) ssh.PublicKey {
	block, _ := pem.Decode(data)
	if block == nil {
		return nil
	}
	rest, ok := bytes.CutPrefix(block.Bytes, []byte("openssh-key-v1\x00"))
	if !ok {
		return nil
	}
	var h struct {
		Cipher, KDF, KDFOpts string
		N                    uint32
		Pub                  []byte
		Rest                 []byte `ssh:"rest"`
	}
	if ssh.Unmarshal(rest, &h) != nil || h.N < 1 {
		return nil
	}
	pub, err := ssh.ParsePublicKey(h.Pub)
	if err != nil {
		return nil
	}
	return pub
}

// fromAgent finds pub among the keys ssh-agent holds (SSH_AUTH_SOCK) and returns a Key that signs through it.
func fromAgent(pub ssh.PublicKey, getenv func(string) string, path string) (*Key, error) {
	if err := checkType(pub.Type()); err != nil {
		return nil, err
	}
	fp := ssh.FingerprintSHA256(pub)
	sock := getenv("SSH_AUTH_SOCK")
	if sock == "" {
		return nil, fmt.Errorf("the private half of %s must be in ssh-agent, but SSH_AUTH_SOCK is not set: start ssh-agent and ssh-add the key", fp)
	}
	conn, err := net.Dial("unix", sock)
	if err != nil {
		return nil, fmt.Errorf("connect to ssh-agent at SSH_AUTH_SOCK=%s: %v", sock, err)
	}
	signers, err := agent.NewClient(conn).Signers()
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("list the keys of ssh-agent: %v", err)
	}
	want := pub.Marshal()
	for _, s := range signers {
		if bytes.Equal(s.PublicKey().Marshal(), want) {
			src := "ssh-agent (" + fp + ")"
			if path != "" {
				src = path + " via " + src
			}
			return &Key{pub: Ed25519(pub), signer: s, conn: conn, SSH: true, Source: src}, nil
		}
	}
	conn.Close()
	return nil, fmt.Errorf("ssh-agent holds no key %s: run ssh-add with its private key", fp)
}

// LoadPublicKey reads the public half of an SSH signing key as LoadKey names it ("key::…", a .pub file, or an
// OpenSSH private key file, whose public key is stored in the clear even when encrypted), for making a card
// that verifiers without SSH (upstream's Python, the browser page) can trust. Only ssh-ed25519 keys.
func LoadPublicKey(spec string) (ed25519.PublicKey, error) {
	var data []byte
	if lit, ok := strings.CutPrefix(spec, LiteralPrefix); ok {
		data = []byte(lit)
	} else {
		var err error
		if data, err = regularfile.ReadFile(spec, "SSH key", maxKeyFile); err != nil {
			return nil, err
		}
	}
	var pub ssh.PublicKey
	if bytes.HasPrefix(bytes.TrimSpace(data), []byte("-----BEGIN OPENSSH PRIVATE KEY-----")) {
		if pub = openSSHPublicHalf(data); pub == nil {
			return nil, fmt.Errorf("SSH key %s: cannot read the public key of this OpenSSH private key", spec)
		}
		if err := checkType(pub.Type()); err != nil {
			return nil, fmt.Errorf("SSH key %s: %w", spec, err)
		}
	} else {
		var err error
		if pub, err = parsePublic(data); err != nil {
			return nil, fmt.Errorf("SSH key %s: %w", spec, err)
		}
	}
	return Ed25519(pub), nil
}
