package cli

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/git-bernstein/git-bernstein/internal/attest"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/sshtest"
)

// sshKey is a key made by ssh-keygen for a test, with what the tests compare against.
type sshKey struct {
	path, pubLine, fingerprint string
	pub                        ed25519.PublicKey
	priv                       ed25519.PrivateKey
}

func newSSHKey(t *testing.T, dir, name string) sshKey {
	t.Helper()
	k := sshKey{path: sshtest.Keygen(t, dir, name, "ed25519", "")}
	k.pubLine = sshtest.PublicLine(t, k.path)
	k.fingerprint = sshtest.Fingerprint(t, k.path)
	raw, _ := os.ReadFile(k.path)
	p, err := ssh.ParseRawPrivateKey(raw)
	if err != nil {
		t.Fatal(err)
	}
	k.priv = *p.(*ed25519.PrivateKey)
	k.pub = k.priv.Public().(ed25519.PublicKey)
	return k
}

// manifestOf reads manifest.json from an archive.
func manifestOf(t *testing.T, archive string) []byte {
	t.Helper()
	raw, err := os.ReadFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	ms := archiveMembers(t, raw)
	if len(ms) == 0 || ms[0].hdr.Name != "manifest.json" {
		t.Fatalf("first member of %s is not manifest.json", archive)
	}
	return ms[0].data
}

// independentDSSE runs the python3 check of package attest's tests (PAE and Ed25519 written out from the
// specifications, no code shared with ours); ok is false when it cannot run here, and why says so.
func independentDSSE(t *testing.T, env, pubPEM, archive string) (out string, err error, ok bool) {
	t.Helper()
	if _, lerr := exec.LookPath("python3"); lerr != nil {
		return "python3 is not installed", nil, false
	}
	script, _ := filepath.Abs(filepath.Join("..", "attest", "testdata", "verify_dsse.py"))
	b, err := exec.Command("python3", script, env, pubPEM, archive).CombinedOutput()
	if ee, isExit := err.(*exec.ExitError); isExit && ee.ExitCode() == 3 {
		return string(b), nil, false
	}
	return string(b), err, true
}

