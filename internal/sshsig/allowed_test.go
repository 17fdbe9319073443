package sshsig

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/sshtest"
)

func TestMatchPatternList(t *testing.T) {
	for _, c := range []struct {
		s, list string
		want    int
	}{
		{"alice@example.com", "alice@example.com", 1},
		{"alice@example.com", "bob@example.com,alice@example.com", 1},
		{"alice@example.com", "*@example.com", 1},
		{"alice@example.com", "*@example.com,!alice@*", -1},
		{"alice@example.com", "a?ice@example.com", 1},
		{"alice@example.com", "alice", 0},
		{"git-bernstein", "git", 0},
		{"git-bernstein", "git*", 1},
		{"git-bernstein", "file,git-bernstein", 1},
		{"", "*", 1},
		{"", "?", 0},
		{"aaa", "*a*a*a*a", 0 + 0}, // four a's needed
		{"aaaa", "*a*a*a*a", 1},
		{strings.Repeat("a", 5000) + "b", strings.Repeat("*a", 30) + "*c", 0}, // linear, not exponential
	} {
		if got := matchPatternList(c.s, c.list); got != c.want {
			t.Errorf("matchPatternList(%.30q, %.30q) = %d, want %d", c.s, c.list, got, c.want)
		}
	}
}

func TestParseAllowedSigners(t *testing.T) {
	const k = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGb7O3m+bWM5CZjC0T5yBdsVq6qXH9vQ0N1dHMV0ZS0M"
	file := strings.Join([]string{
		"# team signers",
		"",
		"  alice@example.com " + k + " alice's laptop",
		`"bob@example.com,carol@example.com" namespaces="git,git-bernstein",valid-after="20260101",valid-before="20270101000000Z" ` + k,
		`*@ci.example.com cert-authority ` + k,
		"dave@example.com VALID-AFTER=\"202601011200Z\" " + k,
	}, "\n")
	got, err := ParseAllowedSigners([]byte(file), "allowed", time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 {
		t.Fatalf("%d lines, want 4", len(got))
	}
	at := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	if got[0].Principals != "alice@example.com" || got[0].Source != "allowed:3" || got[0].Ed25519() == nil || got[0].Usable(Namespace, at) != nil {
		t.Errorf("line 3: %+v", got[0])
	}
	b := got[1]
	if b.Principals != "bob@example.com,carol@example.com" || !b.MatchesPrincipal("carol@example.com") || b.Namespaces != "git,git-bernstein" ||
		!b.ValidAfter.Equal(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)) || !b.ValidBefore.Equal(time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("line 4: %+v", b)
	}
	if b.Usable(Namespace, at) != nil || b.Usable("file", at) == nil || b.Usable(Namespace, at.AddDate(2, 0, 0)) == nil || b.Usable(Namespace, at.AddDate(-1, 0, 0)) == nil {
		t.Errorf("line 4 usability wrong")
	}
	if !got[2].CertAuthority || got[2].Ed25519() != nil || got[2].Usable(Namespace, at) == nil {
		t.Errorf("cert-authority line: %+v", got[2])
	}
	if !got[3].ValidAfter.Equal(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)) {
		t.Errorf("upper-case option: %+v", got[3])
	}
	for _, bad := range []string{
		"alice@example.com",
		"alice@example.com ssh-ed25519 AAAA-not-base64",
		`alice@example.com frobnicate ` + k,
		`alice@example.com namespaces=git ` + k,
		`alice@example.com valid-after="2026" ` + k,
		`"alice@example.com ` + k,
	} {
		if _, err := ParseAllowedSigners([]byte(bad+"\n"), "f", time.UTC); err == nil || !strings.Contains(err.Error(), "f:1") {
			t.Errorf("%q: %v, want an error naming f:1", bad, err)
		}
	}
}

// TestAllowedSignersAgreesWithSSHKeygen holds our reading of allowed signers lines (principal patterns,
// namespaces=, valid-after=, valid-before=) against `ssh-keygen -Y verify`'s for the same signature.
func TestAllowedSignersAgreesWithSSHKeygen(t *testing.T) {
	sshtest.Require(t)
	dir := t.TempDir()
	keyPath := sshtest.Keygen(t, dir, "erin", "ed25519", "")
	key, err := LoadKey(keyPath, noEnv)
	if err != nil {
		t.Fatal(err)
	}
	msg := []byte("bundle bytes")
	sig, _ := Sign(key, Namespace, sha(msg))
	sigPath := filepath.Join(dir, "m.sig")
	os.WriteFile(sigPath, sig, 0o644)
	pub := sshtest.PublicLine(t, keyPath)
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for i, c := range []struct{ principal, line string }{
		{"erin@example.com", "erin@example.com " + pub},
		{"erin@example.com", "*@example.com " + pub},
		{"erin@example.com", "*@example.com,!erin@* " + pub},
		{"erin@example.com", `erin@example.com namespaces="git" ` + pub},
		{"erin@example.com", `erin@example.com namespaces="git,git-bern*" ` + pub},
		{"erin@example.com", `erin@example.com valid-after="20260401Z" ` + pub},
		{"erin@example.com", `erin@example.com valid-after="20260201Z",valid-before="20260301115959Z" ` + pub},
		{"erin@example.com", `erin@example.com valid-before="20260301120000Z" ` + pub},
		{"erin@example.com", `"erin@example.com,frank@example.com" ` + pub},
		{"erin@example.com", `# erin@example.com ` + pub},
	} {
		allowed := filepath.Join(dir, fmt.Sprintf("allowed%d", i))
		os.WriteFile(allowed, []byte(c.line+"\n"), 0o644)
		_, sshErr := sshtest.Try(nil, msg, "ssh-keygen", "-Y", "verify", "-f", allowed, "-I", c.principal, "-n", Namespace,
			"-Overify-time="+at.Format("20060102150405")+"Z", "-s", sigPath)
		lines, err := ParseAllowedSigners([]byte(c.line), "f", time.UTC)
		if err != nil {
			t.Fatal(err)
		}
		ours := false
		for _, a := range lines {
			if a.MatchesPrincipal(c.principal) && a.Usable(Namespace, at) == nil {
				ours = true
			}
		}
		if ours != (sshErr == nil) {
			t.Errorf("%q: we say allowed=%v, ssh-keygen -Y verify says %v", c.line, ours, sshErr)
		}
	}
}
