package sshsig

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"fmt"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"
)

// MaxAllowedSignersSize bounds an allowed signers file: it is a list of keys, and read whole.
const MaxAllowedSignersSize = 4 << 20

// AllowedSigner is one line of an allowed signers file (doc.go, "Allowed signers"): the principals a key
// may sign as, and the options that restrict it.
type AllowedSigner struct {
	Principals    string // the comma-separated pattern list, as written (quotes removed)
	Key           ssh.PublicKey
	CertAuthority bool   // the key is a CA for certificates: never a bundle signer here
	Namespaces    string // pattern list from namespaces="…"; "" means any namespace
	ValidAfter    time.Time
	ValidBefore   time.Time // zero: unbounded
	Source        string    // "<file>:<line>", for reports
}

// Ed25519 returns the line's key when it is a plain ssh-ed25519 key (not a CA), else nil.
func (a AllowedSigner) Ed25519() ed25519.PublicKey {
	if a.CertAuthority {
		return nil
	}
	return Ed25519(a.Key)
}

// MatchesPrincipal says whether principal is one of the line's principals, by OpenSSH's pattern rules (a
// negated pattern that matches excludes it).
func (a AllowedSigner) MatchesPrincipal(principal string) bool {
	return matchPatternList(principal, a.Principals) == 1
}

// Usable says why the line's key may not sign in namespace at time at, or nil when it may: the checks
// sshsig.c makes after the principal and key match (namespaces=, valid-after=, valid-before=).
func (a AllowedSigner) Usable(namespace string, at time.Time) error {
	if a.CertAuthority {
		return fmt.Errorf("%s: cert-authority: trusts certificates signed by this key, not signatures made by it", a.Source)
	}
	if a.Namespaces != "" && matchPatternList(namespace, a.Namespaces) != 1 {
		return fmt.Errorf("%s: namespaces=%q does not allow %q", a.Source, a.Namespaces, namespace)
	}
	if !a.ValidAfter.IsZero() && at.Before(a.ValidAfter) {
		return fmt.Errorf("%s: not valid before %s (signed at %s)", a.Source, a.ValidAfter.UTC().Format(time.RFC3339), at.UTC().Format(time.RFC3339))
	}
	if !a.ValidBefore.IsZero() && at.After(a.ValidBefore) {
		return fmt.Errorf("%s: expired at %s (signed at %s)", a.Source, a.ValidBefore.UTC().Format(time.RFC3339), at.UTC().Format(time.RFC3339))
	}
	return nil
}

// ParseAllowedSigners reads an allowed signers file in the format of ssh-keygen(1) ("ALLOWED SIGNERS"), as
// git's gpg.ssh.allowedSignersFile holds it. name is how reports name the file; loc is the zone of times
// written without a trailing Z (OpenSSH reads them as local time). A line that cannot be read is an error
// naming it: a trust file is not guessed at. Lines whose key is of a type that cannot sign bundles (RSA,
// ECDSA, sk-) are kept; callers use Ed25519 to pick the usable ones.
func ParseAllowedSigners(data []byte, name string, loc *time.Location) ([]AllowedSigner, error) {
	if len(data) > MaxAllowedSignersSize {
		return nil, fmt.Errorf("allowed signers file %s: larger than %d MiB", name, MaxAllowedSignersSize>>20)
	}
	var out []AllowedSigner
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), MaxAllowedSignersSize)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimLeft(sc.Text(), " \t\r\n")
		if line == "" || line[0] == '#' {
			continue
		}
		src := fmt.Sprintf("%s:%d", name, n)
		a, err := parseLine(line, loc)
		if err != nil {
			return nil, fmt.Errorf("allowed signers %s: %v (format: principals [options] keytype base64-key [comment], see ssh-keygen(1))", src, err)
		}
		a.Source = src
		out = append(out, a)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("allowed signers file %s: %w", name, err)
	}
	return out, nil
}

