package cli

import (
	"errors"
	"strings"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/ociartifact"
	"github.com/git-bernstein/git-bernstein/internal/signing"
	"github.com/git-bernstein/git-bernstein/internal/sshsig"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// signKeyUsage is --sign-key's help, shared by bundle, record and lineage v2 export.
const signKeyUsage = "key to sign with: a PKCS#8 Ed25519 PEM `FILE`, an OpenSSH Ed25519 private key, or a public key " +
	"(.pub file or key::ssh-ed25519 AAAA…) whose private half is in ssh-agent (default: git config bernstein.signingKey, " +
	"else git's user.signingKey when gpg.format=ssh)"

// signKeyFlags choose the key bundle and record sign with, and the kid its signatures carry.
func signKeyFlags() []ucli.Flag {
	return []ucli.Flag{
		&ucli.StringFlag{Name: "sign-key", Usage: signKeyUsage},
		&ucli.StringFlag{Name: "sign-kid", Usage: "key id `KID` written into the signature (default: git config bernstein.signingKid, else an SSH key's SHA256: fingerprint)"},
	}
}

// signFlags are the flags of bundle and record that choose what is signed besides the manifest's JWS.
func signFlags() []ucli.Flag {
	return []ucli.Flag{
		&ucli.BoolFlag{Name: "ssh-sig", HideDefault: true, Usage: "also write <archive>.sig, an SSHSIG over the archive's bytes (namespace git-bernstein) that ssh-keygen -Y verify checks (default: on with an SSH key)"},
		&ucli.BoolFlag{Name: "attest", HideDefault: true, Usage: "also write <archive>.intoto.jsonl, an in-toto statement about the archive (predicate: its manifest) in a DSSE envelope signed with the bundle key, and <archive>.sigstore.json, the same envelope in a Sigstore bundle v0.3 (default: git config bernstein.attest)"},
	}
}

// signer resolves --sign-key/--sign-kid and the configuration into a key (package signing, the one place that
// does); nil when nothing asks for signing. s is nil outside a repository, where only the flags count.
func signer(c *ucli.Command, env *Env, s *session) (*signing.Signer, error) {
	wd, err := env.getwd()
	if err != nil {
		return nil, err
	}
	req := signing.Request{Key: c.String("sign-key"), Kid: c.String("sign-kid"), Getenv: env.getenv, Wd: wd}
	if s != nil {
		req.Config = s.cfg.Get
	}
	sg, err := signing.Resolve(req)
	if err != nil {
		return nil, signingUsage(err)
	}
	return sg, nil
}

// signingUsage makes an error in what the user asked for (signing.ErrUsage) a usage error: exit 2.
func signingUsage(err error) error {
	if errors.Is(err, signing.ErrUsage) {
		return usageError("%s", strings.TrimSuffix(err.Error(), ": "+signing.ErrUsage.Error()))
	}
	return err
}

// bundleSigning reads the signing flags and configuration (package signing; README, "Signing with SSH keys"),
// and which signatures besides the JWS to write: .sig: --ssh-sig, default on for SSH keys; .intoto.jsonl:
// --attest, default bernstein.attest.
func (s *session) bundleSigning(c *ucli.Command) (*signing.Archive, error) {
	sg, err := signer(c, s.env, s)
	if err != nil {
		return nil, err
	}
	if sg == nil {
		if c.Bool("ssh-sig") || c.Bool("attest") {
			return nil, usageError("--ssh-sig and --attest sign with the bundle key: give --sign-key (or git config bernstein.signingKey)")
		}
		return signing.ForArchive(nil, nil, false), nil
	}
	set, err := s.settings(c)
	if err == nil {
		err = set.Err("bernstein.attest")
	}
	if err != nil {
		sg.Close()
		return nil, err
	}
	var sshSig *bool
	if c.IsSet("ssh-sig") {
		v := c.Bool("ssh-sig")
		sshSig = &v
	}
	a := signing.ForArchive(sg, sshSig, set.Attest)
	if a.Attest {
		a.OCIStore = ociartifact.FirstStore(set.Stores)
	}
	return a, nil
}

// allowedSignersFlag is --allowed-signers of verify, extract and view.
func allowedSignersFlag() ucli.Flag {
	return &ucli.StringSliceFlag{Name: "allowed-signers", Usage: "trust the keys of an allowed signers `FILE` (ssh-keygen's format, as git's gpg.ssh.allowedSignersFile; repeatable): " +
		"the signature's kid picks a principal or a SHA256: fingerprint (default: git config gpg.ssh.allowedSignersFile)"}
}

// addSSHTrust fills in what verify, extract and view take besides cards (verify.AddSSHTrust): the allowed
// signers files are --allowed-signers, else gpg.ssh.allowedSignersFile from git's configuration (the
// repository's when run in one, else the user's). An input that cannot be used comes back as an unusable
// report (exit 2).
func addSSHTrust(c *ucli.Command, wd, archivePath string, opts *verify.Options) *verify.Report {
	files := c.StringSlice("allowed-signers")
	if len(files) == 0 {
		if p := gitConfigValue(envOf(c), wd, "gpg.ssh.allowedSignersFile"); p != "" {
			files = []string{envOf(c).expandHome(p)}
		}
	}
	allowed := make([]sshsig.AllowedSignersFile, len(files))
	for i, name := range files {
		allowed[i] = sshsig.AllowedSignersFile{Path: inDir(wd, name), Name: name}
	}
	return verify.AddSSHTrust(opts, archivePath, allowed, "check --allowed-signers or gpg.ssh.allowedSignersFile")
}

// gitConfigValue is one value of git's configuration as `git config` run in wd sees it: the repository's
// when wd is in one, else the system and global files and `git -c` values. "" when unset or unreadable (a
// verifier must work anywhere; an explicit flag is the way to insist).
func gitConfigValue(env *Env, wd, key string) string {
	var cfg *gitext.Config
	if repo, err := gitext.Discover(wd, env.getenv); err == nil {
		cfg, _ = repo.Configuration()
	} else {
		cfg, _ = gitext.UserConfig(env.getenv)
	}
	if cfg == nil {
		return ""
	}
	v, _ := cfg.Get(key)
	return v
}
