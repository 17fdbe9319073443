package sshsig

import (
	"crypto/ed25519"
	"crypto/sha512"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/fifotest"
	"github.com/git-bernstein/git-bernstein/internal/sshtest"
)

func noEnv(string) string { return "" }

func sha(msg []byte) []byte { h := sha512.Sum512(msg); return h[:] }

// TestSSHKeygenVerifiesOurSignature: a .sig we write is what `ssh-keygen -Y verify` accepts for the
// namespace git-bernstein, and `ssh-keygen -Y check-novalidate` refuses it for another namespace.
func TestSSHKeygenVerifiesOurSignature(t *testing.T) {
	sshtest.Require(t)
	dir := t.TempDir()
	keyPath := sshtest.Keygen(t, dir, "alice", "ed25519", "")
	key, err := LoadKey(keyPath, noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if !key.SSH || key.Fingerprint() != sshtest.Fingerprint(t, keyPath) {
		t.Fatalf("key %+v, fingerprint %s, want ssh-keygen's %s", key, key.Fingerprint(), sshtest.Fingerprint(t, keyPath))
	}
	msg := []byte("the archive's bytes\x00\xff")
	sig, err := Sign(key, Namespace, sha(msg))
	if err != nil {
		t.Fatal(err)
	}
	msgPath, sigPath, allowed := filepath.Join(dir, "m"), filepath.Join(dir, "m.sig"), filepath.Join(dir, "allowed")
	os.WriteFile(msgPath, msg, 0o644)
	os.WriteFile(sigPath, sig, 0o644)
	os.WriteFile(allowed, []byte("alice@example.com "+sshtest.PublicLine(t, keyPath)+"\n"), 0o644)

	if out, err := sshtest.Try(nil, msg, "ssh-keygen", "-Y", "verify", "-f", allowed, "-I", "alice@example.com", "-n", Namespace, "-s", sigPath); err != nil {
		t.Fatalf("ssh-keygen -Y verify refused our signature: %v\n%s\n%s", err, out, sig)
	}
	if out, err := sshtest.Try(nil, msg, "ssh-keygen", "-Y", "check-novalidate", "-n", "git", "-s", sigPath); err == nil {
		t.Fatalf("ssh-keygen -Y check-novalidate -n git accepted a git-bernstein signature:\n%s", out)
	}
	if out, err := sshtest.Try(nil, append(msg, 'x'), "ssh-keygen", "-Y", "verify", "-f", allowed, "-I", "alice@example.com", "-n", Namespace, "-s", sigPath); err == nil {
		t.Fatalf("ssh-keygen -Y verify accepted changed bytes:\n%s", out)
	}
	// And we read it back.
	v, err := Verify(sig, Namespace, DigestsOf(msg))
	if err != nil || v.Fingerprint != key.Fingerprint() {
		t.Fatalf("Verify: %v, %+v", err, v)
	}
}

// TestVerifyReadsSSHKeygen: what `ssh-keygen -Y sign` writes, Verify accepts, and refuses for other bytes or
// another namespace.
func TestVerifyReadsSSHKeygen(t *testing.T) {
	sshtest.Require(t)
	dir := t.TempDir()
	keyPath := sshtest.Keygen(t, dir, "bob", "ed25519", "")
	msg := []byte("hello\n")
	msgPath := filepath.Join(dir, "m")
	os.WriteFile(msgPath, msg, 0o644)
	sshtest.Run(t, nil, "ssh-keygen", "-q", "-Y", "sign", "-f", keyPath, "-n", Namespace, msgPath)
	sig, err := os.ReadFile(msgPath + ".sig")
	if err != nil {
		t.Fatal(err)
	}
	if v, err := Verify(sig, Namespace, DigestsOf(msg)); err != nil || v.Fingerprint != sshtest.Fingerprint(t, keyPath) {
		t.Fatalf("Verify of ssh-keygen's signature: %v %+v", err, v)
	}
	if _, err := Verify(sig, "git", DigestsOf(msg)); !errors.Is(err, ErrNamespace) {
		t.Fatalf("other namespace: %v, want ErrNamespace", err)
	}
	if _, err := Verify(sig, Namespace, DigestsOf([]byte("hello!"))); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("other bytes: %v, want ErrBadSignature", err)
	}
	for _, bad := range []string{"", "-----BEGIN SSH SIGNATURE-----\nAAAA\n-----END SSH SIGNATURE-----\n", strings.Replace(string(sig), "SSH SIGNATURE", "PGP SIGNATURE", 1)} {
		if _, err := Verify([]byte(bad), Namespace, DigestsOf(msg)); !errors.Is(err, ErrMalformed) {
			t.Errorf("Verify(%.40q) = %v, want ErrMalformed", bad, err)
		}
	}
}

