package verify

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/git-bernstein/git-bernstein/internal/attest"
	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/sshsig"
)

// sshFixture is the corpus's good bundle with an SSHSIG and an attestation made by the corpus's test key.
type sshFixture struct {
	archive, jws, sig, env, manifest []byte
	sigstore                         []byte
	priv                             ed25519.PrivateKey
	cards                            []sign.TrustedKey
	pubLine                          string
}

func newSSHFixture(t *testing.T) sshFixture {
	t.Helper()
	var f sshFixture
	f.archive, f.jws = readCorpus(t, "good.tar.gz"), readCorpus(t, "good.tar.gz.jws")
	priv, err := sign.LoadPrivateKey(filepath.Join(corpusDir, "test-only-key.pem"))
	if err != nil {
		t.Fatal(err)
	}
	f.priv = priv
	if f.cards, err = sign.LoadCard(filepath.Join(corpusDir, "test-only.card.json")); err != nil {
		t.Fatal(err)
	}
	h512 := sha512.Sum512(f.archive)
	if f.sig, err = sshsig.Sign(priv, sshsig.Namespace, h512[:]); err != nil {
		t.Fatal(err)
	}
	c, fail := readArchive(bytes.NewReader(f.archive), DefaultLimits(), nil)
	if fail != nil {
		t.Fatal(fail.detail)
	}
	f.manifest = c.manifestJSON
	h256 := sha256.Sum256(f.archive)
	if f.env, err = attest.SealBundle(priv, "test-only", "good.tar.gz", hex.EncodeToString(h256[:]), f.manifest); err != nil {
		t.Fatal(err)
	}
	if f.sigstore, err = attest.WrapSigstore(f.env); err != nil {
		t.Fatal(err)
	}
	pub, _ := ssh.NewPublicKey(priv.Public())
	f.pubLine = strings.TrimSpace(string(ssh.MarshalAuthorizedKey(pub)))
	return f
}

