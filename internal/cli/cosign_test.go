//go:build cosign

package cli

// `make test-cosign` builds the pinned cosign v3 and v2 and runs these with BERNSTEIN_TEST_COSIGN naming them;
// `go test -tags cosign -run TestCosign ./internal/cli` alone uses the cosign on PATH. cosign cannot reach
// the network here (no transparency log, for v2's --bundle an empty trusted root, and a proxy that refuses
// every connection), and only v2's --signature form tries.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/attest"
	"github.com/git-bernstein/git-bernstein/internal/release"
	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/store"
)

// cosignTool is one cosign binary under test.
type cosignTool struct {
	path, version string // version as `cosign version` prints its GitVersion: v3.1.3
}

func (c cosignTool) v2() bool { return strings.HasPrefix(c.version, "v2.") }

// cosignsUnderTest are the binaries BERNSTEIN_TEST_COSIGN names (separated as PATH is), else the cosign on
// PATH; the test is skipped when there is none. A named binary that does not run fails the test.
func cosignsUnderTest(t *testing.T) []cosignTool {
	t.Helper()
	paths := filepath.SplitList(os.Getenv("BERNSTEIN_TEST_COSIGN"))
	if len(paths) == 0 {
		p, err := exec.LookPath("cosign")
		if err != nil {
			t.Skip("no cosign: `make test-cosign` builds the pinned ones, or put one on PATH")
		}
		paths = []string{p}
	}
	var tools []cosignTool
	for _, p := range paths {
		out, err := exec.Command(p, "version").CombinedOutput()
		if err != nil {
			t.Fatalf("%s version: %v\n%s", p, err, out)
		}
		m := regexp.MustCompile(`GitVersion:\s*(v[23]\.\S+)`).FindSubmatch(out)
		if m == nil {
			t.Fatalf("%s is not a cosign v2 or v3 these tests know:\n%s", p, out)
		}
		tools = append(tools, cosignTool{path: p, version: string(m[1])})
	}
	return tools
}

// attestationCheck is one `cosign verify-blob-attestation` run: the signed file in either form cosign
// reads, the key (a card's public_key_pem), the predicate type asked for and the file it must be about.
type attestationCheck struct {
	name   string
	bundle bool // file is a .sigstore.json (--bundle); else an .intoto.jsonl envelope (--signature)
	file   string
	key    string
	typ    string
	blob   string
	// refusal is what cosign's error must match (one of the reasons below); "" when it must pass
	refusal string
}

// Why cosign refuses, as v2 and v3 word it.
const (
	badSignature = `accepted signatures do not match threshold, Found: 0, Expected 1`
	wrongType    = `invalid predicate type, expected`
	wrongDigest  = `provided artifact digests do not match digests in statement|` + // v3, --bundle
		`provided artifact digest does not match any digest in statement|` + // v2, --bundle
		`no matching subject digest found` // --signature
)

// closedPort is the proxy cosign is given: the discard port on loopback, where nothing listens here, so an
// attempt at the network fails at once and names this address in cosign's output.
const closedPort = "127.0.0.1:9"

// verify runs the check offline in dir: --insecure-ignore-tlog, and for v2 with a bundle the
// --new-bundle-format and an empty trusted root README gives.
func (c cosignTool) verify(t *testing.T, dir string, k attestationCheck) (string, error) {
	t.Helper()
	args := []string{"verify-blob-attestation", "--key", k.key, "--insecure-ignore-tlog", "--type", k.typ}
	switch {
	case !k.bundle:
		args = append(args, "--signature", k.file)
	case c.v2():
		args = append(args, "--bundle", k.file)
		args = append(args, c.bundleFlags(t, dir)...)
	default:
		args = append(args, "--bundle", k.file)
	}
	return c.run(t, dir, append(args, k.blob)...)
}

// bundleFlags are what cosign v2 wants to read a Sigstore bundle offline (README): --new-bundle-format and an
// empty trusted root, so that it fetches none. v3 wants none.
func (c cosignTool) bundleFlags(t *testing.T, dir string) []string {
	t.Helper()
	if !c.v2() {
		return nil
	}
	root := filepath.Join(dir, "empty-trusted-root.json")
	const empty = `{"mediaType":"application/vnd.dev.sigstore.trustedroot+json;version=0.1"}`
	if err := os.WriteFile(root, []byte(empty), 0o644); err != nil {
		t.Fatal(err)
	}
	return []string{"--new-bundle-format", "--trusted-root", root}
}

