//go:build cosign

package cli

// Run with `go test -tags cosign -run TestCosign ./internal/cli` where cosign (v2 or v3) is on PATH; it never
// reaches the network (no transparency log, and for v2 an empty trusted root).

import (
	"context"
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
	"github.com/git-bernstein/git-bernstein/internal/record"
	"github.com/git-bernstein/git-bernstein/internal/release"
	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/store"
)

// TestCosignVerifiesSigstoreBundle is README's cosign recipe ("In-toto attestations") run by real cosign:
// `cosign verify-blob-attestation --bundle ENG-42.tar.gz.sigstore.json --key card.pub.pem
// --insecure-ignore-tlog --type <predicateType> ENG-42.tar.gz` passes, and fails for another key, another
// predicate type, or another archive.
func TestCosignVerifiesSigstoreBundle(t *testing.T) {
	cosign, err := exec.LookPath("cosign")
	if err != nil {
		t.Skip("cosign is not installed: the stock Sigstore bundle check needs it")
	}
	version, _ := exec.Command(cosign, "version").CombinedOutput()
	major := regexp.MustCompile(`GitVersion:\s*v?(\d+)\.`).FindSubmatch(version)
	if major == nil {
		t.Skipf("cannot tell cosign's version:\n%s", version)
	}
	t.Logf("cosign %s", strings.TrimSpace(string(regexp.MustCompile(`GitVersion:\s*\S+`).Find(version))))

	r := ticketRepo(t)
	r.Git("merge", "-q", "--no-ff", "-m", "Merge branch 'feature/ENG-42-login'", "feature/ENG-42-login")
	dir := t.TempDir()
	for _, kid := range []string{"alice-2026", "mallory"} {
		if _, se, code := runIn(t, dir, nil, "keygen", "--kid", kid); code != 0 {
			t.Fatal(se)
		}
	}
	archive := filepath.Join(dir, "ENG-42.tar.gz")
	if _, se, code := runIn(t, r.Dir, r.Env, "bundle", "--no-pr", "--attest", "--sign-key", filepath.Join(dir, "alice-2026.pem"),
		"--sign-kid", "alice-2026", "--out", archive, "ENG-42"); code != 0 {
		t.Fatal(se)
	}
	// What an auditor does with the card: its public_key_pem into a file (`jq -r .public_key_pem CARD`).
	pemOf := func(card string) string {
		data, err := os.ReadFile(filepath.Join(dir, card+".card.json"))
		if err != nil {
			t.Fatal(err)
		}
		var c struct {
			PEM string `json:"public_key_pem"`
		}
		if err := json.Unmarshal(data, &c); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, card+".pub.pem")
		os.WriteFile(p, []byte(c.PEM), 0o644)
		return p
	}
	good, other := pemOf("alice-2026"), pemOf("mallory")

	run := func(key, predicateType, blob string) (string, error) {
		args := []string{"verify-blob-attestation", "--bundle", archive + attest.SigstoreSuffix, "--key", key,
			"--insecure-ignore-tlog", "--type", predicateType}
		if string(major[1]) == "2" {
			// cosign v2 reads a Sigstore bundle with --new-bundle-format, and wants a trusted root then: an
			// empty one keeps it offline (v3 reads bundles by default).
			root := filepath.Join(dir, "empty-trusted-root.json")
			os.WriteFile(root, []byte(`{"mediaType":"application/vnd.dev.sigstore.trustedroot+json;version=0.1"}`), 0o644)
			args = append(args, "--new-bundle-format", "--trusted-root", root)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, cosign, append(args, blob)...)
		cmd.Env = append(os.Environ(), "SIGSTORE_NO_CACHE=1", "TUF_ROOT="+filepath.Join(dir, "tuf"))
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := run(good, attest.PredicateType, archive); err != nil {
		t.Fatalf("cosign refused our .sigstore.json: %v\n%s", err, out)
	}
	if out, err := run(other, attest.PredicateType, archive); err == nil {
		t.Fatalf("cosign accepted another key:\n%s", out)
	}
	if out, err := run(good, "https://slsa.dev/provenance/v1", archive); err == nil {
		t.Fatalf("cosign accepted another predicate type:\n%s", out)
	}
	otherArchive := filepath.Join(dir, "other.tar.gz")
	os.WriteFile(otherArchive, []byte("not the archive"), 0o644)
	if out, err := run(good, attest.PredicateType, otherArchive); err == nil {
		t.Fatalf("cosign accepted another archive:\n%s", out)
	}
}

