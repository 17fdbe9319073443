package release

import (
	"crypto"
	"crypto/sha512"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"

	"github.com/git-bernstein/git-bernstein/internal/attest"
	"github.com/git-bernstein/git-bernstein/internal/sshsig"
)

// Write adds the SBOM (its bytes, from package sbom), SHA256SUMS, its SSHSIG and the signed provenance to a
// folder that holds the binaries (file names in binaries, build information in infos), signing with key as kid
// (package signing resolves them). facts.Modules is filled from infos.
func Write(dir string, binaries []string, infos []*debug.BuildInfo, sbom []byte, facts BuildFacts, key crypto.Signer, kid string) error {
	if key == nil {
		return fmt.Errorf("a release is signed: give a key (--sign-key, or git config bernstein.signingKey)")
	}
	if err := writeFile(dir, SBOMFile, sbom); err != nil {
		return err
	}
	var sums []Sum
	for _, name := range append(append([]string{}, binaries...), SBOMFile) {
		if err := plainName(name); err != nil {
			return err
		}
		s, err := fileSHA256(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		sums = append(sums, Sum{Name: name, SHA256: s})
	}
	sumsData := MarshalSums(sums)
	if err := writeFile(dir, SumsFile, sumsData); err != nil {
		return err
	}
	h := sha512.Sum512(sumsData)
	sig, err := sshsig.Sign(key, sshsig.Namespace, h[:])
	if err != nil {
		return err
	}
	if err := writeFile(dir, SumsSigFile, sig); err != nil {
		return err
	}
	facts.Modules = Modules(infos)
	if facts.GoVersion == "" && len(infos) > 0 {
		facts.GoVersion = infos[0].GoVersion
	}
	st, err := provenanceStatement(facts, sums, sumsData)
	if err != nil {
		return err
	}
	env, err := attest.Seal(key, kid, attest.PayloadType, st)
	if err != nil {
		return err
	}
	bundle, err := attest.WrapSigstore(env)
	if err != nil {
		return err
	}
	if err := writeFile(dir, ProvenanceFile, env); err != nil {
		return err
	}
	return writeFile(dir, ProvenanceSigstoreFile, bundle)
}

func writeFile(dir, name string, data []byte) error {
	return os.WriteFile(filepath.Join(dir, name), data, 0o644)
}
