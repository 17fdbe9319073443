package inbrowser

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/attest"
	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/sshsig"
	"github.com/git-bernstein/git-bernstein/internal/verify"
	"github.com/git-bernstein/git-bernstein/internal/verify/verifytest"
)

// TestCheckMatchesVerify: the browser entry point answers as the verifier does, with its JSON byte for byte.
func TestCheckMatchesVerify(t *testing.T) {
	cases := []struct {
		name      string
		archive   []byte
		sig       []byte
		cards     []Card
		verdict   string
		firstFail string
	}{
		{"empty archive", nil, nil, nil, verify.Unverifiable, verify.CheckArchive},
		{"not gzip", []byte("hello"), []byte("x..y"), nil, verify.Unverifiable, verify.CheckArchive},
		{"bad card", []byte("hello"), nil, []Card{{Name: "card.json", Data: []byte("{}")}}, verify.Unverifiable, verify.CheckTrust},
		{"huge card", nil, nil, []Card{{Name: "big.json", Data: make([]byte, 1<<20)}}, verify.Unverifiable, verify.CheckTrust},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var res Result
			if err := json.Unmarshal(Check(tc.archive, tc.sig, tc.cards), &res); err != nil {
				t.Fatal(err)
			}
			var rep verify.Report
			if err := json.Unmarshal([]byte(res.Report), &rep); err != nil {
				t.Fatal(err)
			}
			if rep.Verdict != tc.verdict || rep.FirstFailure() != tc.firstFail || res.Means == "" || res.NotMeans == "" {
				t.Errorf("%+v / %+v", rep, res)
			}
			if res.Text == "" || res.Text[len(res.Text)-1] != '\n' {
				t.Errorf("text %q", res.Text)
			}
		})
	}
}

