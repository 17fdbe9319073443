// Package inbrowser is the verifier as the browser page calls it: files in as bytes, the CLI's report out as
// JSON. It is what cmd/verify-wasm exports to JavaScript, kept free of syscall/js so that it is tested here.
package inbrowser

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/git-bernstein/git-bernstein/internal/attest"
	"github.com/git-bernstein/git-bernstein/internal/controls"
	"github.com/git-bernstein/git-bernstein/internal/policy"
	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// Card is one card file the user chose: its name (shown in the trust line) and its bytes.
type Card struct {
	Name string
	Data []byte
}

// Result is what the page shows: the report as `verify --json` prints it (byte for byte, as a string), the text
// as `verify` prints it, and the verdict's sentences.
type Result struct {
	Report    string   `json:"report"`
	Text      string   `json:"text"`
	Means     string   `json:"means"`
	NotMeans  string   `json:"not_means"`
	NextSteps []string `json:"next_steps"` // what to do when it is not plainly VERIFIED
	// Controls is the change controls as `git bernstein audit --json` gives them under the policy (the user's
	// file, else the default), and ControlsText as audit prints them; both "" when the bundle is not VERIFIED
	// or the policy file does not read.
	Controls     string `json:"controls"`
	ControlsText string `json:"controls_text"`
	// Policy names the policy the controls were evaluated with: "the default policy", or "policy <file name>";
	// PolicyError is why the user's policy file does not read (as audit --policy says it), else "".
	Policy      string `json:"policy"`
	PolicyError string `json:"policy_error,omitempty"`
}

// PolicyFile is the auditor's change-control policy the user chose (YAML or JSON, as `audit --policy` reads it).
type PolicyFile struct {
	Name string
	Data []byte
}

// maxSignature is the CLI's bound on a .jws (internal/cli maxSignatureFile), and maxSSHSig on a .sig.
const (
	maxSignature = 64 << 10
	maxSSHSig    = 64 << 10
)

// Sidecars are the files that `verify` reads beside the archive when they are there: its .sig (SSHSIG), its
// .intoto.jsonl (DSSE attestation) and its .sigstore.json (the attestation in a Sigstore bundle). nil means the
// user gave none.
type Sidecars struct {
	SSHSig         []byte
	Attestation    []byte
	SigstoreBundle []byte
}

// Check verifies archive against signature (nil when the user gave none) and the cards, exactly as `git
// bernstein verify ARCHIVE [SIGNATURE] --card …` does with the default limits, and returns the Result as JSON.
func Check(archive []byte, signature []byte, cards []Card) []byte {
	return CheckNamed("", archive, signature, cards)
}

// CheckNamed is Check with the archive's file name, which the next steps use in the commands they suggest.
func CheckNamed(archiveName string, archive []byte, signature []byte, cards []Card) []byte {
	return CheckWith(archiveName, archive, signature, cards, Sidecars{})
}

// CheckWith is CheckNamed with the archive's .sig, .intoto.jsonl and .sigstore.json, checked as `verify` checks
// them when they lie beside the archive (the sshsig, attestation and sigstore-bundle lines).
func CheckWith(archiveName string, archive []byte, signature []byte, cards []Card, side Sidecars) []byte {
	return CheckPolicy(archiveName, archive, signature, cards, side, nil)
}

// CheckPolicy is CheckWith with the auditor's policy file (nil: the default policy), read by the parser
// `audit --policy` uses (package policy), for the controls.
func CheckPolicy(archiveName string, archive []byte, signature []byte, cards []Card, side Sidecars, pf *PolicyFile) []byte {
	keep := controls.NewCollector() // the members the controls read, from the verifier's one read
	rep := check(archiveName, archive, signature, cards, side, keep)
	next := NextSteps(rep, archiveName, signature != nil, len(cards))
	if next == nil {
		next = []string{}
	}
	res := Result{Report: string(rep.JSON()), Text: rep.Text(), Means: rep.Means, NotMeans: rep.NotMeans, NextSteps: next,
		Policy: "the default policy"}
	var pol *policy.Policy
	if pf != nil {
		res.Policy = "policy " + pf.Name
		var err error
		if pol, err = policy.Parse(pf.Data); err != nil {
			res.PolicyError = fmt.Sprintf("%s: %v", pf.Name, err)
		}
	}
	if rep.Verdict == verify.Verified && res.PolicyError == "" {
		c := keep.Evaluate(rep, pol)
		res.Controls, res.ControlsText = string(c.JSON()), c.Text()
	}
	out, err := json.Marshal(res)
	if err != nil { // strings and raw JSON the verifier made: cannot fail
		panic(err)
	}
	return out
}

func check(archiveName string, archive []byte, signature []byte, cards []Card, side Sidecars, sink verify.Sink) *verify.Report {
	var trust sign.TrustSet
	for _, c := range cards {
		if len(c.Data) > sign.MaxCardSize {
			return verify.Unusable(verify.CheckTrust, fmt.Sprintf("card %s: larger than %d KiB; a card holds a few keys", c.Name, sign.MaxCardSize>>10))
		}
		k, err := sign.ParseCard(c.Data, c.Name)
		if err != nil {
			return verify.Unusable(verify.CheckTrust, fmt.Sprintf("%v; check that it is the signer's agent card", err))
		}
		if err := trust.Add(k); err != nil {
			return verify.Unusable(verify.CheckTrust, err.Error())
		}
	}
	if len(signature) > maxSignature {
		signature = signature[:maxSignature]
	}
	// The CLI refuses sidecars past these sizes before reading them (regularfile.ReadFile): so does the page.
	if len(side.SSHSig) > maxSSHSig {
		return verify.Unusable(verify.CheckSSHSig, fmt.Sprintf("SSH signature is larger than %d bytes", maxSSHSig))
	}
	if len(side.Attestation) > attest.MaxEnvelope {
		return verify.Unusable(verify.CheckAttestation, fmt.Sprintf("attestation is larger than %d bytes", attest.MaxEnvelope))
	}
	if len(side.SigstoreBundle) > attest.MaxSigstoreBundle {
		return verify.Unusable(verify.CheckSigstoreBundle, fmt.Sprintf("Sigstore bundle is larger than %d bytes", attest.MaxSigstoreBundle))
	}
	return verify.Verify(bytes.NewReader(archive), signature, trust.Keys(),
		verify.Options{ArchiveName: archiveName, SSHSig: side.SSHSig, Attestation: side.Attestation,
			SigstoreBundle: side.SigstoreBundle, Sink: sink})
}
