package cli

import (
	"bytes"
	"crypto"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/attest"
	"github.com/git-bernstein/git-bernstein/internal/regularfile"
	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/sshsig"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// signKeyUsage is --sign-key's help, shared by bundle, record and lineage v2 export.
const signKeyUsage = "key to sign with: a PKCS#8 Ed25519 PEM `FILE`, an OpenSSH Ed25519 private key, or a public key " +
	"(.pub file or key::ssh-ed25519 AAAA…) whose private half is in ssh-agent (default: git config bernstein.signingKey, " +
	"else git's user.signingKey when gpg.format=ssh)"

// signFlags are the flags of bundle and record that choose what is signed besides the manifest's JWS.
func signFlags() []ucli.Flag {
	return []ucli.Flag{
		&ucli.BoolFlag{Name: "ssh-sig", DisableDefaultText: true, Usage: "also write <archive>.sig, an SSHSIG over the archive's bytes (namespace git-bernstein) that ssh-keygen -Y verify checks (default: on with an SSH key)"},
		&ucli.BoolFlag{Name: "attest", DisableDefaultText: true, Usage: "also write <archive>.intoto.jsonl, an in-toto statement about the archive (predicate: its manifest) in a DSSE envelope signed with the bundle key (default: git config bernstein.attest)"},
	}
}

// bundleSigning is how bundle and record sign: the key (nil: unsigned), its kid, and which signatures of the
// archive's bytes to write beside it.
type bundleSigning struct {
	Key    crypto.Signer
	Kid    string
	SSHSig bool
	Attest bool
	key    *sshsig.Key
}

// Close lets go of ssh-agent, when the key is there.
func (b *bundleSigning) Close() {
	if b.key != nil {
		b.key.Close()
	}
}

// bundleSigning reads the signing flags and configuration (README, "Signing with SSH keys"):
//
//   - the key: --sign-key, else bernstein.signingKey, else git's user.signingKey when gpg.format is ssh; with
//     bernstein.sign=false only --sign-key signs;
//   - the kid: --sign-kid, else bernstein.signingKid, else, for an SSH key, its SHA256: fingerprint; a PKCS#8
//     key needs a kid, and a kid needs a key (usage errors);
//   - .sig: --ssh-sig, default on for SSH keys; .intoto.jsonl: --attest, default bernstein.attest.
func (s *session) bundleSigning(c *ucli.Context) (*bundleSigning, error) {
	b := &bundleSigning{}
	spec, origin := c.String("sign-key"), "--sign-key"
	if !c.IsSet("sign-key") {
		on, err := s.cfg.Bool("bernstein.sign", true)
		if err != nil {
			return nil, err
		}
		if !on {
			return b, nil
		}
		spec, origin = s.cfgValue("bernstein.signingKey"), "git config bernstein.signingKey"
		if format := s.cfgValue("gpg.format"); spec == "" && strings.EqualFold(format, "ssh") {
			spec, origin = s.cfgValue("user.signingKey"), "git's user.signingKey (gpg.format=ssh)"
		}
	}
	kid := s.configOr(c, "sign-kid", "bernstein.signingKid", "")
	if spec == "" {
		if kid != "" {
			return nil, usageError("signing needs both a key and a kid: give --sign-key FILE too (or git config bernstein.signingKey)")
		}
		if c.Bool("ssh-sig") || c.Bool("attest") {
			return nil, usageError("--ssh-sig and --attest sign with the bundle key: give --sign-key (or git config bernstein.signingKey)")
		}
		return b, nil
	}
	if !strings.HasPrefix(spec, sshsig.LiteralPrefix) {
		spec = expandHome(spec)
		if !filepath.IsAbs(spec) {
			wd, err := s.env.getwd()
			if err != nil {
				return nil, err
			}
			spec = filepath.Join(wd, spec)
		}
	}
	if kid == "" && isPEMKeyFile(spec) {
		return nil, usageError("signing needs both a key and a kid: give --sign-key FILE and --sign-kid KID " +
			"(or git config bernstein.signingKey and bernstein.signingKid); SSH keys default to their SHA256: fingerprint")
	}
	key, err := sshsig.LoadKey(spec, s.env.getenv)
	if err != nil {
		if strings.HasPrefix(origin, "git's") {
			err = fmt.Errorf("%w (the key is %s; git config bernstein.sign false bundles unsigned)", err, origin)
		}
		return nil, err
	}
	b.key, b.Key = key, key
	if kid == "" {
		if !key.SSH {
			key.Close()
			return nil, usageError("signing needs both a key and a kid: give --sign-key FILE and --sign-kid KID " +
				"(or git config bernstein.signingKey and bernstein.signingKid); SSH keys default to their SHA256: fingerprint")
		}
		kid = key.Fingerprint()
	}
	if err := sign.CheckKid(kid); err != nil {
		key.Close()
		return nil, usageError("--sign-kid: %v", err)
	}
	b.Kid = kid
	b.SSHSig = key.SSH
	if c.IsSet("ssh-sig") {
		b.SSHSig = c.Bool("ssh-sig")
	}
	if b.Attest, err = s.cfg.Bool("bernstein.attest", false); err != nil {
		key.Close()
		return nil, err
	}
	if c.IsSet("attest") {
		b.Attest = c.Bool("attest")
	}
	return b, nil
}

// cfgValue is a git config value, "" when unset.
func (s *session) cfgValue(key string) string {
	v, _ := s.cfg.Get(key)
	return v
}

// isPEMKeyFile is true for a file that starts like a PEM key other than OpenSSH's (a PKCS#8 key): those have no
// default kid.
func isPEMKeyFile(path string) bool {
	b, err := regularfile.ReadFile(path, "signing key", 64<<10)
	if err != nil {
		return false
	}
	b = bytes.TrimSpace(b)
	return bytes.HasPrefix(b, []byte("-----BEGIN")) && !bytes.HasPrefix(b, []byte("-----BEGIN OPENSSH PRIVATE KEY-----"))
}

// allowedSignersFlag is --allowed-signers of verify, extract and view.
func allowedSignersFlag() ucli.Flag {
	return &ucli.StringSliceFlag{Name: "allowed-signers", Usage: "trust the keys of an allowed signers `FILE` (ssh-keygen's format, as git's gpg.ssh.allowedSignersFile; repeatable): " +
		"the signature's kid picks a principal or a SHA256: fingerprint (default: git config gpg.ssh.allowedSignersFile)"}
}

// addSSHTrust fills in what verify, extract and view take besides cards: the allowed signers (--allowed-signers,
// else gpg.ssh.allowedSignersFile from git's configuration, the repository's when run in one, else the user's),
// and the archive's .sig and .intoto.jsonl when they are beside it. An input that cannot be used comes back as an
// unusable report (exit 2).
func addSSHTrust(c *ucli.Context, wd, archivePath string, opts *verify.Options) *verify.Report {
	env := envOf(c)
	files := c.StringSlice("allowed-signers")
	if len(files) == 0 {
		if p := gitConfigValue(env, wd, "gpg.ssh.allowedSignersFile"); p != "" {
			files = []string{expandHome(p)}
		}
	}
	for _, name := range files {
		data, err := regularfile.ReadFile(inDir(wd, name), "allowed signers file", sshsig.MaxAllowedSignersSize)
		if err != nil {
			return verify.Unusable(verify.CheckTrust, fmt.Sprintf("%v; check --allowed-signers or gpg.ssh.allowedSignersFile", err))
		}
		lines, err := sshsig.ParseAllowedSigners(data, name, time.Local)
		if err != nil {
			return verify.Unusable(verify.CheckTrust, err.Error())
		}
		if opts.AllowedSigners == nil {
			opts.AllowedSigners = []sshsig.AllowedSigner{}
		}
		opts.AllowedSigners = append(opts.AllowedSigners, lines...)
	}
	opts.ArchiveName = filepath.Base(archivePath)
	for _, side := range []struct {
		suffix, what string
		max          int64
		dst          *[]byte
	}{
		{".sig", "SSH signature", 64 << 10, &opts.SSHSig},
		{attest.Suffix, "attestation", attest.MaxEnvelope, &opts.Attestation},
	} {
		data, err := regularfile.ReadFile(archivePath+side.suffix, side.what, side.max)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			check := verify.CheckSSHSig
			if side.suffix == attest.Suffix {
				check = verify.CheckAttestation
			}
			return verify.Unusable(check, err.Error())
		default:
			if data == nil {
				data = []byte{}
			}
			*side.dst = data
		}
	}
	return nil
}

// gitConfigValue is one value of git's configuration as `git config` run in wd sees it: the repository's
// when wd is in one, else the system and global files and `git -c` values. "" when unset or unreadable (a
// verifier must work anywhere; an explicit flag is the way to insist).
func gitConfigValue(env *Env, wd, key string) string {
	var cfg *gitext.Config
	if repo, err := gitext.Discover(wd, env.getenv); err == nil {
		cfg, _ = repo.Config(env.getenv)
	} else {
		cfg, _ = gitext.UserConfig(env.getenv)
	}
	if cfg == nil {
		return ""
	}
	v, _ := cfg.Get(key)
	return v
}
