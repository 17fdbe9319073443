package verify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/attest"
	"github.com/git-bernstein/git-bernstein/internal/sshsig"
)

// AddSSHTrust reads the allowed signers files and the files beside the archive that are there (an empty one is
// an empty signature, not a missing one); a side file that is not a regular file, or an allowed signers file
// that cannot be read, is an unusable report naming the check.
func TestAddSSHTrust(t *testing.T) {
	t.Parallel()
	const k = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGb7O3m+bWM5CZjC0T5yBdsVq6qXH9vQ0N1dHMV0ZS0M"
	dir := t.TempDir()
	write := func(name, data string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	archive := write("ENG-1.tar.gz", "not read here")
	write("ENG-1.tar.gz.sig", "sig bytes")
	write("ENG-1.tar.gz"+attest.Suffix, "")
	allowed := []sshsig.AllowedSignersFile{{Path: write("allowed", "alice@example.com "+k+"\n"), Name: "allowed"}}

	var opts Options
	if r := AddSSHTrust(&opts, archive, allowed, "check the flag"); r != nil {
		t.Fatalf("unusable: %s", r.Text())
	}
	if len(opts.AllowedSigners) != 1 || opts.AllowedSigners[0].Source != "allowed:1" || opts.ArchiveName != "ENG-1.tar.gz" ||
		string(opts.SSHSig) != "sig bytes" || opts.Attestation == nil || len(opts.Attestation) != 0 || opts.SigstoreBundle != nil {
		t.Errorf("opts = %+v", opts)
	}
	var none Options
	if r := AddSSHTrust(&none, archive, []sshsig.AllowedSignersFile{{Path: write("empty", ""), Name: "empty"}}, "h"); r != nil ||
		none.AllowedSigners == nil || len(none.AllowedSigners) != 0 {
		t.Errorf("an empty allowed signers file: %v, lines %#v; want asked-for but empty", r, none.AllowedSigners)
	}

	if err := os.Mkdir(archive+attest.SigstoreSuffix, 0o755); err != nil {
		t.Fatal(err)
	}
	r := AddSSHTrust(&Options{}, archive, nil, "h")
	if r == nil || !strings.Contains(r.Text(), CheckSigstoreBundle) {
		t.Errorf("a folder as the Sigstore bundle: %v, want an unusable report naming %s", r, CheckSigstoreBundle)
	}
	r = AddSSHTrust(&Options{}, archive, []sshsig.AllowedSignersFile{{Path: filepath.Join(dir, "none"), Name: "none"}}, "check the flag")
	if r == nil || !strings.Contains(r.Text(), "check the flag") {
		t.Errorf("a missing allowed signers file: %v, want an unusable report with the hint", r)
	}
}
