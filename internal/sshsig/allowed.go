package sshsig

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
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
	CertAuthority bool    // the key is a CA for certificates: never a bundle signer here
	Namespaces    *string // pattern list from namespaces="…"; nil without the option (any namespace), and "" matches none
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
	if a.Namespaces != nil && matchPatternList(namespace, *a.Namespaces) != 1 {
		return fmt.Errorf("%s: namespaces=%q does not allow %q", a.Source, *a.Namespaces, namespace)
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

// parseLine reads one line as sshsig.c's parse_principals_key_and_options does, never more loosely: the
// principals (strdelimw), then either the key at once or options up to the first space or tab outside quotes
// (sshkey_advance_past_options) and then the key (sshkey_read), then the options (sshsigopt_parse). Where
// OpenSSH would accept a line we refuse, we are stricter on purpose (empty principals, a key type name that is
// not the blob's, a date the calendar does not have, cert-authority twice).
func parseLine(line string, loc *time.Location) (AllowedSigner, error) {
	var a AllowedSigner
	principals, rest, err := strdelimw(line)
	if err != nil {
		return a, err
	}
	if principals == "" {
		return a, fmt.Errorf("empty principals")
	}
	a.Principals = principals
	opts := ""
	key, keyErr := readKey(rest)
	if keyErr != nil {
		end, err := advancePastOptions(rest)
		if err != nil {
			return a, err
		}
		if end == len(rest) {
			if end == 0 {
				return a, fmt.Errorf("want principals and a key")
			}
			return a, fmt.Errorf("no key after the principals: %v", keyErr)
		}
		opts = rest[:end]
		if key, err = readKey(strings.TrimLeft(rest[end+1:], " \t")); err != nil {
			return a, fmt.Errorf("no key after the options %.80q: %v", opts, err)
		}
	}
	a.Key = key
	if err := a.parseOptions(opts, loc); err != nil {
		return a, err
	}
	return a, nil
}

// strdelimw is OpenSSH's strdelimw for the principals field: up to the first space, tab, CR or LF, where a
// double quote starts a run (spaces included) that the next double quote ends, the quotes removed; the
// whitespace after the field is skipped. A field with nothing after it is an error, as in sshsig.c.
func strdelimw(line string) (string, string, error) {
	const ws = " \t\r\n"
	i := strings.IndexAny(line, ws+`"`)
	if i < 0 {
		return "", "", fmt.Errorf("want principals and a key")
	}
	if line[i] != '"' {
		return line[:i], strings.TrimLeft(line[i+1:], ws), nil
	}
	j := strings.IndexByte(line[i+1:], '"')
	if j < 0 {
		return "", "", fmt.Errorf("principals: no closing quote")
	}
	return line[:i] + line[i+1:i+1+j], strings.TrimLeft(line[i+1+j+1:], ws), nil
}

// advancePastOptions is sshkey_advance_past_options: the options end at the first space or tab outside double
// quotes, where \" does not end a quote. An unterminated quote is an error.
func advancePastOptions(s string) (int, error) {
	quoted := false
	i := 0
	for ; i < len(s) && (quoted || (s[i] != ' ' && s[i] != '\t')); i++ {
		if s[i] == '\\' && i+1 < len(s) && s[i+1] == '"' {
			i++
		} else if s[i] == '"' {
			quoted = !quoted
		}
	}
	if i == len(s) && quoted {
		return 0, fmt.Errorf("options: no closing quote")
	}
	return i, nil
}

// readKey is sshkey_read: a key type name, spaces or tabs, the base64 blob up to the next space or tab (and
// an ignored comment). The blob must be canonical padded base64 holding one whole key, and the name must be
// the blob's own type (OpenSSH lets a signature algorithm's name stand for an RSA key; we do not).
func readKey(s string) (ssh.PublicKey, error) {
	i := strings.IndexAny(s, " \t")
	if i < 0 {
		return nil, fmt.Errorf("want a key type and a base64 key")
	}
	typ := s[:i]
	s = strings.TrimLeft(s[i:], " \t")
	if j := strings.IndexAny(s, " \t"); j >= 0 {
		s = s[:j]
	}
	s = strings.TrimRight(s, "\r\n")
	if s == "" {
		return nil, fmt.Errorf("no base64 key after %.40q", typ)
	}
	blob, err := base64.StdEncoding.Strict().DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("key %.40q is not base64: %v", typ, err)
	}
	key, err := ssh.ParsePublicKey(blob)
	if err != nil {
		return nil, fmt.Errorf("key %.40q: %v", typ, err)
	}
	if key.Type() != typ {
		return nil, fmt.Errorf("the key is %s, the line says %.40q", key.Type(), typ)
	}
	return key, nil
}

