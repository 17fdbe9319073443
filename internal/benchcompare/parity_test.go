package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestFeatureHistoryParity runs the `make bench` parity measurement on a smaller generated history.
func TestFeatureHistoryParity(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("HOME", t.TempDir())
	dir := filepath.Join(t.TempDir(), "features")
	if d := os.Getenv("BERNSTEIN_FEATURE_REPO"); d != "" {
		dir = d
	}
	if err := genFeatureRepo(dir, 200, 3); err != nil {
		t.Fatal(err)
	}
	res, err := parity(dir, "--root", "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("byte-identical parts: %s", res)
	if res.Same*100 < res.Total*95 {
		t.Errorf("byte-identical share %s is below 95%% (first differing: %v)", res, res.Differing[:min(3, len(res.Differing))])
	}
}
