package release

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestReproducible builds two targets twice, as `make release` builds them, into two folders, and compares
// every file byte for byte; then the release verifies and the host's binary names itself as the release does.
// It cross-compiles every package (a few minutes on two cores the first time), so -short skips it.
func TestReproducible(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-builds git-bernstein twice: run without -short (make test does)")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	host := Target{runtime.GOOS, runtime.GOARCH}
	targets := []Target{host, {"darwin", "arm64"}}
	if host == targets[1] {
		targets[1] = Target{"linux", "amd64"}
	}
	// The Makefile's LDFLAGS, with its FALLBACK for a linked worktree (where Go stamps nothing).
	rev, _ := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	ldflags := "-s -w"
	if len(rev) >= 7 {
		ldflags += " -X " + buildinfoPkg + ".fallback=" + string(rev[:7]) + "-test"
	}
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, 32))
	var dirs []string
	for i := range 2 {
		out := filepath.Join(t.TempDir(), "release")
		start := time.Now()
		b := Build{Dir: root, Out: out, Targets: targets, LDFlags: ldflags}
		infos, err := b.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tg := range targets {
			names = append(names, tg.Binary())
		}
		facts := BuildFacts{Version: VersionOf(infos[0], ldflags), Commit: strings.TrimSpace(string(rev)), Targets: targets, Flags: b.Flags(), Env: BuildEnv}
		if err := Write(out, names, infos, facts, key, "release-test"); err != nil {
			t.Fatal(err)
		}
		t.Logf("build %d: %d targets in %v", i+1, len(targets), time.Since(start).Round(time.Second))
		dirs = append(dirs, out)
	}
	entries, err := os.ReadDir(dirs[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		a, b := read(t, filepath.Join(dirs[0], e.Name())), read(t, filepath.Join(dirs[1], e.Name()))
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between two builds of one commit (%d and %d bytes)", e.Name(), len(a), len(b))
		} else {
			t.Logf("%s: %d bytes, identical", e.Name(), len(a))
		}
	}
	if len(entries) != len(targets)+5 {
		t.Errorf("%d files, want %d binaries and 5 more", len(entries), len(targets))
	}
	r := Verify(dirs[0], Trust{Keys: trustedTestKey(key, "release-test"), Now: time.Now()})
	if !r.OK() {
		t.Errorf("the build does not verify: %v", failed(r))
	}
	out, err := exec.Command(filepath.Join(dirs[0], host.Binary()), "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	infoVersion := VersionOf(mustInfo(t, filepath.Join(dirs[0], host.Binary())), ldflags)
	if f := strings.Fields(string(out)); len(f) == 0 || f[len(f)-1] != infoVersion {
		t.Errorf("--version says %q; the release names it %q", out, infoVersion)
	}
}
