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
	if b.Principals != "bob@example.com,carol@example.com" || !b.MatchesPrincipal("carol@example.com") || b.Namespaces == nil || *b.Namespaces != "git,git-bernstein" ||
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

// TestAllowedSignersAgreesWithSSHKeygen holds our reading of allowed signers lines against `ssh-keygen -Y
// verify`'s for the same signature, over every form of principals, options, times and keys a line can take:
// we may trust a line only when ssh-keygen does. Where we are stricter on purpose the case says so; anywhere
// else the two must agree.
func TestAllowedSignersAgreesWithSSHKeygen(t *testing.T) {
	if testing.Short() {
		t.Skip("a long check against git, Python or a large corpus: make test runs it, go test -short skips it")
	}
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
	blob := strings.Fields(pub)[1]
	march := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	july := time.Date(2026, 7, 1, 10, 30, 0, 0, time.UTC)
	const erin = "erin@example.com"
	type row struct {
		principal, line string
		at              time.Time // default march
		tz              string    // the zone of times without Z; default UTC
		stricter        bool      // ssh-keygen trusts the line and we refuse it, on purpose
	}
	rows := []row{
		// Principals: plain, quoted, lists, patterns, negations, case.
		{line: "erin@example.com K"},
		{line: "erin@example.com\tK"},
		{line: "   erin@example.com K"},
		{line: `"erin@example.com" K`},
		{line: `"erin@example.com,frank@example.com" K`},
		{line: `e"rin@example.com" K`},
		{line: `"erin@example.com"K`},
		{line: "erin@example.com,frank@example.com K"},
		{line: "*@example.com K"},
		{line: "?rin@example.com K"},
		{line: "* K"},
		{line: "*@example.com,!erin@* K"},
		{line: "!erin@example.com,* K"},
		{line: "!erin@example.com K"},
		{line: "ERIN@example.com K"},
		{line: "erin@example.com,, K"},
		{line: `"" K`, principal: ""},
		{line: `"erin@example.com K`},
		// Comments and blank lines.
		{line: "# erin@example.com K"},
		{line: "  # erin@example.com K"},
		{line: "erin@example.com K a comment with \"quotes\", commas and namespaces=\"git\""},
		{line: "erin@example.com " + "ssh-ed25519 " + blob},
		{line: "erin@example.com " + "ssh-ed25519  \t" + blob + "  comment"},
		// Keys: a type name that is not the blob's, a blob that is not base64.
		{line: "erin@example.com ssh-rsa " + blob},
		{line: "erin@example.com ssh-ed25519 " + blob[:len(blob)-4]},
		{line: "erin@example.com ssh-ed25519"},
		{line: "erin@example.com"},
		// namespaces=: quoted, unquoted, empty, cases, patterns, twice, escapes, trailing text.
		{line: `erin@example.com namespaces="git-bernstein" K`},
		{line: `erin@example.com namespaces="" K`},
		{line: `erin@example.com namespaces=git-bernstein K`},
		{line: `erin@example.com NAMESPACES="git-bernstein" K`},
		{line: `erin@example.com Namespaces="git-bernstein" K`},
		{line: `erin@example.com namespaces="git" K`},
		{line: `erin@example.com namespaces="git,git-bern*" K`},
		{line: `erin@example.com namespaces="git-bernstein, git" K`},
		{line: `erin@example.com namespaces=" git-bernstein" K`},
		{line: `erin@example.com namespaces="!git-bernstein,*" K`},
		{line: `erin@example.com namespaces="*,!git-bernstein" K`},
		{line: `erin@example.com namespaces="git-bernstein",namespaces="git" K`},
		{line: `erin@example.com namespaces="git",namespaces="git-bernstein" K`},
		{line: `erin@example.com namespaces="git-bernstein",NAMESPACES="git-bernstein" K`},
		{line: `erin@example.com namespaces="git-bern\"stein" K`},
		{line: `erin@example.com namespaces="git-bernstein"x K`},
		{line: `erin@example.com namespaces ="git-bernstein" K`},
		{line: `erin@example.com namespaces="git-bernstein K`},
		{line: `erin@example.com namespace="git-bernstein" K`},
		// Separators: empty options, a comma too many.
		{line: `erin@example.com ,namespaces="git-bernstein" K`},
		{line: `erin@example.com namespaces="git-bernstein", K`},
		{line: `erin@example.com namespaces="git-bernstein",,valid-after="20260101Z" K`},
		// cert-authority: the key signs certificates, not bundles.
		{line: `erin@example.com cert-authority K`},
		{line: `erin@example.com CERT-AUTHORITY K`},
		{line: `erin@example.com cert-authority,namespaces="git-bernstein" K`},
		{line: `erin@example.com cert-authorityx K`},
		{line: `erin@example.com cert-authority="" K`},
		{line: `erin@example.com cert-authority,cert-authority K`},
		{line: `erin@example.com cert-authority,cert-authority,namespaces="git-bernstein" K`},
		{line: `erin@example.com frobnicate K`},
		{line: `erin@example.com no-cert-authority K`},
		// valid-after= and valid-before=: every length, Z and UTC in any case, bounds, twice, out of range.
		{line: `erin@example.com valid-after="20260101" K`},
		{line: `erin@example.com valid-after="20260101Z" K`},
		{line: `erin@example.com valid-after="20260101z" K`},
		{line: `erin@example.com valid-after="20260101UTC" K`},
		{line: `erin@example.com valid-after="20260101utc" K`},
		{line: `erin@example.com valid-after="202603011200Z" K`},
		{line: `erin@example.com valid-after="202603011201Z" K`},
		{line: `erin@example.com valid-after="20260301120000Z" K`},
		{line: `erin@example.com valid-after="20260301120001Z" K`},
		{line: `erin@example.com valid-after="20260401Z" K`},
		{line: `erin@example.com valid-after=20260101Z K`},
		{line: `erin@example.com valid-after="2026010" K`},
		{line: `erin@example.com valid-after="2026-01-01" K`},
		{line: `erin@example.com valid-after="20260101+0100" K`},
		{line: `erin@example.com valid-after="19700101Z" K`},
		{line: `erin@example.com valid-after="19691231Z" K`},
		{line: `erin@example.com valid-after="20260230Z" K`},                                                // mktime makes it March 2
		{line: `erin@example.com valid-after="20260229Z" K`, stricter: true},                                // mktime makes it March 1, 00:00
		{line: `erin@example.com valid-before="20260230Z" K`, at: march.AddDate(0, 0, -10), stricter: true}, // and this one March 2
		{line: `erin@example.com valid-after="20260101Z",valid-after="20260101Z" K`},
		{line: `erin@example.com ,,namespaces="git-bernstein" K`},
		{line: `erin@example.com , K`},
		{line: `erin@example.com valid-after="20260228Z",valid-after="20250101Z" K`},
		{line: `erin@example.com valid-after="20270101Z",valid-after="20250101Z" K`},
		{line: `erin@example.com valid-before="20270101" K`},
		{line: `erin@example.com valid-before="20260301120000Z" K`},
		{line: `erin@example.com valid-before="20260301115959Z" K`},
		{line: `erin@example.com valid-before="20250101Z",valid-before="20270101Z" K`},
		{line: `erin@example.com valid-after="20260201Z",valid-before="20260301115959Z" K`},
		{line: `erin@example.com valid-after="20260101Z",valid-before="20260101Z" K`},
		{line: `erin@example.com valid-after="20260101Z",valid-before="20251231Z" K`},
		{line: `erin@example.com valid-before="20270101Z",valid-after="20260101Z",namespaces="git-bernstein" K`},
		// Times without Z are local, and OpenSSH reads them as standard time (mktime with tm_isdst 0).
		{line: `erin@example.com valid-after="20260701120000" K`, at: july, tz: "Europe/Berlin"},
		{line: `erin@example.com valid-after="20260701120000" K`, at: july.Add(time.Hour), tz: "Europe/Berlin"},
		{line: `erin@example.com valid-before="20260701120000" K`, at: july.Add(45 * time.Minute), tz: "Europe/Berlin"},
		{line: `erin@example.com valid-after="20260101120000" K`, at: time.Date(2026, 1, 1, 11, 30, 0, 0, time.UTC), tz: "Europe/Berlin"},
		{line: `erin@example.com valid-after="20260701120000Z" K`, at: july, tz: "Europe/Berlin"},
	}
	trusted, agreed := 0, 0
	for i, c := range rows {
		principal := erin
		if c.principal != "" || strings.HasPrefix(c.line, `""`) {
			principal = c.principal
		}
		at, tz := c.at, c.tz
		if at.IsZero() {
			at = march
		}
		if tz == "" {
			tz = "UTC"
		}
		loc, err := time.LoadLocation(tz)
		if err != nil {
			t.Skipf("time zone %s: %v", tz, err)
		}
		line := strings.Replace(c.line, " K", " "+pub, 1)
		line = strings.Replace(line, "\tK", "\t"+pub, 1)
		line = strings.Replace(line, `"K`, `"`+pub, 1)
		allowed := filepath.Join(dir, fmt.Sprintf("allowed%d", i))
		os.WriteFile(allowed, []byte(line+"\n"), 0o644)
		out, sshErr := sshtest.Try([]string{"TZ=" + tz}, msg, "ssh-keygen", "-Y", "verify", "-f", allowed, "-I", principal, "-n", Namespace,
			"-Overify-time="+at.UTC().Format("20060102150405")+"Z", "-s", sigPath)
		sshTrusts := sshErr == nil
		ours, why := false, "no line matches"
		lines, err := ParseAllowedSigners([]byte(line), "f", loc)
		if err != nil {
			why = err.Error()
		}
		for _, a := range lines {
			if !a.MatchesPrincipal(principal) || a.Ed25519() == nil {
				continue
			}
			if err := a.Usable(Namespace, at); err != nil {
				why = err.Error()
				continue
			}
			ours = true
		}
		switch {
		case ours && !sshTrusts:
			t.Errorf("%s: we trust it, ssh-keygen -Y verify does not (%v): %s", c.line, sshErr, strings.TrimSpace(out))
		case sshTrusts && !ours && !c.stricter:
			t.Errorf("%s: ssh-keygen -Y verify trusts it, we do not: %s", c.line, why)
		case c.stricter && ours == sshTrusts:
			t.Errorf("%s: marked stricter, but both say trusted=%v", c.line, ours)
		}
		if ours == sshTrusts {
			agreed++
		}
		if sshTrusts {
			trusted++
		}
	}
	t.Logf("%d lines: ssh-keygen trusts %d; we agree on %d", len(rows), trusted, agreed)
}