// run runs cosign in dir with no TUF cache, HOME and DOCKER_CONFIG in dir, and HTTP(S)_PROXY a closed port, so
// that any attempt at the network fails instead of reaching out (Go sends loopback hosts, the test registry's,
// past the proxy).
func (c cosignTool) run(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.path, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "SIGSTORE_NO_CACHE=1", "TUF_ROOT="+filepath.Join(dir, "tuf"), "HOME="+dir,
		"DOCKER_CONFIG="+dir, "HTTPS_PROXY=http://"+closedPort, "HTTP_PROXY=http://"+closedPort, "NO_PROXY=",
		"https_proxy=", "http_proxy=", "no_proxy=")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// judge holds one cosign run to what it must do: pass (refusal ""), or fail with cosign's error matching
// refusal; and, unless mayTryNetwork, never try the network.
func judge(t *testing.T, c cosignTool, out string, err error, refusal string, mayTryNetwork bool) {
	t.Helper()
	switch {
	case refusal == "" && err != nil:
		t.Errorf("cosign %s refused it: %v\n%s", c.version, err, out)
	case refusal != "" && err == nil:
		t.Errorf("cosign %s accepted it:\n%s", c.version, out)
	case refusal != "" && !regexp.MustCompile(refusal).MatchString(out):
		t.Errorf("cosign %s refused it (%v), but not with %q:\n%s", c.version, err, refusal, out)
	}
	if strings.Contains(out, closedPort) && !mayTryNetwork {
		t.Errorf("cosign %s tried the network:\n%s", c.version, out)
	}
}

// runChecks runs every check with every cosign under test, each a subtest named for the version and check.
func runChecks(t *testing.T, dir string, checks []attestationCheck) {
	t.Helper()
	for _, c := range cosignsUnderTest(t) {
		for _, k := range checks {
			t.Run(c.version+"/"+k.name, func(t *testing.T) {
				out, err := c.verify(t, dir, k)
				// README calls these checks offline; only v2's --signature form first tries to fetch
				// Sigstore's trust root (and goes on without it, warning), as README says.
				judge(t, c, out, err, k.refusal, c.v2() && !k.bundle)
			})
		}
	}
}

