package sshsig

import (
	"testing"
	"time"
)

// FuzzParseAllowedSigners: any file gives lines or an error naming the line, never a panic, and every line
// read answers MatchesPrincipal and Usable.
func FuzzParseAllowedSigners(f *testing.F) {
	const k = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGb7O3m+bWM5CZjC0T5yBdsVq6qXH9vQ0N1dHMV0ZS0M"
	f.Add([]byte("alice@example.com " + k + " c\n# x\n"))
	f.Add([]byte(`"a,b" namespaces="git,git-*",valid-after="20260101Z",valid-before="202701011200" ` + k))
	f.Add([]byte(`*@x,!b@x cert-authority ` + k))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines, err := ParseAllowedSigners(data, "f", time.UTC)
		if err != nil {
			return
		}
		for _, a := range lines {
			a.MatchesPrincipal("alice@example.com")
			a.Usable(Namespace, time.Unix(1767225600, 0))
			a.Ed25519()
		}
	})
}

// FuzzVerify: any bytes as a .sig are refused or verified, never a panic.
func FuzzVerify(f *testing.F) {
	f.Add([]byte("-----BEGIN SSH SIGNATURE-----\nU1NIU0lHAAAAAQ==\n-----END SSH SIGNATURE-----\n"))
	f.Add([]byte(""))
	d := DigestsOf([]byte("m"))
	f.Fuzz(func(t *testing.T, data []byte) {
		Verify(data, Namespace, d)
	})
}

// FuzzMatchPatternList: the linear matcher agrees with a plain recursive one on short inputs.
func FuzzMatchPatternList(f *testing.F) {
	f.Add("alice@example.com", "*@example.com,!bob@*")
	f.Add("aaa", "*a*?a")
	f.Fuzz(func(t *testing.T, s, p string) {
		if len(s) > 16 || len(p) > 16 {
			return
		}
		if got, want := matchPattern(s, p), recursiveMatch(s, p); got != want {
			t.Fatalf("matchPattern(%q, %q) = %v, recursive %v", s, p, got, want)
		}
		matchPatternList(s, p)
	})
}

// recursiveMatch is OpenSSH's match_pattern as written in match.c, for comparison.
func recursiveMatch(s, p string) bool {
	for {
		if p == "" {
			return s == ""
		}
		if p[0] == '*' {
			for p != "" && p[0] == '*' {
				p = p[1:]
			}
			if p == "" {
				return true
			}
			for i := 0; i <= len(s); i++ {
				if recursiveMatch(s[i:], p) {
					return true
				}
			}
			return false
		}
		if s == "" || (p[0] != '?' && p[0] != s[0]) {
			return false
		}
		s, p = s[1:], p[1:]
	}
}