// parseOptions is sshsigopt_parse: options separated by single commas, each cert-authority or name="value"
// with the name in any letter case (opt_flag, opt_match) and the value read by opt_dequote. Unlike an
// authorized_keys reader that keeps the last of two, an option given twice is an error, as OpenSSH makes it
// for namespaces=, valid-after= and valid-before=: `namespaces="git-bernstein",namespaces="git"` is not trusted
// as either. namespaces="" is kept as given: a list that no namespace matches.
func (a *AllowedSigner) parseOptions(opts string, loc *time.Location) error {
	seen := map[string]bool{}
	for o := opts; o != ""; {
		if o[0] == ',' {
			// An empty option: sshsigopt_parse matches nothing there and steps over the comma.
			if o = o[1:]; o == "" {
				return fmt.Errorf("options %.80q end in a comma", opts)
			}
			continue
		}
		var name string
		switch {
		case hasPrefixFold(o, "cert-authority"):
			name, o = "cert-authority", o[len("cert-authority"):]
			a.CertAuthority = true
		default:
			for _, n := range []string{"namespaces", "valid-after", "valid-before"} {
				if hasPrefixFold(o, n+"=") {
					name, o = n, o[len(n)+1:]
					break
				}
			}
			if name == "" {
				opt, _, _ := strings.Cut(o, ",")
				return fmt.Errorf("unknown option %.80q (allowed: cert-authority, namespaces=, valid-after=, valid-before=)", opt)
			}
			var v string
			var err error
			if v, o, err = dequote(o); err != nil {
				return fmt.Errorf("option %s: %v", name, err)
			}
			switch name {
			case "namespaces":
				a.Namespaces = &v
			case "valid-after":
				a.ValidAfter, err = parseTime(v, loc)
			case "valid-before":
				a.ValidBefore, err = parseTime(v, loc)
			}
			if err != nil {
				return fmt.Errorf("option %s: %v", name, err)
			}
		}
		if seen[name] {
			return fmt.Errorf("option %s is given twice; give it once (ssh-keygen refuses such a line)", name)
		}
		seen[name] = true
		if o == "" {
			break
		}
		if o[0] != ',' {
			return fmt.Errorf("option %s: %.40q follows it; options are separated by a single comma", name, o)
		}
		if o = o[1:]; o == "" {
			return fmt.Errorf("options %.80q end in a comma", opts)
		}
	}
	if !a.ValidAfter.IsZero() && !a.ValidBefore.IsZero() && !a.ValidBefore.After(a.ValidAfter) {
		return fmt.Errorf("valid-before is not later than valid-after")
	}
	return nil
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// dequote is OpenSSH's opt_dequote: a value that starts with a double quote and runs to the next one, where
// \" stands for a quote; it returns the value and what follows the closing quote.
func dequote(s string) (string, string, error) {
	if s == "" || s[0] != '"' {
		return "", "", fmt.Errorf("value %.40q is not in double quotes", s)
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == '"':
			i++
			b.WriteByte('"')
		case s[i] == '"':
			return b.String(), s[i+1:], nil
		default:
			b.WriteByte(s[i])
		}
	}
	return "", "", fmt.Errorf("value %.40q has no closing quote", s)
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
	if strings.Trim(v, "0123456789") != "" {
		return time.Time{}, fmt.Errorf("%q is not YYYYMMDD, YYYYMMDDHHMM or YYYYMMDDHHMMSS (optionally ending in Z)", s)
	}
	t, err := time.ParseInLocation(layout, v, loc)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q: %v", s, err)
	}
	t = standardTime(t)
	if t.Unix() <= 0 {
		// parse_absolute_time refuses a time before 1970, and sshsigopt_parse the time 0 itself.
		return time.Time{}, fmt.Errorf("%q is not after 1970-01-01T00:00:00Z", s)
	}
	return t, nil
}

// standardTime reads t's wall clock as its zone's standard time, as OpenSSH does: parse_absolute_time calls
// mktime with tm_isdst 0, so a local "20260701120000" in Berlin is 12:00 CET (11:00 UTC), not 12:00 CEST.
func standardTime(t time.Time) time.Time {
	if !t.IsDST() {
		return t
	}
	start, _ := t.ZoneBounds()
	if start.IsZero() {
		return t
	}
	before := start.Add(-time.Second)
	if before.IsDST() {
		return t
	}
	_, off := before.Zone()
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, time.FixedZone("", off)).In(t.Location())
}
