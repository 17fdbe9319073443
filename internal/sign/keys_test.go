package sign

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/fifotest"
)

func TestPEMRoundTrip(t *testing.T) {
	pub, priv, err := GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	p, err := MarshalPrivateKeyPEM(priv)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(p, []byte("-----BEGIN PRIVATE KEY-----\n")) {
		t.Errorf("private key PEM starts %q", p[:30])
	}
	path := filepath.Join(t.TempDir(), "k.pem")
	os.WriteFile(path, p, 0o600)
	back, err := LoadPrivateKey(path)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Equal(priv) {
		t.Error("private key changed in the round trip")
	}
	pp, err := MarshalPublicKeyPEM(pub)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(pp, []byte("-----BEGIN PUBLIC KEY-----\n")) {
		t.Errorf("public key PEM starts %q", pp[:30])
	}
	pubBack, err := ParsePublicKeyPEM(pp)
	if err != nil {
		t.Fatal(err)
	}
	if !pubBack.Equal(pub) {
		t.Error("public key changed in the round trip")
	}
	if _, err := MarshalPrivateKeyPEM(priv[:10]); err == nil {
		t.Error("MarshalPrivateKeyPEM accepted a short key")
	}
	if _, err := MarshalPublicKeyPEM(pub[:10]); err == nil {
		t.Error("MarshalPublicKeyPEM accepted a short key")
	}
}

func TestLoadPrivateKeyErrors(t *testing.T) {
	dir := t.TempDir()
	pkcs8 := func(k any) []byte {
		der, err := x509.MarshalPKCS8PrivateKey(k)
		if err != nil {
			t.Fatal(err)
		}
		return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
	}
	rsaKey, _ := rsa.GenerateKey(rand.Reader, 1024)
	ecKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ecDER, _ := x509.MarshalECPrivateKey(ecKey)
	pub, priv := mustKey(t, 5)
	good, _ := MarshalPrivateKeyPEM(priv)
	pubPEM, _ := MarshalPublicKeyPEM(pub)
	tests := []struct {
		name, content, want string
	}{
		{"empty", "", "no PEM block"},
		{"garbage", "not a key\n", "no PEM block"},
		{"rsa pkcs8", string(pkcs8(rsaKey)), "holds an RSA key, not an Ed25519 key"},
		{"ecdsa pkcs8", string(pkcs8(ecKey)), "holds an ECDSA key"},
		{"sec1 ec key", string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: ecDER})), `PEM block "EC PRIVATE KEY" is not a PKCS#8 private key`},
		{"encrypted pkcs8", string(pem.EncodeToMemory(&pem.Block{Type: "ENCRYPTED PRIVATE KEY", Bytes: []byte{1}})), "encrypted"},
		{"legacy encrypted", string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Headers: map[string]string{"Proc-Type": "4,ENCRYPTED"}, Bytes: []byte{1}})), "encrypted"},
		{"openssh", string(pem.EncodeToMemory(&pem.Block{Type: "OPENSSH PRIVATE KEY", Bytes: []byte{1}})), "OpenSSH key"},
		{"public key", string(pubPEM), "this is a public key"},
		{"bad der", string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte{1, 2, 3}})), "parse PKCS#8"},
		{"two blocks", string(good) + string(good), "data after the first PEM block"},
		{"huge", strings.Repeat("x", maxKeyFile+1), "larger than"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".pem")
			os.WriteFile(path, []byte(tc.content), 0o600)
			_, err := LoadPrivateKey(path)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
				t.Fatalf("got %v, want an error naming %s containing %q", err, path, tc.want)
			}
		})
	}
	missing := filepath.Join(dir, "missing.pem")
	if _, err := LoadPrivateKey(missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing key: %v", err)
	}
	// A FIFO named as the key is refused at once (a blocking open would wait for a writer for ever).
	fifo := filepath.Join(dir, "fifo.pem")
	if err := fifotest.Make(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if _, err := LoadPrivateKey(fifo); err == nil || !strings.Contains(err.Error(), fifo) || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("FIFO as key: %v", err)
	}
}

// openssl is the independent judge of our PEM: it must read our private key, derive the same public key, and
// we must read the keys it makes.
func TestOpenSSLInterop(t *testing.T) {
	openssl, err := exec.LookPath("openssl")
	if err != nil {
		t.Skip("openssl not on PATH")
	}
	dir := t.TempDir()
	run := func(args ...string) []byte {
		t.Helper()
		out, err := exec.Command(openssl, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("openssl %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return out
	}
	pub, priv, _ := GenerateKey()
	p, _ := MarshalPrivateKeyPEM(priv)
	ours := filepath.Join(dir, "ours.pem")
	os.WriteFile(ours, p, 0o600)
	run("pkey", "-in", ours, "-noout")
	derived := run("pkey", "-in", ours, "-pubout")
	want, _ := MarshalPublicKeyPEM(pub)
	if !bytes.Equal(derived, want) {
		t.Errorf("openssl derived public key\n%s\nwe have\n%s", derived, want)
	}

	theirs := filepath.Join(dir, "theirs.pem")
	run("genpkey", "-algorithm", "ed25519", "-out", theirs)
	k, err := LoadPrivateKey(theirs)
	if err != nil {
		t.Fatalf("our loader refuses openssl's Ed25519 key: %v", err)
	}
	theirPub := run("pkey", "-in", theirs, "-pubout")
	if got, err := ParsePublicKeyPEM(theirPub); err != nil || !got.Equal(k.Public().(ed25519.PublicKey)) {
		t.Errorf("openssl's public key %v does not match the private key we loaded", err)
	}

	enc := filepath.Join(dir, "enc.pem")
	run("genpkey", "-algorithm", "ed25519", "-aes-256-cbc", "-pass", "pass:x", "-out", enc)
	if _, err := LoadPrivateKey(enc); err == nil || !strings.Contains(err.Error(), "encrypted") {
		t.Errorf("encrypted openssl key: %v", err)
	}
	rsaPath := filepath.Join(dir, "rsa.pem")
	run("genpkey", "-algorithm", "rsa", "-pkeyopt", "rsa_keygen_bits:1024", "-out", rsaPath)
	if _, err := LoadPrivateKey(rsaPath); err == nil || !strings.Contains(err.Error(), "RSA key, not an Ed25519 key") {
		t.Errorf("openssl RSA key: %v", err)
	}
}
