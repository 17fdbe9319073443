package attest

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/sign"
)

// TestPAE is the DSSE specification's example (protocol.md, "Test vector" of PAE).
func TestPAE(t *testing.T) {
	got := string(PAE("http://example.com/HelloWorld", []byte("hello world")))
	if want := "DSSEv1 29 http://example.com/HelloWorld 11 hello world"; got != want {
		t.Fatalf("PAE = %q, want %q", got, want)
	}
	if got := string(PAE("", nil)); got != "DSSEv1 0  0 " {
		t.Fatalf("empty PAE = %q", got)
	}
}

const manifestJSON = `{
  "schema_version": 1,
  "ticket_id": "ENG-42",
  "files": []
}
`

func TestSealOpenCheck(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	archive := []byte("archive bytes")
	sum := sha256.Sum256(archive)
	hexSum := hex.EncodeToString(sum[:])
	line, err := SealBundle(priv, "k1", "ENG-42.tar.gz", hexSum, []byte(manifestJSON))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(line), "\n") != 1 || !strings.HasSuffix(string(line), "\n") {
		t.Fatalf("not one line: %q", line)
	}
	keys := []sign.TrustedKey{{Kid: "k1", Public: pub, Source: "card"}}
	o, err := Open(line, keys)
	if err != nil || o.KeyID != "k1" || o.Source != "card" {
		t.Fatalf("Open: %v %+v", err, o)
	}
	if w, err := CheckBundle(o, "ENG-42.tar.gz", hexSum, []byte(manifestJSON)); err != nil || len(w.Warnings) != 0 || w.OCIManifest != "" {
		t.Fatalf("CheckBundle: %v %v", err, w)
	}
	if w, err := CheckBundle(o, "renamed.tar.gz", hexSum, []byte(manifestJSON)); err != nil || len(w.Warnings) != 1 {
		t.Fatalf("renamed: %v %v", err, w)
	}
	if _, err := CheckBundle(o, "ENG-42.tar.gz", strings.Repeat("0", 64), []byte(manifestJSON)); !errors.Is(err, ErrMismatch) {
		t.Fatalf("other digest: %v", err)
	}
	if _, err := CheckBundle(o, "ENG-42.tar.gz", hexSum, []byte(`{"schema_version":1}`)); !errors.Is(err, ErrMismatch) {
		t.Fatalf("other manifest: %v", err)
	}
	other, _, _ := ed25519.GenerateKey(rand.Reader)
	if _, err := Open(line, []sign.TrustedKey{{Kid: "k1", Public: other}}); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("other key: %v", err)
	}
	if _, err := Open(line, []sign.TrustedKey{{Kid: "k2", Public: pub}}); !errors.Is(err, ErrUnknownKeyID) {
		t.Fatalf("other kid: %v", err)
	}
	if _, err := Open(line, nil); !errors.Is(err, ErrNoKeys) {
		t.Fatalf("no keys: %v", err)
	}
	// One strict reading: a member twice, or a case twin a case-insensitive reader would take instead, is refused.
	twin := strings.Replace(string(line), `"payloadType":`, `"PAYLOADTYPE":"text/plain","payloadType":`, 1)
	upper := strings.Replace(string(line), `"payloadType":`, `"PayloadType":`, 1)
	for _, bad := range []string{"", "{}", `{"payload":"!!","payloadType":"x","signatures":[]}`, string(line) + string(line), twin, upper} {
		if _, err := Open([]byte(bad), keys); !errors.Is(err, ErrMalformed) {
			t.Errorf("Open(%.30q) = %v, want ErrMalformed", bad, err)
		}
	}

	// An implementation that shares nothing with ours accepts the envelope.
	dir := t.TempDir()
	env, pemPath := filepath.Join(dir, "a.intoto.jsonl"), filepath.Join(dir, "pub.pem")
	os.WriteFile(env, line, 0o644)
	p, _ := sign.MarshalPublicKeyPEM(pub)
	os.WriteFile(pemPath, p, 0o644)
	if out, err := Python(t, env, pemPath); err != nil {
		t.Fatalf("independent DSSE check refused our envelope: %v\n%s", err, out)
	}
	// python3 -S hides site-packages, so the script checks Ed25519 with openssl instead of cryptography.
	if out, err := Python(t, "-S", env, pemPath); err != nil {
		t.Fatalf("independent DSSE check (openssl) refused our envelope: %v\n%s", err, out)
	}
	o2, _ := sign.MarshalPublicKeyPEM(other)
	os.WriteFile(pemPath, o2, 0o644)
	if out, err := Python(t, env, pemPath); err == nil {
		t.Fatalf("independent DSSE check accepted another key:\n%s", out)
	}
}

// Python runs testdata/verify_dsse.py, skipping the test (and saying why) when python3 is missing or neither
// the cryptography package nor openssl can check Ed25519.
func Python(t *testing.T, args ...string) (string, error) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed: the independent DSSE check needs it")
	}
	script, _ := filepath.Abs(filepath.Join("testdata", "verify_dsse.py"))
	var flags []string
	if len(args) > 0 && args[0] == "-S" {
		flags, args = []string{"-S"}, args[1:]
	}
	out, err := exec.Command("python3", append(append(flags, script), args...)...).CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 3 {
		t.Skipf("independent DSSE check unavailable: %s", out)
	}
	return string(out), err
}
