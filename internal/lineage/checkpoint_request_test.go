package lineage

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/lineage/checkpoint"
	"github.com/git-bernstein/git-bernstein/internal/sign"
)

// WriteCheckpoint writes the checkpoint of a store that verifies, with a key its detached JWS over the JCS form
// beside it; it asks for the key only once the store verifies, refuses to sign what has no file, and leaves no
// file for a store that fails.
func TestWriteCheckpoint(t *testing.T) {
	t.Parallel()
	root := writeReferenceStore(t)
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	pub, priv, err := sign.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	released := 0
	key := func() (*CheckpointKey, error) {
		return &CheckpointKey{Kid: "ci-2026", Release: func() { released++ },
			SignJWS: func(p []byte) (string, error) { return sign.SignDetached(priv, "ci-2026", p) }}, nil
	}
	out := filepath.Join(t.TempDir(), "cp.json")
	got, err := WriteCheckpoint(CheckpointRequest{Root: root, Key: PublicKey(), CreatedAt: at, Out: out, Sign: key})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil || string(data) != string(got.Data) || got.Digest != checkpoint.Digest(data) || got.Kid != "ci-2026" {
		t.Fatalf("wrote %q (%v); returned %+v", data, err, got)
	}
	if got.Checkpoint.KeyClass != string(KeyPublicDefault) || !got.Verify.OK || released != 1 {
		t.Errorf("checkpoint %+v, verify %+v, key released %d times", got.Checkpoint, got.Verify, released)
	}
	jws, err := os.ReadFile(out + ".jws")
	if err != nil {
		t.Fatal(err)
	}
	payload, err := sign.Canonicalize(data)
	if err != nil {
		t.Fatal(err)
	}
	if kid, err := sign.VerifyDetached(string(jws), payload, []sign.TrustedKey{{Kid: "ci-2026", Public: pub}}); err != nil || kid != "ci-2026" {
		t.Errorf("the .jws does not verify over the checkpoint's JCS form: %s %v", kid, err)
	}

	// No --out: the bytes only, and a key has nowhere to put its signature.
	got, err = WriteCheckpoint(CheckpointRequest{Root: root, Key: PublicKey(), CreatedAt: at})
	if err != nil || string(got.Data) != string(data) {
		t.Errorf("without Out: %q, %v; want the same bytes", got.Data, err)
	}
	_, err = WriteCheckpoint(CheckpointRequest{Root: root, Key: PublicKey(), CreatedAt: at, Sign: key})
	var unusable *Unusable
	if !errors.As(err, &unusable) || !strings.Contains(err.Error(), "--out FILE") {
		t.Errorf("a key without Out: %v, want Unusable naming --out", err)
	}

	// A store that fails: its verdict, no file, and the key not asked for.
	bad := writeReferenceStore(t)
	if err := os.WriteFile(filepath.Join(bad, "parent.jsonl"), []byte(strings.Replace(refParent, `"s"`, `"x"`, 1)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	asked := false
	badOut := filepath.Join(t.TempDir(), "cp.json")
	got, err = WriteCheckpoint(CheckpointRequest{Root: bad, Key: PublicKey(), CreatedAt: at, Out: badOut,
		Sign: func() (*CheckpointKey, error) { asked = true; return nil, nil }})
	if !errors.Is(err, ErrStoreFails) || got == nil || got.Verify.OK || asked {
		t.Errorf("a failing store: %v, %+v, key asked %v", err, got, asked)
	}
	if _, err := os.Lstat(badOut); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failing store left %s: %v", badOut, err)
	}
}