func parseLine(line string, loc *time.Location) (AllowedSigner, error) {
	var a AllowedSigner
	principals, rest, err := firstToken(line)
	if err != nil {
		return a, err
	}
	if principals == "" || strings.TrimSpace(rest) == "" {
		return a, fmt.Errorf("want principals and a key")
	}
	a.Principals = principals
	// What follows is authorized_keys syntax: optional options, then the key, then an optional comment.
	key, _, opts, _, err := ssh.ParseAuthorizedKey([]byte(rest))
	if err != nil {
		return a, fmt.Errorf("no key after the principals: %v", err)
	}
	a.Key = key
	for _, o := range opts {
		name, value, hasValue := strings.Cut(o, "=")
		switch name = strings.ToLower(name); {
		case name == "cert-authority" && !hasValue:
			a.CertAuthority = true
		case hasValue && (name == "namespaces" || name == "valid-after" || name == "valid-before"):
			v, err := dequote(value)
			if err != nil {
				return a, fmt.Errorf("option %s: %v", name, err)
			}
			switch name {
			case "namespaces":
				a.Namespaces = v
			case "valid-after":
				a.ValidAfter, err = parseTime(v, loc)
			case "valid-before":
				a.ValidBefore, err = parseTime(v, loc)
			}
			if err != nil {
				return a, fmt.Errorf("option %s: %v", name, err)
			}
		default:
			return a, fmt.Errorf("unknown option %q (allowed: cert-authority, namespaces=, valid-after=, valid-before=)", o)
		}
	}
	if !a.ValidAfter.IsZero() && !a.ValidBefore.IsZero() && a.ValidBefore.Before(a.ValidAfter) {
		return a, fmt.Errorf("valid-before is earlier than valid-after")
	}
	return a, nil
}

// firstToken is OpenSSH's strdelimw for the principals field: up to the first space or tab, where a double
// quote starts a run (spaces included) that the next double quote ends; the quotes are removed.
func firstToken(line string) (string, string, error) {
	var tok strings.Builder
	for i := 0; i < len(line); i++ {
		switch c := line[i]; c {
		case ' ', '\t', '\r', '\n':
			return tok.String(), line[i+1:], nil
		case '"':
			j := strings.IndexByte(line[i+1:], '"')
			if j < 0 {
				return "", "", fmt.Errorf("principals: no closing quote")
			}
			tok.WriteString(line[i+1 : i+1+j])
			rest := line[i+1+j+1:]
			return tok.String(), rest, nil
		default:
			tok.WriteByte(c)
		}
	}
	return tok.String(), "", nil
}

// dequote is OpenSSH's opt_dequote: a value in double quotes, where \" stands for a quote.
func dequote(v string) (string, error) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", fmt.Errorf("value %s is not in double quotes", v)
	}
	v = v[1 : len(v)-1]
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) && v[i+1] == '"' {
			i++
		} else if v[i] == '"' {
			return "", fmt.Errorf("unescaped quote inside the value")
		}
		b.WriteByte(v[i])
	}
	return b.String(), nil
}

// parseTime is OpenSSH's parse_absolute_time: YYYYMMDD, YYYYMMDDHHMM or YYYYMMDDHHMMSS, in UTC with a trailing
// "Z" or "UTC" (either case), else in loc.
func parseTime(s string, loc *time.Location) (time.Time, error) {
	v := s
	switch u := strings.ToUpper(s); {
	case len(s) > 1 && strings.HasSuffix(u, "Z"):
		v, loc = s[:len(s)-1], time.UTC
	case len(s) > 3 && strings.HasSuffix(u, "UTC"):
		v, loc = s[:len(s)-3], time.UTC
	}
	if loc == nil {
		loc = time.Local
	}
	layout := map[int]string{8: "20060102", 12: "200601021504", 14: "20060102150405"}[len(v)]
	if layout == "" {
		return time.Time{}, fmt.Errorf("%q is not YYYYMMDD, YYYYMMDDHHMM or YYYYMMDDHHMMSS (optionally ending in Z)", s)
	}
	t, err := time.ParseInLocation(layout, v, loc)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q: %v", s, err)
	}
	return t, nil
}