// writePubPEM is what an auditor does with a card: its public_key_pem into a file (`jq -r .public_key_pem`).
func writePubPEM(t *testing.T, card string) string {
	t.Helper()
	data, err := os.ReadFile(card)
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		PEM string `json:"public_key_pem"`
	}
	if err := json.Unmarshal(data, &c); err != nil || c.PEM == "" {
		t.Fatalf("%s: no public_key_pem (%v)", card, err)
	}
	p := strings.TrimSuffix(card, ".card.json") + ".pub.pem"
	if err := os.WriteFile(p, []byte(c.PEM), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// forged writes a copy of a signed file (.intoto.jsonl or .sigstore.json) as an attacker would change it, the
// signature kept: the statement's text with old replaced by new, or (old "") the signature's first byte
// flipped.
func forged(t *testing.T, src, dst, old, new string) string {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	field := `"payload":"`
	if old == "" {
		field = `"sig":"`
	}
	i := bytes.Index(data, []byte(field))
	if i < 0 {
		t.Fatalf("%s has no %s", src, field)
	}
	i += len(field)
	j := i + bytes.IndexByte(data[i:], '"')
	raw, err := base64.StdEncoding.DecodeString(string(data[i:j]))
	if err != nil {
		t.Fatal(err)
	}
	if old == "" {
		raw[0] ^= 1
	} else if raw = bytes.ReplaceAll(raw, []byte(old), []byte(new)); !strings.Contains(string(raw), new) {
		t.Fatalf("%s: the statement has no %q to replace", src, old)
	}
	out := append(append(append([]byte{}, data[:i]...), base64.StdEncoding.EncodeToString(raw)...), data[j:]...)
	if err := os.WriteFile(dst, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// changedCopy writes src's bytes with the last one flipped to dst, the same file name in another folder.
func changedCopy(t *testing.T, src, dst string) string {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)-1] ^= 1
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

func sha256Hex(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// attested is what one signer signed: the same statement as .sigstore.json and as .intoto.jsonl, the key
// (public_key_pem files of the signer's card and of another) and the files the statement is or is not about.
type attested struct {
	bundle, envelope string
	typ              string   // the statement's predicateType
	about            []string // files among its subjects; cases that change a file change the first
	notAbout         string   // a file beside them that is not a subject
	key, otherKey    string
}

// checks are the runs of cosign both tests make of both forms: each file the statement is about passes, and
// cosign refuses another key, another predicate type, a file not among the subjects, a changed file, a
// statement rewritten (signature kept) to describe the changed file, and a changed signature.
func (a attested) checks(t *testing.T, dir string) []attestationCheck {
	t.Helper()
	otherType := attest.PredicateType
	if a.typ == otherType {
		otherType = release.ProvenanceType
	}
	subject := a.about[0]
	changed := changedCopy(t, subject, filepath.Join(dir, "changed", filepath.Base(subject)))
	var checks []attestationCheck
	for _, form := range []struct {
		name   string
		bundle bool
		file   string
	}{{"bundle", true, a.bundle}, {"envelope", false, a.envelope}} {
		base := filepath.Join(dir, filepath.Base(form.file))
		rewritten := forged(t, form.file, base+".rewritten", sha256Hex(t, subject), sha256Hex(t, changed))
		badSig := forged(t, form.file, base+".badsig", "", "")
		var cases []attestationCheck
		for _, f := range a.about {
			cases = append(cases, attestationCheck{filepath.Base(f), false, form.file, a.key, a.typ, f, ""})
		}
		cases = append(cases,
			attestationCheck{"another key", false, form.file, a.otherKey, a.typ, subject, badSignature},
			attestationCheck{"another predicate type", false, form.file, a.key, otherType, subject, wrongType},
			attestationCheck{"a file it is not about", false, form.file, a.key, a.typ, a.notAbout, wrongDigest},
			attestationCheck{"changed " + filepath.Base(subject), false, form.file, a.key, a.typ, changed, wrongDigest},
			attestationCheck{"rewritten for the changed file", false, rewritten, a.key, a.typ, changed, badSignature},
			attestationCheck{"changed signature", false, badSig, a.key, a.typ, subject, badSignature},
		)
		for _, k := range cases {
			k.name, k.bundle = form.name+"/"+k.name, form.bundle
			checks = append(checks, k)
		}
	}
	return checks
}

// TestCosignVerifiesBundleAttestation is README's cosign recipe ("In-toto attestations") run by real cosign on
// what `bundle --attest` writes: the .sigstore.json (--bundle) and the .intoto.jsonl (--signature, cosign's
// older form, deprecated in v3) pass for the archive with the card's key and the manifest's predicate type,
// and attested.checks' tampering fails.
func TestCosignVerifiesBundleAttestation(t *testing.T) {
	r := ticketRepo(t)
	r.Git("merge", "-q", "--no-ff", "-m", "Merge branch 'feature/ENG-42-login'", "feature/ENG-42-login")
	dir := t.TempDir()
	for _, kid := range []string{"alice-2026", "mallory"} {
		if _, se, code := runIn(t, dir, nil, "keygen", "--kid", kid); code != 0 {
			t.Fatal(se)
		}
	}
	archive := filepath.Join(dir, "ENG-42.tar.gz")
	if _, se, code := runIn(t, r.Dir, r.Env, "bundle", "--no-pr", "--attest", "--sign-key",
		filepath.Join(dir, "alice-2026.pem"), "--sign-kid", "alice-2026", "--out", archive, "ENG-42"); code != 0 {
		t.Fatal(se)
	}
	a := attested{bundle: archive + attest.SigstoreSuffix, envelope: archive + attest.Suffix,
		typ: attest.PredicateType, about: []string{archive}, notAbout: archive + ".jws",
		key:      writePubPEM(t, filepath.Join(dir, "alice-2026.card.json")),
		otherKey: writePubPEM(t, filepath.Join(dir, "mallory.card.json"))}
	runChecks(t, dir, a.checks(t, dir))
}

// TestCosignVerifiesRelease is README's install recipe run by real cosign on a release that release.Write
// made (as `make release` does, over stand-in binaries): `cosign verify-blob-attestation --bundle
// provenance.sigstore.json --key card.pub.pem --insecure-ignore-tlog --type https://slsa.dev/provenance/v1
// git-bernstein-linux-amd64` passes for each file SHA256SUMS lists and for SHA256SUMS itself, in both forms
// (provenance.intoto.jsonl with --signature), and attested.checks' tampering fails.
func TestCosignVerifiesRelease(t *testing.T) {
	dir := t.TempDir()
	for _, kid := range []string{"release-2026", "mallory"} {
		if _, se, code := runIn(t, dir, nil, "keygen", "--kid", kid); code != 0 {
			t.Fatal(se)
		}
	}
	rel := filepath.Join(dir, "release")
	if err := os.Mkdir(rel, 0o755); err != nil {
		t.Fatal(err)
	}
	key, err := sign.LoadPrivateKey(filepath.Join(dir, "release-2026.pem"))
	if err != nil {
		t.Fatal(err)
	}
	targets := []release.Target{{OS: "linux", Arch: "amd64"}, {OS: "darwin", Arch: "arm64"}}
	var about []string
	for _, tg := range targets {
		about = append(about, filepath.Join(rel, tg.Binary("git-bernstein")))
		if err := os.WriteFile(about[len(about)-1], []byte("stand-in for "+tg.String()), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/git-bernstein/git-bernstein"}}
	facts := release.BuildFacts{Version: "v1.0.0", Commit: strings.Repeat("a", 40), Targets: targets,
		Env: release.BuildEnv}
	names := []string{filepath.Base(about[0]), filepath.Base(about[1])}
	infos := []*debug.BuildInfo{bi, bi}
	if err := release.Write(rel, names, infos, []byte("{}\n"), facts, key, "release-2026"); err != nil {
		t.Fatal(err)
	}
	a := attested{bundle: filepath.Join(rel, release.ProvenanceSigstoreFile),
		envelope: filepath.Join(rel, release.ProvenanceFile), typ: release.ProvenanceType,
		about:    append(about, filepath.Join(rel, release.SBOMFile), filepath.Join(rel, release.SumsFile)),
		notAbout: filepath.Join(rel, release.SumsSigFile),
		key:      writePubPEM(t, filepath.Join(dir, "release-2026.card.json")),
		otherKey: writePubPEM(t, filepath.Join(dir, "mallory.card.json"))}
	runChecks(t, dir, a.checks(t, dir))
}

// TestCosignVerifiesOCIAttestation is README's registry recipe ("OCI registry") run by real cosign against
// go-containerregistry's registry on 127.0.0.1: after the hook records and uploads a bundle with --attest,
// `cosign verify-attestation --key card.pub.pem --insecure-ignore-tlog --allow-http-registry --type
// <predicateType> HOST/REPO@<manifest>` finds the Sigstore bundle among the archive's referrers and accepts it,
// its statement naming that manifest; another key and another predicate type are refused. The archive's
// .sigstore.json and .intoto.jsonl, whose statement has that second subject, pass and fail as a bundle's do.
func TestCosignVerifiesOCIAttestation(t *testing.T) {
	cosigns := cosignsUnderTest(t)
	url := ociStore(t, true)
	r := ticketRepo(t)
	dir := t.TempDir()
	for _, kid := range []string{"k1", "mallory"} {
		if _, se, code := runIn(t, dir, nil, "keygen", "--kid", kid); code != 0 {
			t.Fatal(se)
		}
	}
	head, sum := hookToStore(t, r, r.Env, filepath.Join(dir, "k1.pem"), url)
	archive := hookArchive(r, head)
	ref := strings.TrimPrefix(url, "oci://") + "@" + manifestDigest(t, url, store.TagFor(sum))
	good := writePubPEM(t, filepath.Join(dir, "k1.card.json"))
	other := writePubPEM(t, filepath.Join(dir, "mallory.card.json"))
	for _, c := range cosigns {
		for _, k := range []struct {
			name, key, typ, refusal string
		}{
			{"intact", good, attest.PredicateType, ""},
			{"another key", other, attest.PredicateType, badSignature},
			{"another predicate type", good, release.ProvenanceType, `none of the attestations matched the predicate type`},
		} {
			t.Run(c.version+"/"+k.name, func(t *testing.T) {
				args := []string{"verify-attestation", "--key", k.key, "--insecure-ignore-tlog", "--allow-http-registry",
					"--type", k.typ}
				out, err := c.run(t, dir, append(append(args, c.bundleFlags(t, dir)...), ref)...)
				judge(t, c, out, err, k.refusal, false)
			})
		}
	}
	// The same statement, with its second subject, checked against the archive as README's blob recipe does.
	a := attested{bundle: archive + attest.SigstoreSuffix, envelope: archive + attest.Suffix,
		typ: attest.PredicateType, about: []string{archive}, notAbout: archive + ".jws", key: good, otherKey: other}
	runChecks(t, dir, a.checks(t, dir))
}
