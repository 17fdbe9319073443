package signing

import (
	"bytes"
	"crypto"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/regularfile"
	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/sshsig"
)

// ErrUsage marks errors in what the user asked for (a kid without a key, a PKCS#8 key without a kid): the CLI
// exits 2 for them.
var ErrUsage = errors.New("usage")

// Request is what chooses the key: the flags as given, and git's configuration.
type Request struct {
	Key, Kid string // --sign-key and --sign-kid, "" when not given
	// Config reads one git config value ("", false when unset); nil outside a repository, where only the flags
	// count.
	Config func(key string) (string, bool)
	Getenv func(string) string // reads SSH_AUTH_SOCK; nil is os.Getenv
	Wd     string              // the working folder relative key files are found from
}

// Signer is a resolved key: Key signs (an Ed25519 key in a file or in ssh-agent) as Kid.
type Signer struct {
	Key    crypto.Signer
	Kid    string
	SSH    bool   // an SSH key (its SSHSIG .sig is written by default)
	Origin string // where the key was named, for messages: "--sign-key", "git config bernstein.signingKey", …
	key    *sshsig.Key
}

// Close lets go of ssh-agent, when the key is there.
func (s *Signer) Close() {
	if s != nil && s.key != nil {
		s.key.Close()
	}
}

// Resolve finds the key and kid the request names; (nil, nil) when nothing asks for signing.
func Resolve(req Request) (*Signer, error) {
	get := req.Config
	if get == nil {
		get = func(string) (string, bool) { return "", false }
	}
	getenv := req.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	spec, origin := req.Key, "--sign-key"
	if spec == "" {
		on := true
		if v, ok := get("bernstein.sign"); ok {
			b, err := parseBool(v)
			if err != nil {
				return nil, fmt.Errorf("git config bernstein.sign=%q is not a boolean (use true or false)", v)
			}
			on = b
		}
		if on {
			spec, _ = get("bernstein.signingKey")
			origin = "git config bernstein.signingKey"
			if format, _ := get("gpg.format"); spec == "" && strings.EqualFold(format, "ssh") {
				spec, _ = get("user.signingKey")
				origin = "git's user.signingKey (gpg.format=ssh)"
			}
		}
	}
	kid := req.Kid
	if kid == "" {
		kid, _ = get("bernstein.signingKid")
	}
	needKid := fmt.Errorf("signing needs both a key and a kid: give --sign-key FILE and --sign-kid KID (or git config "+
		"bernstein.signingKey and bernstein.signingKid); SSH keys default to their SHA256: fingerprint: %w", ErrUsage)
	if spec == "" {
		if kid != "" {
			return nil, fmt.Errorf("signing needs both a key and a kid: give --sign-key FILE too (or git config "+
				"bernstein.signingKey): %w", ErrUsage)
		}
		return nil, nil
	}
	if !strings.HasPrefix(spec, sshsig.LiteralPrefix) {
		spec, _ = gitext.ExpandHome(spec, getenv)
		if !filepath.IsAbs(spec) {
			spec = filepath.Join(req.Wd, spec)
		}
	}
	if kid == "" && isPKCS8File(spec) {
		return nil, needKid
	}
	key, err := sshsig.LoadKey(spec, getenv)
	if err != nil {
		if strings.HasPrefix(origin, "git's") {
			err = fmt.Errorf("%w (the key is %s; git config bernstein.sign false signs nothing from configuration)", err, origin)
		}
		return nil, err
	}
	if kid == "" {
		if !key.SSH {
			key.Close()
			return nil, needKid
		}
		kid = key.Fingerprint()
	}
	if err := sign.CheckKid(kid); err != nil {
		key.Close()
		return nil, fmt.Errorf("--sign-kid: %v: %w", err, ErrUsage)
	}
	return &Signer{Key: key, Kid: kid, SSH: key.SSH, Origin: origin, key: key}, nil
}

// SignJWS signs payload as the bundles' detached JWS (package sign) under the signer's kid.
func (s *Signer) SignJWS(payload []byte) (string, error) {
	return sign.SignDetachedWith(s.Key, s.Kid, payload)
}

// parseBool reads git's boolean spellings.
func parseBool(v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "true", "yes", "on", "1":
		return true, nil
	case "false", "no", "off", "0":
		return false, nil
	}
	return false, errors.New("not a boolean")
}

// isPKCS8File is true for a file that starts like a PEM key other than OpenSSH's: those have no default kid.
func isPKCS8File(path string) bool {
	b, err := regularfile.ReadFile(path, "signing key", 64<<10)
	if err != nil {
		return false
	}
	b = bytes.TrimSpace(b)
	return bytes.HasPrefix(b, []byte("-----BEGIN")) && !bytes.HasPrefix(b, []byte("-----BEGIN OPENSSH PRIVATE KEY-----"))
}
