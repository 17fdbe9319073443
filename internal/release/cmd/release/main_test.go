package main

import (
	"bytes"
	"crypto/ed25519"
	"debug/buildinfo"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/release"
	"github.com/git-bernstein/git-bernstein/internal/sign"
)

// TestReproducible runs the release tool twice, as `make release` runs it but for two targets (the host's and
// windows/amd64, a .exe), into two folders, and compares every file byte for byte; then the release verifies, and the
// host's binary names itself as the release does. It cross-compiles every package (a few minutes on two
// cores the first time), so -short skips it.
func TestReproducible(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-builds git-bernstein twice: run without -short (make test does)")
	}
	root, err := filepath.Abs("../../../..")
	if err != nil {
		t.Fatal(err)
	}
	host := release.Target{OS: runtime.GOOS, Arch: runtime.GOARCH}
	// The other target is windows: its build-tagged files (extract, lineage) are compiled here, nowhere else.
	targets := []release.Target{host, {OS: "windows", Arch: "amd64"}}
	if host == targets[1] {
		targets[1] = release.Target{OS: "linux", Arch: "amd64"}
	}
	// The Makefile's LDFLAGS, with its FALLBACK for a linked worktree (where Go stamps nothing).
	rev, _ := exec.Command("git", "-C", root, "rev-parse", "--short=7", "HEAD").Output()
	ldflags := "-s -w -X github.com/git-bernstein/git-bernstein/internal/buildinfo.fallback=" + strings.TrimSpace(string(rev)) + "-test"
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, 32))
	pemKey, err := sign.MarshalPrivateKeyPEM(key)
	if err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(t.TempDir(), "release.pem")
	os.WriteFile(keyFile, pemKey, 0o600)

	var dirs []string
	for i := range 2 {
		out := filepath.Join(t.TempDir(), "release")
		start := time.Now()
		err := run([]string{"-dir", root, "-out", out, "-ldflags", ldflags, "-targets", targets[0].String() + "," + targets[1].String(),
			"-sign-key", keyFile, "-sign-kid", "release-test"}, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("build %d: %d targets in %v", i+1, len(targets), time.Since(start).Round(time.Second))
		dirs = append(dirs, out)
	}
	entries, err := os.ReadDir(dirs[0])
	if err != nil {
		t.Fatal(err)
	}
	if want := len(targets) * len(release.Programs); len(entries) != want+5 {
		t.Errorf("%d files, want %d binaries and 5 more", len(entries), want)
	}
	for _, e := range entries {
		a, _ := os.ReadFile(filepath.Join(dirs[0], e.Name()))
		b, _ := os.ReadFile(filepath.Join(dirs[1], e.Name()))
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between two builds of one commit (%d and %d bytes)", e.Name(), len(a), len(b))
		} else {
			t.Logf("%s: %d bytes, identical", e.Name(), len(a))
		}
	}
	r := release.Verify(dirs[0], release.Trust{Keys: []sign.TrustedKey{{Kid: "release-test", Public: key.Public().(ed25519.PublicKey), Source: "test key"}}, Now: time.Now()})
	if !r.OK() {
		t.Errorf("the build does not verify: %+v", r.Checks)
	}
	// Installed under their own names, side by side, the front hands --version to git-bernstein-full.
	installed := t.TempDir()
	for _, p := range release.Programs {
		b, err := os.ReadFile(filepath.Join(dirs[0], host.Binary(p)))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(installed, p), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dirs[0], host.Binary("git-bernstein-full"))
	out, err := exec.Command(filepath.Join(installed, "git-bernstein"), "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	bi, err := buildinfo.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if f, want := strings.Fields(string(out)), release.VersionOf(bi, ldflags); len(f) == 0 || f[len(f)-1] != want {
		t.Errorf("--version says %q; the release names it %q", out, want)
	}
}
