package signing

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/sshsig"
)

// WriteSSHCard writes the flat card of an SSH key under its fingerprint (or the kid given), at
// <key without .pub>.card.json by default; it never overwrites a file, and what the user asked for wrongly is
// ErrUsage.
func TestWriteSSHCard(t *testing.T) {
	t.Parallel()
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	sshPub, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	line := strings.TrimSpace(string(ssh.MarshalAuthorizedKey(sshPub)))
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "id_ed25519.pub")
	if err := os.WriteFile(keyFile, []byte(line+" alice@example.com\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fp := ssh.FingerprintSHA256(sshPub)

	made, err := WriteSSHCard(SSHCard{Key: keyFile, AgentID: "alice", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if made.Card != "id_ed25519.card.json" || made.Kid != fp || made.AllowedSignersErr != nil ||
		!strings.HasSuffix(made.AllowedSigners, line) {
		t.Errorf("made %+v; want id_ed25519.card.json under %s with its allowed signers line", made, fp)
	}
	keys, err := sign.LoadCard(filepath.Join(dir, made.Card))
	if err != nil || len(keys) != 1 || keys[0].Kid != fp || !keys[0].Public.Equal(pub) {
		t.Fatalf("the card: %+v %v", keys, err)
	}
	if _, err := WriteSSHCard(SSHCard{Key: keyFile, AgentID: "alice", Dir: dir}); err == nil ||
		!strings.Contains(err.Error(), "id_ed25519.card.json") {
		t.Errorf("a second card at the same path: %v, want an error naming it", err)
	}
	literal := sshsig.LiteralPrefix + line
	made, err = WriteSSHCard(SSHCard{Key: literal, Kid: "alice-2026", AgentID: "alice", Card: "sub.json", Dir: dir})
	if err != nil || made.Kid != "alice-2026" || made.Card != "sub.json" {
		t.Fatalf("a literal key with --kid and --card: %+v %v", made, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "sub.json")); err != nil {
		t.Errorf("the card is not in Dir: %v", err)
	}

	for _, tc := range []struct {
		name string
		card SSHCard
		want string
	}{
		{"bad kid", SSHCard{Key: literal, Kid: "a<b", AgentID: "alice", Card: "x.json"}, "--kid: "},
		{"no agent id", SSHCard{Key: literal, Card: "x.json"}, "--agent-id is empty"},
		{"literal without a card", SSHCard{Key: literal, AgentID: "alice"}, "--ssh-key key::… needs --card PATH"},
	} {
		tc.card.Dir = dir
		_, err := WriteSSHCard(tc.card)
		if !errors.Is(err, ErrUsage) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: %v, want a usage error starting %q", tc.name, err, tc.want)
		}
	}
	if _, err := WriteSSHCard(SSHCard{Key: filepath.Join(dir, "none.pub"), AgentID: "alice", Dir: dir}); err == nil ||
		errors.Is(err, ErrUsage) {
		t.Errorf("a missing key file: %v, want an error that is not a usage error", err)
	}
}
