package record

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"

	"github.com/git-bernstein/git-bernstein/internal/bundle"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/regularfile"
)

// EntryFor is the note line describing a bundle just written: bundle_sha256 is the archive file's digest, and
// manifest_sha256 the digest of manifest.json exactly as the archive holds it.
func EntryFor(res *bundle.Result, kid string) (notes.Entry, error) {
	sum, err := FileSHA256(res.Out)
	if err != nil {
		return notes.Entry{}, err
	}
	m, err := res.Manifest.Marshal()
	if err != nil {
		return notes.Entry{}, err
	}
	ms := sha256.Sum256(m)
	e := notes.Entry{
		V:              notes.EntryVersion,
		Tracker:        res.Manifest.Tracker,
		Ticket:         res.Manifest.TicketID,
		Bundle:         filepath.Base(res.Out),
		BundleSHA256:   sum,
		ManifestSHA256: hex.EncodeToString(ms[:]),
		Signed:         res.Signature != "",
		Commits:        len(res.Manifest.Commits),
		Files:          len(res.Manifest.Files),
		CreatedAt:      res.Manifest.CreatedAt,
	}
	if e.Signed {
		e.Kid = kid
	}
	return e, nil
}

// FileSHA256 is the lower-case hex sha256 of a file's bytes. The file is opened as an input (regularfile): a
// FIFO or device in its place is an error, not a hang.
func FileSHA256(path string) (string, error) {
	f, _, err := regularfile.Open(path, "bundle")
	if err != nil {
		return "", err
	}
	defer f.Close()
	return ReaderSHA256(f, path)
}

// ReaderSHA256 is the lower-case hex sha256 of what r holds; name says what it is, for errors.
func ReaderSHA256(r io.Reader, name string) (string, error) {
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return "", fmt.Errorf("read %s: %w", name, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