// TestBundleSignedThroughSSHAgent is issue 18's path end to end: a key made by ssh-keygen, held by a real
// ssh-agent, signs a bundle given only its public half; the JWS is the bundle format (byte for byte what the
// private key file would sign), OpenSSH checks the .sig, python checks the DSSE envelope, verify trusts the key
// from an allowed signers file and from a flat card made from it, and a swapped archive fails all three.
func TestBundleSignedThroughSSHAgent(t *testing.T) {
	sshtest.Require(t)
	t.Parallel()
	r := ticketRepo(t)
	r.Git("merge", "-q", "--no-ff", "-m", "Merge branch 'feature/ENG-42-login'", "feature/ENG-42-login")
	keys := t.TempDir()
	k := newSSHKey(t, keys, "id_ed25519")
	sock := sshtest.Agent(t)
	sshtest.Add(t, sock, k.path)
	env := append(append([]string{}, r.Env...), "SSH_AUTH_SOCK="+sock)

	out := t.TempDir()
	archive := filepath.Join(out, "ENG-42.tar.gz")
	so, se, code := runIn(t, r.Dir, env, "bundle", "--no-pr", "--attest", "--created-at", "2026-01-02T03:04:05Z",
		"--sign-key", k.path+".pub", "--out", archive, "ENG-42")
	if code != 0 || !strings.Contains(so, "Signed -> ") || !strings.Contains(so, ".tar.gz.sig.") || !strings.Contains(so, ".tar.gz.intoto.jsonl.") || !strings.Contains(so, ".tar.gz.sigstore.json.") {
		t.Fatalf("bundle through the agent: %d\n%s%s", code, so, se)
	}
	jws, _ := os.ReadFile(archive + ".jws")
	canon, err := sign.Canonicalize(manifestOf(t, archive))
	if err != nil {
		t.Fatal(err)
	}
	if want, err := sign.SignDetached(k.priv, k.fingerprint, canon); err != nil || string(jws) != want {
		t.Fatalf("the agent's JWS differs from the key file's:\n%s\n%s (%v)", jws, want, err)
	}
	if sign.HeaderKid(string(jws)) != k.fingerprint {
		t.Fatalf("kid %q, want the fingerprint %s", sign.HeaderKid(string(jws)), k.fingerprint)
	}

	// Stock OpenSSH checks the .sig over the archive's bytes, and refuses it for another namespace.
	allowed := filepath.Join(keys, "allowed_signers")
	os.WriteFile(allowed, []byte("# the team\nalice@example.com "+k.pubLine+"\n"), 0o644)
	data, _ := os.ReadFile(archive)
	if o, err := sshtest.Try(nil, data, "ssh-keygen", "-Y", "verify", "-f", allowed, "-I", "alice@example.com", "-n", "git-bernstein", "-s", archive+".sig"); err != nil {
		t.Fatalf("ssh-keygen -Y verify: %v\n%s", err, o)
	}
	if o, err := sshtest.Try(nil, data, "ssh-keygen", "-Y", "check-novalidate", "-n", "file", "-s", archive+".sig"); err == nil {
		t.Fatalf("ssh-keygen -Y check-novalidate -n file accepted it:\n%s", o)
	}

	// verify with the allowed signers file (the kid is the fingerprint; the principal any).
	so, se, code = runIn(t, out, nil, "verify", "ENG-42.tar.gz", "--allowed-signers", allowed)
	for _, want := range []string{"[PASS] trust", "allowed_signers:2", "[PASS] sshsig", "[PASS] attestation",
		`[PASS] sigstore-bundle — Sigstore bundle v0.3, DSSE envelope, in-toto Statement v1 about this archive`, `publicKey.hint "` + k.fingerprint + `"`, "VERIFIED"} {
		if code != 0 || !strings.Contains(so, want) {
			t.Fatalf("verify --allowed-signers: %d, want %q\n%s%s", code, want, so, se)
		}
	}
	// Outside any repository, the user's gpg.ssh.allowedSignersFile is the default trust.
	global := filepath.Join(keys, "gitconfig")
	os.WriteFile(global, []byte("[gpg \"ssh\"]\n\tallowedSignersFile = "+allowed+"\n"), 0o644)
	if so, se, code := runIn(t, out, []string{"GIT_CONFIG_GLOBAL=" + global, "GIT_CONFIG_NOSYSTEM=1"}, "verify", "ENG-42.tar.gz"); code != 0 || !strings.Contains(so, "allowed_signers:2") {
		t.Fatalf("verify with the global gpg.ssh.allowedSignersFile: %d\n%s%s", code, so, se)
	}
	// and with a flat card made from the same key (keygen --ssh-key), as upstream's verifier takes it.
	if so, se, code := runIn(t, keys, nil, "keygen", "--ssh-key", k.path+".pub", "--agent-id", "alice"); code != 0 || !strings.Contains(so, "kid: "+k.fingerprint) {
		t.Fatalf("keygen --ssh-key: %d\n%s%s", code, so, se)
	}
	cardPath := filepath.Join(keys, "id_ed25519.card.json")
	if ck, err := sign.LoadCard(cardPath); err != nil || len(ck) != 1 || ck[0].Kid != k.fingerprint || !ck[0].Public.Equal(k.pub) {
		t.Fatalf("card: %v %+v", err, ck)
	}
	if so, se, code = runIn(t, out, nil, "verify", "ENG-42.tar.gz", "--card", cardPath); code != 0 || !strings.Contains(so, "[PASS] sshsig") {
		t.Fatalf("verify --card: %d\n%s%s", code, so, se)
	}
	// extract and view take --allowed-signers too.
	if so, se, code = runIn(t, out, nil, "extract", "ENG-42.tar.gz", "--allowed-signers", allowed, "--into", "x"); code != 0 || !strings.Contains(so, "[PASS] sshsig") {
		t.Fatalf("extract --allowed-signers: %d\n%s%s", code, so, se)
	}
	if so, se, code = runIn(t, out, nil, "view", "ENG-42.tar.gz", "--allowed-signers", allowed); code != 0 {
		t.Fatalf("view --allowed-signers: %d\n%s%s", code, so, se)
	}

	// An implementation of DSSE that shares nothing with ours accepts the envelope.
	pemPath := filepath.Join(keys, "pub.pem")
	p, _ := sign.MarshalPublicKeyPEM(k.pub)
	os.WriteFile(pemPath, p, 0o644)
	for _, file := range []string{archive + attest.Suffix, archive + attest.SigstoreSuffix} {
		o, err, ran := independentDSSE(t, file, pemPath, archive)
		if !ran {
			t.Logf("independent DSSE check skipped: %s", o)
		} else if err != nil {
			t.Fatalf("independent DSSE check of %s: %v\n%s", file, err, o)
		}
	}

	// Another archive in its place (another created_at, so another manifest): all three signatures fail.
	other := filepath.Join(t.TempDir(), "other.tar.gz")
	if _, se, code := runIn(t, r.Dir, nil, "bundle", "--no-pr", "--created-at", "2026-02-02T03:04:05Z", "--out", other, "ENG-42"); code != 0 {
		t.Fatal(se)
	}
	swapped, _ := os.ReadFile(other)
	os.WriteFile(archive, swapped, 0o644)
	so, _, code = runIn(t, out, nil, "verify", "ENG-42.tar.gz", "--allowed-signers", allowed)
	for _, want := range []string{"[FAIL] signature", "[FAIL] sshsig", "[FAIL] attestation", "[FAIL] sigstore-bundle", "FAILED"} {
		if code != 1 || !strings.Contains(so, want) {
			t.Fatalf("swapped archive: %d, want %q\n%s", code, want, so)
		}
	}
	if o, err := sshtest.Try(nil, swapped, "ssh-keygen", "-Y", "verify", "-f", allowed, "-I", "alice@example.com", "-n", "git-bernstein", "-s", archive+".sig"); err == nil {
		t.Fatalf("ssh-keygen -Y verify accepted the swapped archive:\n%s", o)
	}
	for _, file := range []string{archive + attest.Suffix, archive + attest.SigstoreSuffix} {
		if o, err, ran := independentDSSE(t, file, pemPath, archive); ran && err == nil {
			t.Fatalf("independent DSSE check of %s accepted the swapped archive:\n%s", file, o)
		}
	}
}

