package cli

import (
	"crypto/ed25519"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/sign"
)

func mode(t *testing.T, path string) os.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

func TestKeygenDefaults(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out, errOut, code := runIn(t, dir, nil, "keygen", "--kid", "alice-2025")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	keyFile, cardFile := filepath.Join(dir, "alice-2025.pem"), filepath.Join(dir, "alice-2025.card.json")
	if m := mode(t, keyFile); m != 0o600 {
		t.Errorf("key mode %v, want 0600", m)
	}
	if m := mode(t, cardFile); m != 0o644 {
		t.Errorf("card mode %v, want 0644", m)
	}
	priv, err := sign.LoadPrivateKey(keyFile)
	if err != nil {
		t.Fatal(err)
	}
	pub := priv.Public().(ed25519.PublicKey)
	card, _ := os.ReadFile(cardFile)
	want, _ := sign.MarshalCard("git-bernstein", "alice-2025", pub)
	if string(card) != string(want) {
		t.Errorf("card:\n%s\nwant:\n%s", card, want)
	}
	if !strings.HasPrefix(string(card), "{\n  \"protocolVersion\": \"a2a/1.0\",\n  \"agent_id\": \"git-bernstein\",\n  \"kid\": \"alice-2025\",\n  \"public_key_pem\": \"-----BEGIN PUBLIC KEY-----\\n") || !strings.HasSuffix(string(card), "}\n") {
		t.Errorf("card layout:\n%s", card)
	}
	fp, _ := sign.Fingerprint(pub)
	for _, s := range []string{"alice-2025.pem", "alice-2025.card.json", "kid:         alice-2025", fp, "0600"} {
		if !strings.Contains(out, s) {
			t.Errorf("stdout lacks %q:\n%s", s, out)
		}
	}
	// The pair works end to end: sign with the key, verify with the card.
	keys, err := sign.LoadCard(cardFile)
	if err != nil {
		t.Fatal(err)
	}
	jws, err := sign.SignDetached(priv, "alice-2025", []byte(`{"a":1}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sign.VerifyDetached(jws, []byte(`{"a":1}`), keys); err != nil {
		t.Errorf("card does not verify the key's signature: %v", err)
	}

	// Never overwrite: a second run fails and leaves both files as they were.
	key, _ := os.ReadFile(keyFile)
	_, errOut, code = runIn(t, dir, nil, "keygen", "--kid", "alice-2025")
	if code != 1 || !strings.Contains(errOut, "already exists") {
		t.Errorf("second run: exit %d, %s", code, errOut)
	}
	key2, _ := os.ReadFile(keyFile)
	card2, _ := os.ReadFile(cardFile)
	if string(key2) != string(key) || string(card2) != string(card) {
		t.Error("second run changed the files")
	}
}

func TestKeygenPaths(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	abs := filepath.Join(t.TempDir(), "cards", "team.json")
	os.MkdirAll(filepath.Dir(abs), 0o755)
	os.Mkdir(filepath.Join(dir, "keys"), 0o700)
	// A kid that is no file name is fine when both paths are given.
	out, errOut, code := runIn(t, dir, nil, "keygen", "--kid", "team/ci:2025", "--agent-id", "ci-bot", "--key", "keys/ci.pem", "--card", abs)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if _, err := sign.LoadPrivateKey(filepath.Join(dir, "keys", "ci.pem")); err != nil {
		t.Error(err)
	}
	keys, err := sign.LoadCard(abs)
	if err != nil || len(keys) != 1 || keys[0].Kid != "team/ci:2025" {
		t.Errorf("card: %+v %v", keys, err)
	}
	card, _ := os.ReadFile(abs)
	if !strings.Contains(string(card), `"agent_id": "ci-bot"`) {
		t.Errorf("agent id not in card:\n%s", card)
	}
	if !strings.Contains(out, "keys/ci.pem") || !strings.Contains(out, abs) {
		t.Errorf("stdout does not name the paths:\n%s", out)
	}
}

func TestKeygenLeavesNothingBehindOnFailure(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	listing := func() []string {
		entries, _ := os.ReadDir(dir)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return names
	}
	// The card cannot be written (its folder is missing) after the key was: the key is removed again.
	_, errOut, code := runIn(t, dir, nil, "keygen", "--kid", "k1", "--card", "missing/k1.card.json")
	if code != 1 || !strings.Contains(errOut, "removed the new key") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if l := listing(); len(l) != 0 {
		t.Errorf("left behind: %v", l)
	}
	// A taken card path stops keygen before any key is written.
	os.WriteFile(filepath.Join(dir, "k2.card.json"), []byte("mine\n"), 0o644)
	_, errOut, code = runIn(t, dir, nil, "keygen", "--kid", "k2")
	if code != 1 || !strings.Contains(errOut, "k2.card.json already exists") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if l := listing(); len(l) != 1 {
		t.Errorf("files now: %v", l)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "k2.card.json")); string(b) != "mine\n" {
		t.Errorf("existing card changed: %q", b)
	}
}

func TestKeygenUsageErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"keygen"}, "needs --kid"},
		{[]string{"keygen", "--kid", ""}, "needs --kid"},
		{[]string{"keygen", "--kid", "../evil"}, "cannot name the default files"},
		{[]string{"keygen", "--kid", "a/b", "--key", "a.pem"}, "cannot name the default files"},
		{[]string{"keygen", "--kid", ".hidden"}, "cannot name the default files"},
		{[]string{"keygen", "--kid", `a"b`, "--key", "a.pem", "--card", "a.json"}, "--kid"},
		{[]string{"keygen", "--kid", "k", "--agent-id", ""}, "--agent-id is empty"},
		{[]string{"keygen", "--kid", "k", "--key", "x.json", "--card", "./x.json"}, "same file"},
		{[]string{"keygen", "--kid", "k", "extra"}, "takes no arguments"},
		{[]string{"keygen", "--kid", "k", "--bogus"}, "bogus"},
	} {
		_, errOut, code := runIn(t, dir, nil, tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut, tc.msg)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("usage errors wrote files: %v", entries)
	}
}