func allowedFrom(t *testing.T, text string) []sshsig.AllowedSigner {
	t.Helper()
	a, err := sshsig.ParseAllowedSigners([]byte(text), "allowed_signers", time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func status(r *Report, check string) Status {
	if c := r.find(check); c != nil {
		return c.Status
	}
	return ""
}

func TestSidecarsVerify(t *testing.T) {
	f := newSSHFixture(t)
	opts := Options{SSHSig: f.sig, Attestation: f.env, ArchiveName: "good.tar.gz"}

	r := Verify(bytes.NewReader(f.archive), f.jws, f.cards, opts)
	if r.Verdict != Verified || status(r, CheckSSHSig) != Pass || status(r, CheckAttestation) != Pass {
		t.Fatalf("with the card:\n%s", r.Text())
	}
	// The same trust from an allowed signers line, the JWS's kid as the principal.
	opts.AllowedSigners = allowedFrom(t, "test-only "+f.pubLine+"\n")
	r = Verify(bytes.NewReader(f.archive), f.jws, nil, opts)
	if r.Verdict != Verified || status(r, CheckSSHSig) != Pass || status(r, CheckAttestation) != Pass ||
		!strings.Contains(r.find(CheckTrust).Detail, "allowed_signers:1") {
		t.Fatalf("with allowed signers:\n%s", r.Text())
	}
	// No keys at all: intact, unverifiable, and the two sidecars say they were not checked against a key.
	opts.AllowedSigners = nil
	r = Verify(bytes.NewReader(f.archive), f.jws, nil, opts)
	if r.Verdict != Unverifiable || status(r, CheckSSHSig) != Warn || status(r, CheckAttestation) != Warn {
		t.Fatalf("no keys:\n%s", r.Text())
	}
	// Other archive bytes (another intact bundle): both sidecars fail, whatever keys are given.
	other := readCorpus(t, "good-legacy.tar.gz")
	if bytes.Equal(other, f.archive) {
		t.Fatal("corpus bundles are the same")
	}
	for _, keys := range [][]sign.TrustedKey{f.cards, nil} {
		r = Verify(bytes.NewReader(other), nil, keys, opts)
		if r.Verdict != Failed || status(r, CheckSSHSig) != Fail || status(r, CheckAttestation) != Fail {
			t.Fatalf("other bytes (keys %d):\n%s", len(keys), r.Text())
		}
	}
	// A .sig made for another namespace fails; garbage is unusable.
	h := sha512.Sum512(f.archive)
	wrongNS, _ := sshsig.Sign(f.priv, "git", h[:])
	r = Verify(bytes.NewReader(f.archive), f.jws, f.cards, Options{SSHSig: wrongNS})
	if r.Verdict != Failed || !strings.Contains(r.find(CheckSSHSig).Detail, "another namespace") {
		t.Fatalf("wrong namespace:\n%s", r.Text())
	}
	r = Verify(bytes.NewReader(f.archive), f.jws, f.cards, Options{SSHSig: []byte("junk"), Attestation: []byte("junk")})
	if r.Verdict != Unverifiable || status(r, CheckSSHSig) != CannotCheck || status(r, CheckAttestation) != CannotCheck {
		t.Fatalf("junk sidecars:\n%s", r.Text())
	}
}

func TestAllowedSignersTrust(t *testing.T) {
	f := newSSHFixture(t)
	fp := sshsig.FingerprintOf(mustSSH(t, f.priv))
	byFP, err := sign.SignDetached(f.priv, fp, mustCanon(t, f.manifest))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, allowed string
		jws           []byte
		verdict       string
		detail        string
	}{
		{"principal", "test-only " + f.pubLine, f.jws, Verified, "principal test-only"},
		{"wildcard principal", "test-* " + f.pubLine, f.jws, Verified, "principal test-*"},
		{"fingerprint kid, any principal", "alice@example.com " + f.pubLine, []byte(byFP), Verified, "fingerprint"},
		{"other principal", "alice@example.com " + f.pubLine, f.jws, Failed, "no allowed signers line allows"},
		{"negated", "*,!test-only " + f.pubLine, f.jws, Failed, "no allowed signers line allows"},
		{"namespace git only", `test-only namespaces="git" ` + f.pubLine, f.jws, Failed, `does not allow "git-bernstein"`},
		{"expired before created_at", `test-only valid-before="20200101Z" ` + f.pubLine, f.jws, Failed, "expired"},
		{"not yet valid at created_at", `test-only valid-after="20991231Z" ` + f.pubLine, f.jws, Failed, "not valid before"},
		{"cert authority", `test-only cert-authority ` + f.pubLine, f.jws, Failed, "cert-authority"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := Verify(bytes.NewReader(f.archive), c.jws, nil, Options{AllowedSigners: allowedFrom(t, c.allowed)})
			tr := r.find(CheckTrust)
			if r.Verdict != c.verdict || tr == nil || !strings.Contains(tr.Detail+strings.Join(tr.Problems, "|"), c.detail) {
				t.Fatalf("want %s mentioning %q:\n%s", c.verdict, c.detail, r.Text())
			}
		})
	}
	// A card and an allowed signers line giving one kid two keys: refused, as two cards are.
	_, other, _ := ed25519.GenerateKey(nil)
	op, _ := ssh.NewPublicKey(other.Public())
	r := Verify(bytes.NewReader(f.archive), f.jws, f.cards, Options{AllowedSigners: allowedFrom(t, "test-only "+string(ssh.MarshalAuthorizedKey(op)))})
	if r.Verdict != Unverifiable || !strings.Contains(r.find(CheckTrust).Detail, "two different keys") {
		t.Fatalf("conflict:\n%s", r.Text())
	}
}

