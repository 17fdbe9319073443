package release

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/attest"
	"github.com/git-bernstein/git-bernstein/internal/regularfile"
	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/sshsig"
)

// Check is one line of a release check.
type Check struct {
	Name   string // "sums", a file name, "sshsig", "provenance", "sigstore-bundle", "files"
	OK     bool
	Detail string
}

// Report is what Verify found: the release is good when every check is.
type Report struct {
	Checks   []Check
	Unusable bool // the inputs could not be checked at all (no key, no SHA256SUMS)
}

// OK is true when every check passed.
func (r *Report) OK() bool {
	if r.Unusable || len(r.Checks) == 0 {
		return false
	}
	for _, c := range r.Checks {
		if !c.OK {
			return false
		}
	}
	return true
}

func (r *Report) add(name string, err error, okDetail string) {
	if err != nil {
		r.Checks = append(r.Checks, Check{Name: name, Detail: err.Error()})
		return
	}
	r.Checks = append(r.Checks, Check{Name: name, OK: true, Detail: okDetail})
}

// Trust is what Verify may trust: the keys of the user's cards and the lines of their allowed signers files,
// nothing in the release itself.
type Trust struct {
	Keys    []sign.TrustedKey
	Allowed []sshsig.AllowedSigner
	Now     time.Time // allowed signers' valid-after/valid-before are held against it
}

// maxMeta bounds SHA256SUMS and the signature files: a release lists a few files.
const maxMeta = attest.MaxSigstoreBundle

// Verify checks the release folder dir (doc.go, "Checking a release").
func Verify(dir string, trust Trust) *Report {
	r := &Report{}
	if len(trust.Keys) == 0 && len(trust.Allowed) == 0 {
		r.Unusable = true
		r.Checks = append(r.Checks, Check{Name: "trust", Detail: "no key given: a release proves itself only against a key you got from its signer " +
			"(--card CARD or --allowed-signers FILE)"})
		return r
	}
	read := func(name string) ([]byte, error) {
		return regularfile.ReadFile(filepath.Join(dir, name), name, maxMeta)
	}
	sumsData, err := read(SumsFile)
	if err != nil {
		r.Unusable = true
		r.add(SumsFile, err, "")
		return r
	}
	sums, err := ParseSums(sumsData)
	if err != nil {
		r.add(SumsFile, err, "")
		return r
	}
	// Every file of the list, by its bytes.
	listed := map[string]bool{SumsFile: true, SumsSigFile: true, ProvenanceFile: true, ProvenanceSigstoreFile: true}
	for _, s := range sums {
		listed[s.Name] = true
		got, err := fileSHA256(filepath.Join(dir, s.Name))
		switch {
		case err != nil:
			r.add(s.Name, err, "")
		case got != s.SHA256:
			r.add(s.Name, fmt.Errorf("sha256 %s, SHA256SUMS says %s: the file is not the one released", got, s.SHA256), "")
		default:
			r.add(s.Name, nil, "sha256 "+got+" as in SHA256SUMS")
		}
	}
	// Nothing else: a file beside them would look released without being so.
	entries, err := os.ReadDir(dir)
	if err != nil {
		r.add("files", err, "")
	} else {
		var extra []string
		for _, e := range entries {
			if !listed[e.Name()] {
				extra = append(extra, e.Name())
			}
		}
		if len(extra) > 0 {
			r.add("files", fmt.Errorf("not in SHA256SUMS, so not part of the release: %v (remove them, or check another folder)", extra), "")
		} else {
			r.add("files", nil, fmt.Sprintf("the folder holds the %d files of SHA256SUMS and the signatures, nothing else", len(sums)))
		}
	}
	// SHA256SUMS.sig by a given key.
	sig, err := read(SumsSigFile)
	if err == nil {
		err = checkSumsSig(sig, sumsData, trust)
	}
	r.add("sshsig", err, fmt.Sprintf("%s is an SSHSIG over %s (namespace %q) by a key you gave", SumsSigFile, SumsFile, sshsig.Namespace))
	// Both provenance files.
	for _, f := range []struct {
		name, check string
		open        func([]byte, []sign.TrustedKey) (*attest.Opened, error)
	}{
		{ProvenanceFile, "provenance", attest.Open},
		{ProvenanceSigstoreFile, "sigstore-bundle", attest.OpenSigstore},
	} {
		data, err := read(f.name)
		var o *attest.Opened
		if err == nil {
			o, err = openTrusted(data, f.open, trust)
		}
		var p *Provenance
		if err == nil {
			p, err = checkProvenance(o, sums, sumsData)
		}
		detail := ""
		if err == nil {
			x := p.BuildDefinition.ExternalParameters
			detail = fmt.Sprintf("%s: SLSA provenance v1 over every file, version %s, %d targets, signed as %q (%s)", f.name, x.Version, len(x.Targets), o.KeyID, o.Source)
		}
		r.add(f.check, err, detail)
	}
	return r
}

// checkSumsSig checks SHA256SUMS.sig over SHA256SUMS, made by a card's key or an allowed signers line usable
// for the namespace now.
func checkSumsSig(armored, sumsData []byte, trust Trust) error {
	v, err := sshsig.Verify(armored, sshsig.Namespace, sshsig.DigestsOf(sumsData))
	if err != nil {
		return err
	}
	for _, a := range trust.Allowed {
		if bytes.Equal(a.Key.Marshal(), v.Key.Marshal()) && a.Usable(sshsig.Namespace, trust.Now) == nil {
			return nil
		}
	}
	if pub := sshsig.Ed25519(v.Key); pub != nil {
		for _, k := range trust.Keys {
			if k.Public.Equal(pub) {
				return nil
			}
		}
	}
	return fmt.Errorf("a good SSHSIG over %s, but by %s, a key you did not give: the signer is unknown", SumsFile, v.Fingerprint)
}

// openTrusted opens a provenance file with the cards' keys and the allowed signers lines whose principal or
// SHA256: fingerprint is the file's keyid (or hint), as verify does for bundles.
func openTrusted(data []byte, open func([]byte, []sign.TrustedKey) (*attest.Opened, error), trust Trust) (*attest.Opened, error) {
	peek, err := open(data, nil)
	if !errors.Is(err, attest.ErrNoKeys) {
		return nil, err
	}
	keys := append([]sign.TrustedKey{}, trust.Keys...)
	for _, a := range trust.Allowed {
		pub := a.Ed25519()
		if pub == nil || a.Usable(sshsig.Namespace, trust.Now) != nil {
			continue
		}
		if fp := sshsig.FingerprintOf(a.Key); fp == peek.KeyID || a.MatchesPrincipal(peek.KeyID) {
			keys = append(keys, sign.TrustedKey{Kid: peek.KeyID, Public: pub, Source: fmt.Sprintf("%s (allowed signers, %s)", a.Source, fp)})
		}
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("%w: %q", attest.ErrUnknownKeyID, peek.KeyID)
	}
	return open(data, keys)
}
