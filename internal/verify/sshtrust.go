package verify

import (
	"errors"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/attest"
	"github.com/git-bernstein/git-bernstein/internal/regularfile"
	"github.com/git-bernstein/git-bernstein/internal/sshsig"
)

// maxSSHSigFile bounds what is read of an archive's .sig: a real SSHSIG is a few hundred bytes.
const maxSSHSigFile = 64 << 10

// AddSSHTrust fills in what verify, extract and view take besides cards: the lines of the allowed signers files
// (times without a zone in local time, as OpenSSH reads them; any file given makes opts.AllowedSigners non-nil,
// so that the trust check knows they were asked for), and the archive's .sig, .intoto.jsonl and .sigstore.json
// when they are beside it. An input that cannot be used comes back as an unusable report (exit 2); hint says
// where the allowed signers files were named (a flag, a git setting).
func AddSSHTrust(opts *Options, archivePath string, allowed []sshsig.AllowedSignersFile, hint string) *Report {
	lines, err := sshsig.ReadAllowedSigners(allowed, time.Local, hint)
	if err != nil {
		return Unusable(CheckTrust, err.Error())
	}
	if len(allowed) > 0 && opts.AllowedSigners == nil {
		opts.AllowedSigners = []sshsig.AllowedSigner{}
	}
	opts.AllowedSigners = append(opts.AllowedSigners, lines...)
	opts.ArchiveName = filepath.Base(archivePath)
	for _, side := range []struct {
		suffix, check, what string
		max                 int64
		dst                 *[]byte
	}{
		{".sig", CheckSSHSig, "SSH signature", maxSSHSigFile, &opts.SSHSig},
		{attest.Suffix, CheckAttestation, "attestation", attest.MaxEnvelope, &opts.Attestation},
		{attest.SigstoreSuffix, CheckSigstoreBundle, "Sigstore bundle", attest.MaxSigstoreBundle, &opts.SigstoreBundle},
	} {
		data, err := regularfile.ReadFile(archivePath+side.suffix, side.what, side.max)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return Unusable(side.check, err.Error())
		default:
			if data == nil {
				data = []byte{}
			}
			*side.dst = data
		}
	}
	return nil
}
