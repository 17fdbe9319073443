package bundle

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// Two .sdd files whose names differ only in case are both evidence: the bundle keeps both, and the verifier
// warns (exit 3 under --strict) because extracting them on a case-insensitive file system loses one.
func TestCaseOnlyNamesVerifyWithAWarning(t *testing.T) {
	t.Parallel()
	r := fixture(t)
	os.WriteFile(filepath.Join(r.Dir, ".sdd", "traces", "Eng-42-trace.jsonl"), []byte("other case\n"), 0o644)
	pub, priv, _ := sign.GenerateKey()
	res := build(t, r, filepath.Join(t.TempDir(), "c.tar.gz"), func(o *Options) { o.SignKey, o.SignKid = priv, "k" })
	jws, _ := os.ReadFile(res.Signature)
	data, _ := os.ReadFile(res.Out)
	keys := []sign.TrustedKey{{Kid: "k", Public: pub}}
	rep := verify.Verify(bytes.NewReader(data), jws, keys, verify.Options{})
	if rep.ExitCode != 0 || len(rep.Warnings) != 1 || rep.Checks[0].Status != verify.Warn {
		t.Fatalf("exit %d, warnings %v\n%s", rep.ExitCode, rep.Warnings, rep.Text())
	}
	if strict := verify.Verify(bytes.NewReader(data), jws, keys, verify.Options{Strict: true}); strict.ExitCode != 3 {
		t.Fatalf("--strict: exit %d", strict.ExitCode)
	}
}