// TestCosignVerifiesRelease is README's install recipe run by real cosign: `cosign verify-blob-attestation
// --bundle provenance.sigstore.json --key card.pub.pem --insecure-ignore-tlog --type
// https://slsa.dev/provenance/v1 git-bernstein-linux-amd64` passes for each file of a release, and fails for
// another key or a file the provenance is not about.
func TestCosignVerifiesRelease(t *testing.T) {
	cosign, err := exec.LookPath("cosign")
	if err != nil {
		t.Skip("cosign is not installed: the stock Sigstore bundle check needs it")
	}
	version, _ := exec.Command(cosign, "version").CombinedOutput()
	dir := t.TempDir()
	for _, kid := range []string{"release-2026", "mallory"} {
		if _, se, code := runIn(t, dir, nil, "keygen", "--kid", kid); code != 0 {
			t.Fatal(se)
		}
	}
	rel := filepath.Join(dir, "release")
	os.Mkdir(rel, 0o755)
	key, err := sign.LoadPrivateKey(filepath.Join(dir, "release-2026.pem"))
	if err != nil {
		t.Fatal(err)
	}
	targets := []release.Target{{OS: "linux", Arch: "amd64"}, {OS: "darwin", Arch: "arm64"}}
	var names []string
	for _, tg := range targets {
		names = append(names, tg.Binary())
		os.WriteFile(filepath.Join(rel, tg.Binary()), []byte("stand-in for "+tg.String()), 0o755)
	}
	bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/git-bernstein/git-bernstein"}}
	if err := release.Write(rel, names, []*debug.BuildInfo{bi, bi}, []byte("{}\n"), release.BuildFacts{Version: "v1.0.0", Targets: targets}, key, "release-2026"); err != nil {
		t.Fatal(err)
	}
	pemOf := func(card string) string {
		data, _ := os.ReadFile(filepath.Join(dir, card+".card.json"))
		var c struct {
			PEM string `json:"public_key_pem"`
		}
		if err := json.Unmarshal(data, &c); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, card+".pub.pem")
		os.WriteFile(p, []byte(c.PEM), 0o644)
		return p
	}
	good, other := pemOf("release-2026"), pemOf("mallory")
	run := func(key, blob string) (string, error) {
		args := []string{"verify-blob-attestation", "--bundle", filepath.Join(rel, release.ProvenanceSigstoreFile), "--key", key,
			"--insecure-ignore-tlog", "--type", release.ProvenanceType}
		if regexp.MustCompile(`GitVersion:\s*v?2\.`).Match(version) {
			root := filepath.Join(dir, "empty-trusted-root.json")
			os.WriteFile(root, []byte(`{"mediaType":"application/vnd.dev.sigstore.trustedroot+json;version=0.1"}`), 0o644)
			args = append(args, "--new-bundle-format", "--trusted-root", root)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, cosign, append(args, blob)...)
		cmd.Env = append(os.Environ(), "SIGSTORE_NO_CACHE=1", "TUF_ROOT="+filepath.Join(dir, "tuf"))
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	for _, name := range append(names, release.SBOMFile, release.SumsFile) {
		if out, err := run(good, filepath.Join(rel, name)); err != nil {
			t.Errorf("cosign refused the provenance for %s: %v\n%s", name, err, out)
		}
	}
	if out, err := run(other, filepath.Join(rel, names[0])); err == nil {
		t.Errorf("cosign accepted another key:\n%s", out)
	}
	if out, err := run(good, filepath.Join(rel, release.SumsSigFile)); err == nil {
		t.Errorf("cosign accepted a file the provenance is not about:\n%s", out)
	}
}