// TestAgentKeys: a public key file, a key:: literal and an encrypted private key file all sign through a
// real ssh-agent, with plain Ed25519 signatures.
func TestAgentKeys(t *testing.T) {
	sshtest.Require(t)
	dir := t.TempDir()
	keyPath := sshtest.Keygen(t, dir, "carol", "ed25519", "")
	sock := sshtest.Agent(t)
	env := func(k string) string {
		if k == "SSH_AUTH_SOCK" {
			return sock
		}
		return ""
	}
	// An encrypted copy of the same key, made before the agent knows it.
	enc := filepath.Join(dir, "carol-enc")
	raw, _ := os.ReadFile(keyPath)
	os.WriteFile(enc, raw, 0o600)
	sshtest.Run(t, nil, "ssh-keygen", "-q", "-p", "-P", "", "-N", "secret pass", "-f", enc)
	if _, err := LoadKey(enc, env); err == nil || !strings.Contains(err.Error(), "encrypted") || !strings.Contains(err.Error(), "ssh-add") {
		t.Fatalf("encrypted key, agent without it: %v; want an error saying to use ssh-agent", err)
	}
	if _, err := LoadKey(enc, noEnv); err == nil || !strings.Contains(err.Error(), "SSH_AUTH_SOCK") {
		t.Fatalf("encrypted key, no agent: %v", err)
	}
	if _, err := LoadKey(keyPath+".pub", env); err == nil || !strings.Contains(err.Error(), "ssh-agent holds no key") {
		t.Fatalf("public key not in agent: %v", err)
	}
	sshtest.Add(t, sock, keyPath)

	pub := sshtest.PublicLine(t, keyPath)
	for _, spec := range []string{keyPath + ".pub", LiteralPrefix + pub, enc} {
		k, err := LoadKey(spec, env)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		msg := []byte("payload " + spec)
		s, err := k.Sign(nil, msg, nil)
		if err != nil || !ed25519.Verify(k.Public().(ed25519.PublicKey), msg, s) || !k.SSH || !strings.Contains(k.Source, "ssh-agent") {
			t.Fatalf("%s: sign through the agent: %v (source %q)", spec, err, k.Source)
		}
		if _, err := Sign(k, Namespace, sha(msg)); err != nil {
			t.Fatal(err)
		}
		k.Close()
	}
}

// TestRefusedKeys: keys that cannot make plain Ed25519 signatures are refused with what to do instead.
func TestRefusedKeys(t *testing.T) {
	sshtest.Require(t)
	dir := t.TempDir()
	ecdsa := sshtest.Keygen(t, dir, "ec", "ecdsa", "")
	for _, spec := range []string{ecdsa, ecdsa + ".pub"} {
		if _, err := LoadKey(spec, noEnv); err == nil || !strings.Contains(err.Error(), "ssh-keygen -t ed25519") {
			t.Errorf("%s: %v, want an error asking for an Ed25519 key", spec, err)
		}
	}
	// A security key's public line (sk-ssh-ed25519@openssh.com): type, 32-byte key, application.
	sk := LiteralPrefix + "sk-ssh-ed25519@openssh.com AAAAGnNrLXNzaC1lZDI1NTE5QG9wZW5zc2guY29tAAAAIKfUFLNuDUIV2TYFWSHVAbAR5ggFG1uChvrcSQaZF5bRAAAABHNzaDo= sk@test"
	if _, err := LoadKey(sk, noEnv); err == nil || !strings.Contains(err.Error(), "security-key") {
		t.Errorf("sk- key: %v, want the security-key explanation", err)
	}
}

// A FIFO given as a key is refused at once by both loaders (a blocking open would wait for a writer for ever).
func TestKeyFileFIFO(t *testing.T) {
	t.Parallel()
	fifo := filepath.Join(t.TempDir(), "key")
	if err := fifotest.Make(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if _, err := LoadKey(fifo, func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("LoadKey of a FIFO: %v", err)
	}
	if _, err := LoadPublicKey(fifo); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("LoadPublicKey of a FIFO: %v", err)
	}
}