func TestNextSteps(t *testing.T) {
	rep := func(verdict string, code int, checks ...verify.Check) *verify.Report {
		return &verify.Report{Verdict: verdict, ExitCode: code, Checks: checks}
	}
	pass := func(name string) verify.Check { return verify.Check{Check: name, Status: verify.Pass} }
	fail := func(name string) verify.Check { return verify.Check{Check: name, Status: verify.Fail} }
	unusable := func(name string) verify.Check { return verify.Check{Check: name, Status: verify.CannotCheck} }
	cases := []struct {
		name   string
		rep    *verify.Report
		signed bool
		cards  int
		want   string
	}{
		{"verified", rep(verify.Verified, 0), true, 1, ""},
		{"damaged", rep(verify.Unverifiable, 2, unusable(verify.CheckArchive)), true, 1, "send it again"},
		{"edited", rep(verify.Failed, 1, pass(verify.CheckArchive), pass(verify.CheckManifest), fail(verify.CheckFiles)), true, 1, "sha256sum 'my bundle.tar.gz'"},
		{"wrong key", rep(verify.Failed, 1, pass(verify.CheckFiles), fail(verify.CheckSignature), fail(verify.CheckTrust)), true, 1, "signer's own"},
		{"no signature", rep(verify.Unverifiable, 2, pass(verify.CheckFiles)), false, 1, "my bundle.tar.gz.jws"},
		{"no card", rep(verify.Unverifiable, 2, pass(verify.CheckFiles)), true, 0, "from them directly"},
		{"offline pull request", &verify.Report{Verdict: verify.Verified, Warnings: []string{"pr-sources: …"},
			Checks: []verify.Check{pass(verify.CheckTrust), {Check: verify.CheckPRSources, Status: verify.Warn}}}, true, 1, "Compare it with the pull request on GitHub"},
	}
	for _, c := range cases {
		got := strings.Join(NextSteps(c.rep, "my bundle.tar.gz", c.signed, c.cards), "\n")
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestCorpusInThePage: the page's entry point (the code compiled to WebAssembly) gives every corpus case the
// verdict verify gives, the forged tar shapes included.
func TestCorpusInThePage(t *testing.T) {
	t.Parallel()
	for _, c := range verifytest.Cases(t) {
		if !c.Defaults {
			continue // the page has no limit or --strict flags
		}
		var cards []Card
		for _, f := range c.CardFiles {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			cards = append(cards, Card{Name: filepath.Base(f), Data: data})
		}
		var res Result
		if err := json.Unmarshal(Check(c.Archive, c.Signature, cards), &res); err != nil {
			t.Fatal(err)
		}
		var rep verify.Report
		if err := json.Unmarshal([]byte(res.Report), &rep); err != nil {
			t.Fatal(err)
		}
		if rep.ExitCode != c.Exit || rep.FirstFailure() != c.FirstFailure {
			t.Errorf("%s (%s): exit %d, first failure %q; want %d, %q", c.Name, c.Defect, rep.ExitCode, rep.FirstFailure(), c.Exit, c.FirstFailure)
		}
		// The change controls are judged only on a VERIFIED bundle, as audit judges them.
		if verified := rep.Verdict == verify.Verified; verified != (res.Controls != "") || verified != strings.Contains(res.ControlsText, "controls: ") {
			t.Errorf("%s: verdict %s, controls %q", c.Name, rep.Verdict, res.ControlsText)
		}
	}
}

// sigstoreOver is the .sigstore.json that bundle --attest writes for archive as kid ssh-kid (about subject
// instead, when given: a statement of other bytes).
func sigstoreOver(t *testing.T, priv ed25519.PrivateKey, name string, archive []byte, subject ...[]byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(archive))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	if h, err := tr.Next(); err != nil || h.Name != "manifest.json" {
		t.Fatalf("first member: %v", err)
	}
	manifest, err := io.ReadAll(tr)
	if err != nil {
		t.Fatal(err)
	}
	about := archive
	if len(subject) > 0 {
		about = subject[0]
	}
	sum := sha256.Sum256(about)
	env, err := attest.SealBundle(priv, "ssh-kid", name, hex.EncodeToString(sum[:]), manifest)
	if err != nil {
		t.Fatal(err)
	}
	b, err := attest.WrapSigstore(env)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSidecarsInThePage: the page checks a .sig, an .intoto.jsonl and a .sigstore.json given beside the archive, as verify checks
// the files beside it: a good SSHSIG by a key in a card passes, one over other bytes fails, and an envelope that
// is not one makes the attestation line unusable, as the CLI says.
func TestSidecarsInThePage(t *testing.T) {
	var ok *verifytest.Case
	for _, c := range verifytest.Cases(t) {
		if c.Exit == 0 && c.Defaults && len(c.CardFiles) > 0 {
			ok = &c
			break
		}
	}
	if ok == nil {
		t.Fatal("no VERIFIED case in the corpus")
	}
	var cards []Card
	for _, f := range ok.CardFiles {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cards = append(cards, Card{Name: filepath.Base(f), Data: data})
	}
	pub, priv, _ := ed25519.GenerateKey(nil)
	card, err := sign.MarshalCard("ssh-signer", "ssh-kid", pub)
	if err != nil {
		t.Fatal(err)
	}
	cards = append(cards, Card{Name: "ssh.card.json", Data: card})
	sigOver := func(data []byte) []byte {
		sum := sha512.Sum512(data)
		sig, err := sshsig.Sign(priv, sshsig.Namespace, sum[:])
		if err != nil {
			t.Fatal(err)
		}
		return sig
	}
	for _, c := range []struct {
		name string
		side Sidecars
		line string
	}{
		{"good .sig", Sidecars{SSHSig: sigOver(ok.Archive)}, "[PASS] sshsig"},
		{".sig over other bytes", Sidecars{SSHSig: sigOver([]byte("other"))}, "[FAIL] sshsig"},
		{"not an envelope", Sidecars{Attestation: []byte("{}\n")}, "[UNUSABLE] attestation"},
		{"huge .sig", Sidecars{SSHSig: make([]byte, 1<<20)}, "[UNUSABLE] sshsig"},
		{"good .sigstore.json", Sidecars{SigstoreBundle: sigstoreOver(t, priv, ok.Name+".tar.gz", ok.Archive)}, "[PASS] sigstore-bundle"},
		{".sigstore.json of other bytes", Sidecars{SigstoreBundle: sigstoreOver(t, priv, ok.Name+".tar.gz", ok.Archive, []byte("other"))}, "[FAIL] sigstore-bundle"},
		{"not a Sigstore bundle", Sidecars{SigstoreBundle: []byte("{}\n")}, "[UNUSABLE] sigstore-bundle"},
		{"huge .sigstore.json", Sidecars{SigstoreBundle: make([]byte, attest.MaxSigstoreBundle+1)}, "[UNUSABLE] sigstore-bundle"},
	} {
		var res Result
		if err := json.Unmarshal(CheckWith(ok.Name+".tar.gz", ok.Archive, ok.Signature, cards, c.side), &res); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Text, c.line) {
			t.Errorf("%s: no %q line:\n%s", c.name, c.line, res.Text)
		}
	}
}