// TestHookSignsWithGitSSHConfig: with git configured to sign with an SSH key (git -c gpg.format=ssh
// -c user.signingKey=…), the post-merge hook signs its bundle with that key, kid its fingerprint;
// bernstein.sign=false turns that off.
func TestHookSignsWithGitSSHConfig(t *testing.T) {
	sshtest.Require(t)
	t.Parallel()
	bin := builtBinary(t)
	r := ticketRepo(t)
	if _, se, code := runIn(t, r.Dir, r.Env, "hooks", "install"); code != 0 {
		t.Fatal(se)
	}
	keys := t.TempDir()
	k := newSSHKey(t, keys, "id_ed25519")
	sock := sshtest.Agent(t)
	sshtest.Add(t, sock, k.path)
	cmd := exec.Command("git", "-c", "gpg.format=ssh", "-c", "user.signingKey="+k.path+".pub",
		"merge", "--no-ff", "-m", "Merge branch 'feature/ENG-42-login'", "feature/ENG-42-login")
	cmd.Dir = r.Dir
	cmd.Env = append(withPath(t, r.Env, bin), "SSH_AUTH_SOCK="+sock, "GIT_AUTHOR_DATE=@1767300000 +0000", "GIT_COMMITTER_DATE=@1767300000 +0000")
	gitOut, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(gitOut), "Recorded ENG-42 (github)") {
		t.Fatalf("merge: %v\n%s", err, gitOut)
	}
	head := r.Rev("HEAD")
	es := noteOn(t, r, head)
	if len(es) != 1 || !es[0].Signed || es[0].Kid != k.fingerprint {
		t.Fatalf("the hook did not sign with git's SSH key: %+v\n%s", es, gitOut)
	}
	file := filepath.Join(r.Dir, ".git", "bernstein", "bundles", "github", "ENG-42", head[:12]+".tar.gz")
	allowed := filepath.Join(keys, "allowed_signers")
	os.WriteFile(allowed, []byte("dev@example.com "+k.pubLine+"\n"), 0o644)
	if so, se, code := runIn(t, r.Dir, nil, "verify", file, "--allowed-signers", allowed, "--rev", "HEAD"); code != 0 || !strings.Contains(so, "[PASS] sshsig") || !strings.Contains(so, "[PASS] note") {
		t.Fatalf("verify --rev: %d\n%s%s", code, so, se)
	}
	// gpg.ssh.allowedSignersFile is the default trust.
	r.Git("config", "gpg.ssh.allowedSignersFile", allowed)
	if so, se, code := runIn(t, r.Dir, nil, "verify", file); code != 0 || !strings.Contains(so, "allowed_signers:1") {
		t.Fatalf("verify with gpg.ssh.allowedSignersFile: %d\n%s%s", code, so, se)
	}

	// bernstein.sign=false: the same configuration bundles unsigned.
	params := "'gpg.format'='ssh' 'user.signingkey'='" + k.path + ".pub' 'bernstein.sign'='false'"
	env := append(append([]string{}, r.Env...), "SSH_AUTH_SOCK="+sock, "GIT_CONFIG_PARAMETERS="+params)
	dir := t.TempDir()
	if so, se, code := runIn(t, r.Dir, env, "record", "--bundle-dir", dir, "HEAD"); code != 0 || !strings.Contains(so, "unsigned") {
		t.Fatalf("record with bernstein.sign=false: %d\n%s%s", code, so, se)
	}
}

