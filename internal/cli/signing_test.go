package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/lineage"
	"github.com/git-bernstein/git-bernstein/internal/sshtest"
)

// TestCheckpointSignsWithTheBundleKey: the key that signs bundles signs lineage v2 checkpoints too, however it
// is named: bernstein.signingKey naming an OpenSSH key file (which checkpoint refused as "not PKCS#8"), and
// git's own gpg.format=ssh + user.signingKey with the key in ssh-agent (which checkpoint ignored, writing an
// unsigned checkpoint without a word).
func TestCheckpointSignsWithTheBundleKey(t *testing.T) {
	sshtest.Require(t)
	t.Parallel()
	keys := t.TempDir()
	k := newSSHKey(t, keys, "id_ed25519")
	card := filepath.Join(keys, "card.json")
	if _, errOut, code := runIn(t, keys, nil, "keygen", "--ssh-key", k.path+".pub", "--card", card); code != 0 {
		t.Fatal(errOut)
	}
	sock := sshtest.Agent(t)
	sshtest.Add(t, sock, k.path)
	for _, c := range []struct {
		name   string
		config [][2]string
	}{
		{"bernstein.signingKey, an OpenSSH key file", [][2]string{{"bernstein.signingKey", k.path}}},
		{"gpg.format=ssh and user.signingKey in ssh-agent", [][2]string{{"gpg.format", "ssh"}, {"user.signingKey", k.path + ".pub"}}},
	} {
		r := gittest.New(t)
		r.Commit("init", nil)
		for _, kv := range c.config {
			r.Git("config", kv[0], kv[1])
		}
		root := t.TempDir()
		fillStore(t, root, lineage.PublicKey())
		env := append(append([]string{}, r.Env...), "SSH_AUTH_SOCK="+sock)
		cp := filepath.Join(r.Dir, "cp.json")
		out, errOut, code := runIn(t, r.Dir, env, "lineage", "v2", "checkpoint", "--root", root, "--out", cp)
		if code != 0 || !strings.Contains(out, "signed -> "+cp+".jws, kid "+k.fingerprint) {
			t.Errorf("%s: checkpoint exit %d, not signed with the bundle key:\n%s%s", c.name, code, out, errOut)
			continue
		}
		out, errOut, code = runIn(t, r.Dir, env, "lineage", "v2", "verify", "--root", root, "--checkpoint", cp, "--card", card)
		if code != 0 || !strings.Contains(out, "a key you gave") {
			t.Errorf("%s: the checkpoint's signature does not verify with the key's card: %d\n%s%s", c.name, code, out, errOut)
		}
	}
}
