package release

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/attest"
	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/sshsig"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// fakeInfo is the build information of a binary that links two modules, one of them replaced.
func fakeInfo() *debug.BuildInfo {
	return &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/git-bernstein/git-bernstein", Version: "(devel)"},
		Deps: []*debug.Module{
			{Path: "github.com/go-git/go-git/v5", Version: "v5.19.3", Sum: "h1:AAAA"},
			{Path: "golang.org/x/crypto", Version: "v0.1.0", Sum: "h1:BBBB", Replace: &debug.Module{Path: "golang.org/x/crypto", Version: "v0.2.0", Sum: "h1:CCCC"}},
		},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "65e824e0123456789abcdef0123456789abcdef0"}, {Key: "vcs.modified", Value: "false"}}}
}

type fixture struct {
	dir  string
	key  ed25519.PrivateKey
	kid  string
	card string // a card file with the key
}

// newRelease writes a release of two fake binaries, signed by a new key, into a temporary folder.
func newRelease(t *testing.T) fixture {
	t.Helper()
	pub, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	targets := []Target{{"linux", "amd64"}, {"windows", "arm64"}}
	var names []string
	for _, tg := range targets {
		names = append(names, tg.Binary("git-bernstein"))
		if err := os.WriteFile(filepath.Join(dir, tg.Binary("git-bernstein")), []byte("binary for "+tg.String()), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	facts := BuildFacts{Version: "65e824e", Commit: "65e824e0123456789abcdef0123456789abcdef0", Targets: targets,
		Flags: Build{LDFlags: "-s -w"}.Flags(), Env: BuildEnv}
	const kid = "release-2026"
	// The SBOM is package sbom's; a stand-in here, since the checks are about its bytes.
	if err := Write(dir, names, []*debug.BuildInfo{fakeInfo(), fakeInfo()}, []byte(`{"bomFormat":"CycloneDX"}`+"\n"), facts, key, kid); err != nil {
		t.Fatal(err)
	}
	card, err := sign.MarshalCard("git-bernstein", kid, pub)
	if err != nil {
		t.Fatal(err)
	}
	cardPath := filepath.Join(t.TempDir(), "release.card.json")
	if err := os.WriteFile(cardPath, card, 0o644); err != nil {
		t.Fatal(err)
	}
	return fixture{dir: dir, key: key, kid: kid, card: cardPath}
}

func (f fixture) trust(t *testing.T) Trust {
	keys, err := sign.LoadCard(f.card)
	if err != nil {
		t.Fatal(err)
	}
	return Trust{Keys: keys, Now: time.Now()}
}

func failed(r *Report) []string {
	var out []string
	for _, c := range r.Checks {
		if !c.OK {
			out = append(out, c.Name+": "+c.Detail)
		}
	}
	return out
}

func TestReleaseFiles(t *testing.T) {
	f := newRelease(t)
	entries, _ := os.ReadDir(f.dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := "SHA256SUMS SHA256SUMS.sig git-bernstein-linux-amd64 git-bernstein-windows-arm64.exe git-bernstein.cdx.json provenance.intoto.jsonl provenance.sigstore.json"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("release files:\n%s\nwant\n%s", got, want)
	}
	sums, _ := os.ReadFile(filepath.Join(f.dir, SumsFile))
	if n := strings.Count(string(sums), "\n"); n != 3 {
		t.Errorf("SHA256SUMS has %d lines, want the 2 binaries and the SBOM:\n%s", n, sums)
	}
	if r := Verify(f.dir, f.trust(t)); !r.OK() {
		t.Fatalf("a fresh release does not verify: %v", failed(r))
	}
}

func TestProvenanceStatement(t *testing.T) {
	f := newRelease(t)
	data, _ := os.ReadFile(filepath.Join(f.dir, ProvenanceSigstoreFile))
	o, err := attest.OpenSigstore(data, f.trust(t).Keys)
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Type          string           `json:"_type"`
		PredicateType string           `json:"predicateType"`
		Subject       []attest.Subject `json:"subject"`
		Predicate     Provenance       `json:"predicate"`
	}
	if err := json.Unmarshal(o.Payload, &st); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range st.Subject {
		names = append(names, s.Name)
	}
	if got := strings.Join(names, " "); got != "SHA256SUMS git-bernstein-linux-amd64 git-bernstein-windows-arm64.exe git-bernstein.cdx.json" {
		t.Errorf("subjects %s", got)
	}
	bd := st.Predicate.BuildDefinition
	if st.PredicateType != ProvenanceType || bd.BuildType != BuildType || bd.ResolvedDependencies[0].Digest["gitCommit"] == "" ||
		strings.Join(bd.ExternalParameters.Targets, ",") != "linux/amd64,windows/arm64" ||
		!strings.Contains(strings.Join(bd.InternalParameters.Flags, " "), "-buildid=") {
		t.Errorf("statement %s", o.Payload)
	}
}

// TestVerifyRefuses tampers with each part of a release, and gives the wrong key.
func TestVerifyRefuses(t *testing.T) {
	_, other, _ := ed25519.GenerateKey(rand.Reader)
	for _, c := range []struct {
		name   string
		tamper func(t *testing.T, f fixture)
		trust  func(t *testing.T, f fixture) Trust
		want   string // a failed check's name
	}{
		{name: "a binary changed", want: "git-bernstein-linux-amd64", tamper: func(t *testing.T, f fixture) {
			appendTo(t, filepath.Join(f.dir, "git-bernstein-linux-amd64"), "\x00")
		}},
		{name: "the sums rewritten to the changed binary", want: "sshsig", tamper: func(t *testing.T, f fixture) {
			p := filepath.Join(f.dir, "git-bernstein-linux-amd64")
			appendTo(t, p, "\x00")
			sum, _ := fileSHA256(p)
			sums, _ := ParseSums(read(t, filepath.Join(f.dir, SumsFile)))
			for i := range sums {
				if sums[i].Name == "git-bernstein-linux-amd64" {
					sums[i].SHA256 = sum
				}
			}
			write(t, filepath.Join(f.dir, SumsFile), MarshalSums(sums))
		}},
		{name: "a line dropped from the sums", want: "files", tamper: func(t *testing.T, f fixture) {
			lines := strings.SplitAfter(string(read(t, filepath.Join(f.dir, SumsFile))), "\n")
			write(t, filepath.Join(f.dir, SumsFile), []byte(strings.Join(lines[1:], "")))
		}},
		{name: "the provenance's payload changed", want: "provenance", tamper: func(t *testing.T, f fixture) {
			var env attest.Envelope
			p := filepath.Join(f.dir, ProvenanceFile)
			if err := json.Unmarshal(read(t, p), &env); err != nil {
				t.Fatal(err)
			}
			payload := strings.Replace(string(mustB64(t, env.Payload)), "linux/amd64", "linux/386", 1)
			env.Payload = b64(payload)
			out, _ := json.Marshal(env)
			write(t, p, append(out, '\n'))
		}},
		{name: "the provenance re-signed by another key", want: "sigstore-bundle", tamper: func(t *testing.T, f fixture) {
			o, err := attest.OpenSigstore(read(t, filepath.Join(f.dir, ProvenanceSigstoreFile)), f.trust(t).Keys)
			if err != nil {
				t.Fatal(err)
			}
			env, _ := attest.Seal(other, f.kid, attest.PayloadType, o.Payload)
			bundle, _ := attest.WrapSigstore(env)
			write(t, filepath.Join(f.dir, ProvenanceSigstoreFile), bundle)
		}},
		{name: "a file added", want: "files", tamper: func(t *testing.T, f fixture) {
			write(t, filepath.Join(f.dir, "install.sh"), []byte("curl | sh\n"))
		}},
		{name: "the wrong key", want: "sshsig", trust: func(t *testing.T, f fixture) Trust {
			return Trust{Keys: []sign.TrustedKey{{Kid: f.kid, Public: other.Public().(ed25519.PublicKey), Source: "wrong.card.json"}}, Now: time.Now()}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newRelease(t)
			if c.tamper != nil {
				c.tamper(t, f)
			}
			trust := f.trust(t)
			if c.trust != nil {
				trust = c.trust(t, f)
			}
			r := Verify(f.dir, trust)
			if r.OK() {
				t.Fatal("verified")
			}
			bad := failed(r)
			if !strings.HasPrefix(strings.Join(bad, "\n"), c.want+":") && !strings.Contains(strings.Join(bad, "\n"), "\n"+c.want+":") {
				t.Errorf("failed checks %q, want one named %s", bad, c.want)
			}
		})
	}
	t.Run("no key", func(t *testing.T) {
		f := newRelease(t)
		if r := Verify(f.dir, Trust{}); r.OK() || !r.Unusable {
			t.Errorf("no key: %+v", r)
		}
	})
}

// TestAllowedSigners: an allowed signers line, as `card ssh` and keygen print it, is a key too, and the stock
// commands of README's install recipe check the release: ssh-keygen -Y verify on SHA256SUMS.sig, then
// sha256sum -c; ssh-keygen refuses changed sums or another principal, and sha256sum -c a changed binary.
func TestAllowedSigners(t *testing.T) {
	f := newRelease(t)
	line, err := sshsig.AllowedSignersLine(f.kid, f.key.Public().(ed25519.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	allowed, err := sshsig.ParseAllowedSigners([]byte(line+"\n"), "allowed_signers", time.Local)
	if err != nil {
		t.Fatal(err)
	}
	if r := Verify(f.dir, Trust{Allowed: allowed, Now: time.Now()}); !r.OK() {
		t.Fatalf("with the allowed signers line: %v", failed(r))
	}
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		t.Skip("ssh-keygen not on PATH: the stock check is not run")
	}
	as := filepath.Join(t.TempDir(), "allowed_signers")
	write(t, as, []byte(line+"\n"))
	sums := read(t, filepath.Join(f.dir, SumsFile))
	sshKeygen := func(principal string, signed []byte) (string, error) {
		cmd := exec.Command("ssh-keygen", "-Y", "verify", "-f", as, "-I", principal, "-n", sshsig.Namespace, "-s", SumsSigFile)
		cmd.Dir = f.dir
		cmd.Stdin = bytes.NewReader(signed)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := sshKeygen(f.kid, sums); err != nil {
		t.Fatalf("ssh-keygen -Y verify: %v\n%s", err, out)
	}
	changedSums := bytes.Replace(sums, []byte("git-bernstein-linux-amd64"), []byte("git-bernstein-linux-arm64"), 1)
	if out, err := sshKeygen(f.kid, changedSums); err == nil {
		t.Errorf("ssh-keygen -Y verify accepted changed sums:\n%s", out)
	}
	if out, err := sshKeygen("mallory", sums); err == nil {
		t.Errorf("ssh-keygen -Y verify accepted another principal:\n%s", out)
	}
	if _, err := exec.LookPath("sha256sum"); err != nil {
		return
	}
	sha256sum := func() (string, error) {
		cmd := exec.Command("sha256sum", "-c", SumsFile)
		cmd.Dir = f.dir
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := sha256sum(); err != nil {
		t.Fatalf("sha256sum -c: %v\n%s", err, out)
	}
	appendTo(t, filepath.Join(f.dir, "git-bernstein-linux-amd64"), "!")
	if out, err := sha256sum(); err == nil || !strings.Contains(out, "git-bernstein-linux-amd64: FAILED") {
		t.Errorf("sha256sum -c with a changed binary: %v\n%s", err, out)
	}
}

func TestParseSums(t *testing.T) {
	h := strings.Repeat("ab", 32)
	for _, bad := range []string{"", h + "  a", h + " a\n", h + "  ../a\n", h + "  a/b\n", h + "  a\n" + h + "  a\n", strings.ToUpper(h) + "  a\n"} {
		if _, err := ParseSums([]byte(bad)); err == nil {
			t.Errorf("ParseSums(%q) accepted", bad)
		}
	}
	if s, err := ParseSums([]byte(h + " *a.exe\n")); err != nil || s[0].Name != "a.exe" {
		t.Errorf("binary mode line: %v %v", s, err)
	}
}

func appendTo(t *testing.T, path, s string) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(s)
	f.Close()
}

func read(t *testing.T, path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func write(t *testing.T, path string, b []byte) {
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func mustB64(t *testing.T, s string) []byte {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// VerifyDir trusts the keys of the cards and allowed signers files it is given, and only those; a file it
// cannot read is Unusable, naming what to check.
func TestVerifyDir(t *testing.T) {
	f := newRelease(t)
	card := []verify.Card{{Path: f.card, Name: "release.card.json"}}
	if r, err := VerifyDir(Request{Dir: f.dir, Cards: card, Now: time.Now()}); err != nil || !r.OK() {
		t.Fatalf("with the signer's card: %v %v", err, r)
	}
	line, err := sshsig.AllowedSignersLine(f.kid, f.key.Public().(ed25519.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	as := filepath.Join(t.TempDir(), "allowed_signers")
	write(t, as, []byte(line+"\n"))
	allowed := []sshsig.AllowedSignersFile{{Path: as, Name: "allowed_signers"}}
	if r, err := VerifyDir(Request{Dir: f.dir, AllowedSigners: allowed, Local: time.UTC, Now: time.Now()}); err != nil || !r.OK() {
		t.Fatalf("with the allowed signers file: %v %v", err, r)
	}
	if r, err := VerifyDir(Request{Dir: f.dir, Now: time.Now()}); err != nil || r.OK() || !r.Unusable {
		t.Errorf("with no key: %v %+v, want an unusable report", err, r)
	}
	other := newRelease(t)
	if r, err := VerifyDir(Request{Dir: f.dir, Cards: []verify.Card{{Path: other.card, Name: "other"}}, Now: time.Now()}); err != nil || r.OK() {
		t.Errorf("with another signer's card: %v, OK %v", err, r.OK())
	}
	for name, req := range map[string]Request{
		"a missing card":                 {Dir: f.dir, Cards: []verify.Card{{Path: as + ".none", Name: "none.card.json"}}},
		"a missing allowed signers file": {Dir: f.dir, AllowedSigners: []sshsig.AllowedSignersFile{{Path: as + ".none", Name: "none"}}},
	} {
		var unusable *Unusable
		if _, err := VerifyDir(req); !errors.As(err, &unusable) || !strings.Contains(err.Error(), "check ") {
			t.Errorf("%s: %v, want Unusable saying what to check", name, err)
		}
	}
}
