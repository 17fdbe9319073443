package cli

import (
	"crypto/ed25519"
	"crypto/rand"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/release"
	"github.com/git-bernstein/git-bernstein/internal/sign"
)

// TestVerifyRelease runs verify-release as README's install section does, on a release of two stand-in
// binaries (internal/release builds real ones): VERIFIED with the signer's card or its allowed signers line,
// FAILED once a binary changed or with another signer's card, UNVERIFIABLE with no key.
func TestVerifyRelease(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rel := filepath.Join(dir, "release")
	os.Mkdir(rel, 0o755)
	pub, key, _ := ed25519.GenerateKey(rand.Reader)
	otherPub, _, _ := ed25519.GenerateKey(rand.Reader)
	targets := []release.Target{{OS: "linux", Arch: "amd64"}, {OS: "darwin", Arch: "arm64"}}
	var names []string
	for _, tg := range targets {
		names = append(names, tg.Binary("git-bernstein"))
		os.WriteFile(filepath.Join(rel, tg.Binary("git-bernstein")), []byte("stand-in for "+tg.String()), 0o755)
	}
	bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/git-bernstein/git-bernstein"},
		Deps: []*debug.Module{{Path: "github.com/go-git/go-git/v5", Version: "v5.19.3"}}}
	facts := release.BuildFacts{Version: "v1.0.0", Commit: strings.Repeat("a", 40), Targets: targets, Env: release.BuildEnv}
	if err := release.Write(rel, names, []*debug.BuildInfo{bi, bi}, []byte("{}\n"), facts, key, "release-2026"); err != nil {
		t.Fatal(err)
	}
	for name, pk := range map[string]ed25519.PublicKey{"release.card.json": pub, "other.card.json": otherPub} {
		card, _ := sign.MarshalCard("git-bernstein", "release-2026", pk)
		os.WriteFile(filepath.Join(dir, name), card, 0o644)
	}

	out, errOut, code := runIn(t, dir, nil, "verify-release", "release", "--card", "release.card.json")
	if code != 0 || !strings.Contains(out, "VERIFIED: every file of release") || !strings.Contains(out, "[PASS]     sigstore-bundle ") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	allowed, errOut, code := runIn(t, dir, nil, "card", "ssh", "release.card.json")
	if code != 0 {
		t.Fatalf("card ssh: exit %d\n%s", code, errOut)
	}
	os.WriteFile(filepath.Join(dir, "allowed_signers"), []byte(allowed), 0o644)
	if out, errOut, code = runIn(t, dir, nil, "verify-release", "release", "--allowed-signers", "allowed_signers"); code != 0 {
		t.Fatalf("with allowed signers: exit %d\n%s%s", code, out, errOut)
	}
	if out, _, code = runIn(t, dir, nil, "verify-release", "release", "--card", "other.card.json"); code != 1 || !strings.Contains(out, "FAILED:") {
		t.Errorf("another signer's card: exit %d\n%s", code, out)
	}
	if out, _, code = runIn(t, dir, nil, "verify-release", "release"); code != 2 || !strings.Contains(out, "UNVERIFIABLE") {
		t.Errorf("no key: exit %d\n%s", code, out)
	}
	f, _ := os.OpenFile(filepath.Join(rel, "git-bernstein-darwin-arm64"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("!")
	f.Close()
	out, _, code = runIn(t, dir, nil, "verify-release", "release", "--card", "release.card.json")
	if code != 1 || !strings.Contains(out, "[FAIL]     git-bernstein-darwin-arm64 ") {
		t.Errorf("a changed binary: exit %d\n%s", code, out)
	}
}