// ReadAllowedSigners reads several files in order, naming each line by the file's Name; a file it cannot read
// (missing, a folder) is an error with the hint, a line it cannot parse names the file and line.
func TestReadAllowedSigners(t *testing.T) {
	t.Parallel()
	const k = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGb7O3m+bWM5CZjC0T5yBdsVq6qXH9vQ0N1dHMV0ZS0M"
	dir := t.TempDir()
	write := func(name, data string) AllowedSignersFile {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return AllowedSignersFile{Path: filepath.Join(dir, name), Name: name}
	}
	a := write("a", "alice@example.com "+k+"\n")
	b := write("b", "# none here\n\nbob@example.com "+k+"\n")
	got, err := ReadAllowedSigners([]AllowedSignersFile{a, b}, time.UTC, "check the flag")
	if err != nil || len(got) != 2 || got[0].Source != "a:1" || got[1].Source != "b:3" {
		t.Fatalf("ReadAllowedSigners = %+v, %v", got, err)
	}
	if got, err := ReadAllowedSigners(nil, time.UTC, "check"); got != nil || err != nil {
		t.Errorf("no files: %v %v", got, err)
	}
	missing := AllowedSignersFile{Path: filepath.Join(dir, "none"), Name: "none"}
	folder := AllowedSignersFile{Path: dir, Name: "dir"}
	for _, f := range []AllowedSignersFile{missing, folder} {
		if _, err := ReadAllowedSigners([]AllowedSignersFile{a, f}, time.UTC, "check the flag"); err == nil ||
			!strings.HasSuffix(err.Error(), "; check the flag") {
			t.Errorf("%s: %v, want an error ending in the hint", f.Name, err)
		}
	}
	bad := write("bad", "alice@example.com\n")
	if _, err := ReadAllowedSigners([]AllowedSignersFile{bad}, time.UTC, "check"); err == nil ||
		!strings.Contains(err.Error(), "bad:1") || strings.HasSuffix(err.Error(), "; check") {
		t.Errorf("a bad line: %v, want the parse error naming bad:1", err)
	}
}