func mustSSH(t *testing.T, priv ed25519.PrivateKey) ssh.PublicKey {
	k, err := ssh.NewPublicKey(priv.Public())
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func mustCanon(t *testing.T, m []byte) []byte {
	c, err := sign.Canonicalize(m)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestSigstoreBundleVerify: the .sigstore.json gets a line of its own, trusted only through the keys the user
// gave (the hint picks one, as the envelope's keyid does), and held to the archive as the .intoto.jsonl is.
func TestSigstoreBundleVerify(t *testing.T) {
	f := newSSHFixture(t)
	opts := Options{SigstoreBundle: f.sigstore, ArchiveName: "good.tar.gz"}
	line := func(r *Report) string {
		if c := r.find(CheckSigstoreBundle); c != nil {
			return c.Detail + " " + strings.Join(c.Problems, "; ")
		}
		return "(no line)"
	}

	r := Verify(bytes.NewReader(f.archive), f.jws, f.cards, opts)
	if r.Verdict != Verified || status(r, CheckSigstoreBundle) != Pass || !strings.Contains(line(r), `publicKey.hint "test-only"`) {
		t.Fatalf("with the card:\n%s", r.Text())
	}
	if !strings.Contains(r.Text(), "[PASS] sigstore-bundle") {
		t.Fatalf("no line of its own:\n%s", r.Text())
	}
	opts.AllowedSigners = allowedFrom(t, "test-only "+f.pubLine+"\n")
	if r = Verify(bytes.NewReader(f.archive), f.jws, nil, opts); r.Verdict != Verified || status(r, CheckSigstoreBundle) != Pass {
		t.Fatalf("with allowed signers:\n%s", r.Text())
	}
	// A hint naming no key the user gave: a warning, as for the envelope's keyid.
	opts.AllowedSigners = allowedFrom(t, "alice@example.com "+f.pubLine+"\n")
	r = Verify(bytes.NewReader(f.archive), nil, nil, opts)
	if status(r, CheckSigstoreBundle) != Warn || !strings.Contains(line(r), "which no key you gave has") {
		t.Fatalf("hint naming no given key:\n%s", r.Text())
	}
	opts.AllowedSigners = nil
	if r = Verify(bytes.NewReader(f.archive), f.jws, nil, opts); status(r, CheckSigstoreBundle) != Warn {
		t.Fatalf("no keys:\n%s", r.Text())
	}

	// Wrong key: the card's kid with another key rejects the signature.
	_, other, _ := ed25519.GenerateKey(nil)
	wrong := []sign.TrustedKey{{Kid: "test-only", Public: other.Public().(ed25519.PublicKey), Source: "other.card.json"}}
	if r = Verify(bytes.NewReader(f.archive), nil, wrong, opts); r.Verdict != Failed || status(r, CheckSigstoreBundle) != Fail ||
		!strings.Contains(line(r), "rejects its signature") {
		t.Fatalf("wrong key:\n%s", r.Text())
	}
	// Tampered payload (another subject digest, re-encoded): the signature no longer verifies.
	var b attest.SigstoreBundle
	if err := json.Unmarshal(f.sigstore, &b); err != nil {
		t.Fatal(err)
	}
	payload, _ := base64.StdEncoding.DecodeString(b.DSSEEnvelope.Payload)
	h := sha256.Sum256(f.archive)
	tampered := strings.Replace(string(f.sigstore), b.DSSEEnvelope.Payload, base64.StdEncoding.EncodeToString(
		bytes.Replace(payload, []byte(hex.EncodeToString(h[:])), []byte(strings.Repeat("0", 64)), 1)), 1)
	opts.SigstoreBundle = []byte(tampered)
	if r = Verify(bytes.NewReader(f.archive), f.jws, f.cards, opts); r.Verdict != Failed || status(r, CheckSigstoreBundle) != Fail {
		t.Fatalf("tampered payload:\n%s", r.Text())
	}
	// Another archive: the statement is about other bytes, with or without keys.
	opts.SigstoreBundle = f.sigstore
	for _, keys := range [][]sign.TrustedKey{f.cards, nil} {
		r = Verify(bytes.NewReader(readCorpus(t, "good-legacy.tar.gz")), nil, keys, opts)
		if r.Verdict != Failed || status(r, CheckSigstoreBundle) != Fail || !strings.Contains(line(r), "does not describe this archive") {
			t.Fatalf("other archive (keys %d):\n%s", len(keys), r.Text())
		}
	}
	// Not a bundle (the bare envelope given as one): unusable.
	opts.SigstoreBundle = f.env
	if r = Verify(bytes.NewReader(f.archive), f.jws, f.cards, opts); r.Verdict != Unverifiable || status(r, CheckSigstoreBundle) != CannotCheck {
		t.Fatalf("envelope as bundle:\n%s", r.Text())
	}
	// Both files beside one archive: two lines, both passing.
	opts.Attestation, opts.SigstoreBundle = f.env, f.sigstore
	if r = Verify(bytes.NewReader(f.archive), f.jws, f.cards, opts); r.Verdict != Verified || status(r, CheckAttestation) != Pass || status(r, CheckSigstoreBundle) != Pass {
		t.Fatalf("both:\n%s", r.Text())
	}
}

// An attestation (and its Sigstore bundle) may name, after the archive, exactly one OCI manifest: the archive as
// an OCI store keeps it (package attest, "OCI manifest subject"). verify passes it and says so on the line;
// any other extra subject, or a second one, is FAILED, signed or not.
func TestAttestationOCIManifestSubject(t *testing.T) {
	t.Parallel()
	f := newSSHFixture(t)
	h256 := sha256.Sum256(f.archive)
	sum := hex.EncodeToString(h256[:])
	manifest := strings.Repeat("5e", 32)
	oci, err := attest.OCIManifestSubject("127.0.0.1:5000/team/evidence", manifest)
	if err != nil {
		t.Fatal(err)
	}
	archive := attest.Subject{Name: "good.tar.gz", Digest: map[string]string{"sha256": sum}}
	for _, tc := range []struct {
		name     string
		subjects []attest.Subject
		want     Status
	}{
		{"the archive and its OCI manifest", []attest.Subject{archive, oci}, Pass},
		{"another file", []attest.Subject{archive, {Name: "evil.tar.gz", Digest: map[string]string{"sha256": manifest}}}, Fail},
		{"a mislabelled OCI manifest", []attest.Subject{archive, {Name: oci.Name, Digest: map[string]string{"sha256": sum}}}, Fail},
		{"two OCI manifests", []attest.Subject{archive, oci, oci}, Fail},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			st, err := attest.Canonical(attest.Statement{Type: attest.StatementType, Subject: tc.subjects,
				PredicateType: attest.PredicateType, Predicate: f.manifest})
			if err != nil {
				t.Fatal(err)
			}
			env, err := attest.Seal(f.priv, "test-only", attest.PayloadType, st)
			if err != nil {
				t.Fatal(err)
			}
			sb, err := attest.WrapSigstore(env)
			if err != nil {
				t.Fatal(err)
			}
			r := Verify(bytes.NewReader(f.archive), f.jws, f.cards, Options{Attestation: env, SigstoreBundle: sb, ArchiveName: "good.tar.gz"})
			for _, check := range []string{CheckAttestation, CheckSigstoreBundle} {
				c := r.find(check)
				if c == nil || c.Status != tc.want {
					t.Fatalf("%s: want %s:\n%s", check, tc.want, r.Text())
				}
				named := strings.Contains(c.Detail, "it also names the OCI manifest "+oci.Name+" ")
				if named != (tc.want == Pass) {
					t.Fatalf("%s: names the OCI manifest: %v:\n%s", check, named, r.Text())
				}
			}
			if tc.want == Pass && r.Verdict != Verified || tc.want == Fail && r.Verdict != Failed {
				t.Fatalf("verdict %s:\n%s", r.Verdict, r.Text())
			}
		})
	}
}
