package signing

import "crypto"

// Archive is how bundle and record sign an archive: the key (nil: unsigned) and its kid, and which signatures
// of the archive's bytes to write beside the manifest's JWS: SSHSig, <archive>.sig (SSHSIG); Attest,
// <archive>.intoto.jsonl and <archive>.sigstore.json.
type Archive struct {
	Key    crypto.Signer
	Kid    string
	SSHSig bool
	Attest bool
	// OCIStore is, with Attest, the first oci:// bernstein.store: the statement also names the archive's
	// manifest there, for cosign verify-attestation (package attest, "OCI manifest subject").
	OCIStore string
	signer   *Signer
}

// ForArchive is how an archive is signed with sg (nil: unsigned, and nothing else is written): .sig when sshSig
// says so, else when sg is an SSH key; the attestations when attest. The caller closes it.
func ForArchive(sg *Signer, sshSig *bool, attest bool) *Archive {
	a := &Archive{signer: sg}
	if sg == nil {
		return a
	}
	a.Key, a.Kid, a.SSHSig, a.Attest = sg.Key, sg.Kid, sg.SSH, attest
	if sshSig != nil {
		a.SSHSig = *sshSig
	}
	return a
}

// Close lets go of ssh-agent, when the key is there.
func (a *Archive) Close() { a.signer.Close() }