// TestCosignVerifiesOCIAttestation is README's registry recipe ("OCI registry") run by real cosign against
// go-containerregistry's registry on 127.0.0.1: after the hook records and uploads a bundle with --attest,
// `cosign verify-attestation --key card.pub.pem --insecure-ignore-tlog --type <predicateType> HOST/REPO@<manifest>`
// finds the Sigstore bundle among the archive's referrers and accepts it, its statement naming that manifest;
// another key is refused.
func TestCosignVerifiesOCIAttestation(t *testing.T) {
	cosign, err := exec.LookPath("cosign")
	if err != nil {
		t.Skip("cosign is not installed: the stock registry attestation check needs it")
	}
	version, _ := exec.Command(cosign, "version").CombinedOutput()
	url := ociStore(t, true)
	r := ticketRepo(t)
	dir := t.TempDir()
	for _, kid := range []string{"k1", "mallory"} {
		if _, se, code := runIn(t, dir, nil, "keygen", "--kid", kid); code != 0 {
			t.Fatal(se)
		}
	}
	r.Git("config", "bernstein.signingKey", filepath.Join(dir, "k1.pem"))
	r.Git("config", "bernstein.signingKid", "k1")
	r.Git("config", "bernstein.hookBudget", "60s")
	r.Git("config", "bernstein.attest", "true")
	r.Git("config", "bernstein.store", url)
	r.Git("merge", "-q", "--no-ff", "-m", "Merge branch 'feature/ENG-42-login'", "feature/ENG-42-login")
	if out, e, c := runIn(t, r.Dir, r.Env, "hook", "post-merge", "0"); c != 0 || strings.Contains(e, "post-merge:") {
		t.Fatalf("hook: %d %s %s", c, out, e)
	}
	head := r.Rev("HEAD")
	sum, _ := record.FileSHA256(filepath.Join(r.Dir, ".git", "bernstein", "bundles", "github", "ENG-42", head[:12]+".tar.gz"))
	ref := strings.TrimPrefix(url, "oci://") + "@" + manifestDigest(t, url, store.TagFor(sum))
	pemOf := func(card string) string {
		data, _ := os.ReadFile(filepath.Join(dir, card+".card.json"))
		var c struct {
			PEM string `json:"public_key_pem"`
		}
		if err := json.Unmarshal(data, &c); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, card+".pub.pem")
		os.WriteFile(p, []byte(c.PEM), 0o644)
		return p
	}
	run := func(key string) (string, error) {
		args := []string{"verify-attestation", "--key", key, "--insecure-ignore-tlog", "--allow-http-registry",
			"--type", attest.PredicateType}
		if regexp.MustCompile(`GitVersion:\s*v?2\.`).Match(version) {
			root := filepath.Join(dir, "empty-trusted-root.json")
			os.WriteFile(root, []byte(`{"mediaType":"application/vnd.dev.sigstore.trustedroot+json;version=0.1"}`), 0o644)
			args = append(args, "--new-bundle-format", "--trusted-root", root)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, cosign, append(args, ref)...)
		cmd.Env = append(os.Environ(), "SIGSTORE_NO_CACHE=1", "TUF_ROOT="+filepath.Join(dir, "tuf"), "DOCKER_CONFIG="+dir)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := run(pemOf("k1")); err != nil {
		t.Fatalf("cosign refused the archive's attestation in the registry: %v\n%s", err, out)
	}
	if out, err := run(pemOf("mallory")); err == nil {
		t.Fatalf("cosign accepted another key:\n%s", out)
	}
}
