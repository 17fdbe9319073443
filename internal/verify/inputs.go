package verify

import (
	"errors"
	"fmt"
	"os"

	"github.com/git-bernstein/git-bernstein/internal/regularfile"
	"github.com/git-bernstein/git-bernstein/internal/sign"
)

// maxSignatureFile bounds what is read of a .jws: a real one is under 400 bytes, and sign refuses past 16 KiB.
const maxSignatureFile = 64 << 10

// Card is an agent card to trust: the file at Path, named in reports as Name (the path the user wrote).
type Card struct {
	Path, Name string
}

// Files are the files a verification reads: the archive, its signature (""; Archive+".jws" when that exists)
// and the cards whose keys are trusted.
type Files struct {
	Archive   string
	Signature string
	Cards     []Card
}

// Inputs are Files opened: the trusted keys, the signature (nil: none) and the open archive, for the caller to
// close.
type Inputs struct {
	Keys    []sign.TrustedKey
	Sig     []byte
	Archive *os.File
}

// Open opens what f names. Every input must be a regular file and is opened without blocking (an evidence folder
// unpacked by tar can hold FIFOs, and opening one would wait forever). An input that cannot be used comes back as
// an unusable report (exit 2), so that --json still prints one.
func Open(f Files) (*Inputs, *Report) {
	in := &Inputs{}
	keys, err := TrustCards(f.Cards)
	if err != nil {
		return nil, Unusable(CheckTrust, err.Error())
	}
	in.Keys = keys
	sigPath := f.Signature
	if sigPath == "" {
		sigPath = f.Archive + ".jws"
		if _, err := os.Lstat(sigPath); errors.Is(err, os.ErrNotExist) {
			sigPath = ""
		}
	}
	if sigPath != "" {
		sig, err := readSignature(sigPath)
		if err != nil {
			return nil, Unusable(CheckSignature, err.Error())
		}
		in.Sig = sig
	}
	a, _, err := regularfile.Open(f.Archive, "archive")
	if err != nil {
		return nil, Unusable(CheckArchive, err.Error())
	}
	in.Archive = a
	return in, nil
}

// VerifyFiles opens what f names and verifies it.
func VerifyFiles(f Files, opts Options) *Report {
	in, unusable := Open(f)
	if unusable != nil {
		return unusable
	}
	defer in.Archive.Close()
	return Verify(in.Archive, in.Sig, in.Keys, opts)
}

// TrustCards reads the cards into one set of trusted keys: one kid must name one key across all of them
// (sign.TrustSet).
func TrustCards(cards []Card) ([]sign.TrustedKey, error) {
	var trust sign.TrustSet
	for _, c := range cards {
		k, err := sign.LoadCardAs(c.Path, c.Name)
		if err != nil {
			return nil, fmt.Errorf("%w; check the --card path and that it is the signer's agent card", err)
		}
		if err := trust.Add(k); err != nil {
			return nil, err
		}
	}
	return trust.Keys(), nil
}

// readSignature reads a .jws: bounded, and an empty file is an empty (malformed) signature, not a missing one.
func readSignature(path string) ([]byte, error) {
	sig, err := regularfile.ReadFile(path, "signature", maxSignatureFile)
	if err != nil {
		return nil, err
	}
	if sig == nil {
		sig = []byte{}
	}
	return sig, nil
}