// TestSSHKeyErrors: keys that cannot sign bundles are refused with what to do, naming where the key came from.
func TestSSHKeyErrors(t *testing.T) {
	sshtest.Require(t)
	t.Parallel()
	r := gittest.New(t)
	r.Commit("init\n\nRefs: ENG-1", map[string]string{"a": "1\n"})
	keys := t.TempDir()
	enc := sshtest.Keygen(t, keys, "enc", "ed25519", "a passphrase")
	ec := sshtest.Keygen(t, keys, "ec", "ecdsa", "")
	for _, c := range []struct {
		args []string
		env  []string
		want []string
	}{
		{[]string{"--sign-key", enc}, nil, []string{"encrypted", "ssh-add"}},
		{[]string{"--sign-key", ec}, nil, []string{"ssh-keygen -t ed25519"}},
		{[]string{"--sign-key", ec + ".pub"}, nil, []string{"ssh-keygen -t ed25519"}},
		{nil, []string{"GIT_CONFIG_PARAMETERS='gpg.format'='ssh' 'user.signingkey'='" + ec + "'"}, []string{"user.signingKey", "bernstein.sign false"}},
		{[]string{"--sign-key", "key::sk-ssh-ed25519@openssh.com AAAAGnNrLXNzaC1lZDI1NTE5QG9wZW5zc2guY29tAAAAIKfUFLNuDUIV2TYFWSHVAbAR5ggFG1uChvrcSQaZF5bRAAAABHNzaDo="}, nil, []string{"security-key"}},
		{[]string{"--sign-key", enc + ".pub"}, []string{"SSH_AUTH_SOCK="}, []string{"SSH_AUTH_SOCK"}},
	} {
		args := append(append([]string{"bundle", "--no-pr", "--out", filepath.Join(t.TempDir(), "b.tar.gz")}, c.args...), "ENG-1")
		_, se, code := runIn(t, r.Dir, append(append([]string{}, r.Env...), c.env...), args...)
		for _, w := range c.want {
			if code == 0 || !strings.Contains(se, w) {
				t.Errorf("%q %q: exit %d, want an error with %q:\n%s", c.args, c.env, code, w, se)
			}
		}
	}
}

// TestLineageExportSigned: export --format sigstore --sign-key wraps each statement in a DSSE envelope,
// signed with the SSH key (keyid its fingerprint), which the independent python check accepts.
func TestLineageExportSigned(t *testing.T) {
	sshtest.Require(t)
	t.Parallel()
	clk := &clockRun{}
	root := t.TempDir()
	run := func(args ...string) (string, string, int) {
		return clk.runIn(t, t.TempDir(), nil, append(append([]string{"lineage", "v2"}, args...), "--root", root)...)
	}
	for _, run1 := range []string{"r1", "r2"} {
		if out, errOut, code := run("append", "--task", "T-1", "--run", run1, "--kind", "k"); code != 0 {
			t.Fatalf("append: %s %s", out, errOut)
		}
	}
	k := newSSHKey(t, t.TempDir(), "id_ed25519")
	out, errOut, code := run("export", "T-1", "--format", "sigstore", "--sign-key", k.path)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != 0 || len(lines) != 2 {
		t.Fatalf("export --sign-key: %d\n%s%s", code, out, errOut)
	}
	keys := []sign.TrustedKey{{Kid: k.fingerprint, Public: k.pub, Source: "test"}}
	for _, l := range lines {
		o, err := attest.Open([]byte(l), keys)
		if err != nil || o.PayloadType != attest.PayloadType {
			t.Fatalf("envelope %s: %v", l, err)
		}
		var st struct {
			Type          string `json:"_type"`
			PredicateType string `json:"predicateType"`
		}
		if json.Unmarshal(o.Payload, &st) != nil || st.Type != attest.StatementType || !strings.Contains(st.PredicateType, "slsa") {
			t.Fatalf("statement %s", o.Payload)
		}
	}
	dir := t.TempDir()
	env, pemPath := filepath.Join(dir, "e.jsonl"), filepath.Join(dir, "pub.pem")
	os.WriteFile(env, []byte(lines[0]+"\n"), 0o644)
	p, _ := sign.MarshalPublicKeyPEM(k.pub)
	os.WriteFile(pemPath, p, 0o644)
	if _, lerr := exec.LookPath("python3"); lerr == nil {
		script, _ := filepath.Abs(filepath.Join("..", "attest", "testdata", "verify_dsse.py"))
		if b, err := exec.Command("python3", script, env, pemPath).CombinedOutput(); err != nil && !bytes.Contains(b, []byte("neither")) {
			t.Fatalf("independent DSSE check: %v\n%s", err, b)
		}
	}
	if _, _, code := run("export", "T-1", "--sign-key", k.path); code != 2 {
		t.Fatalf("--sign-key with jsonl: exit %d, want 2", code)
	}
}
