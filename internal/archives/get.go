package archives

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/atomicfile"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/record"
)

// Where a copy was found.
const (
	FromBundleDir = "bundles folder"
	FromRef       = string(Ref)
)

// ErrNotHeld says no source holds a copy of a noted archive with the noted digest.
var ErrNotHeld = errors.New("no copy with the noted digest")

// Copy is a noted archive found with the noted digest, and the sidecars found with it.
type Copy struct {
	Entry    notes.Entry
	From     string // FromBundleDir or FromRef
	Archive  []byte
	Sidecars []Sidecar
}

// Get finds the archive a note entry names, by digest: in the bundles folder (bundleDir), then in the ref. A
// copy whose sha256 is not the entry's bundle_sha256 is passed over (skipped says why); ErrNotHeld when none
// matches.
func Get(r *gitext.Repo, bundleDir string, e notes.Entry) (c *Copy, skipped []string, err error) {
	if !archiveName().MatchString(e.BundleSHA256 + ".tar.gz") {
		return nil, nil, fmt.Errorf("%w: the note's bundle_sha256 %q for %s %s is not a sha256", ErrNotHeld, e.BundleSHA256, e.Tracker, e.Ticket)
	}
	if bundleDir != "" {
		c, why := fromBundleDir(bundleDir, e)
		if c != nil {
			return c, nil, nil
		}
		if why != "" {
			skipped = append(skipped, why)
		}
	}
	h, ok, err := Find(r, e.Tracker, e.Ticket, e.BundleSHA256)
	if err != nil {
		return nil, skipped, err
	}
	if ok {
		return &Copy{Entry: e, From: FromRef, Archive: h.Archive, Sidecars: h.Sidecars}, skipped, nil
	}
	return nil, skipped, fmt.Errorf("%w for %s %s (%s, sha256 %s) in the bundles folder or %s; run 'git bernstein fetch' "+
		"to get the remote's", ErrNotHeld, e.Tracker, e.Ticket, e.Bundle, e.BundleSHA256, Ref)
}

// fromBundleDir reads the recorded archive and its sidecars as record wrote them; why is "" when there is none.
func fromBundleDir(dir string, e notes.Entry) (*Copy, string) {
	data, path, err := readRecorded(dir, e, e.Bundle, MaxArchive)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ""
	}
	if err != nil {
		return nil, err.Error()
	}
	if got := sum(data); got != e.BundleSHA256 {
		return nil, fmt.Sprintf("%s has sha256 %s, not the noted %s", path, got, e.BundleSHA256)
	}
	c := &Copy{Entry: e, From: FromBundleDir, Archive: data}
	for _, kind := range Kinds {
		side, _, err := readRecorded(dir, e, e.Bundle+kind, MaxFor(kind))
		if err != nil {
			continue // none, or not a file to read: verify says what a missing signature means
		}
		c.Sidecars = append(c.Sidecars, Sidecar{Kind: kind, SHA256: sum(side), Data: side})
	}
	return c, ""
}

// ReadRecordedSidecar reads <bundle><suffix> beside the recorded archive e names, of at most max bytes: a sidecar
// the ref does not keep (the Sigstore bundle), for a store that does. ok is false when there is none to read.
func ReadRecordedSidecar(dir string, e notes.Entry, suffix string, max int64) (s Sidecar, ok bool) {
	data, _, err := readRecorded(dir, e, e.Bundle+suffix, max)
	if err != nil {
		return Sidecar{}, false
	}
	return Sidecar{Kind: suffix, SHA256: sum(data), Data: data}, true
}

func readRecorded(dir string, e notes.Entry, name string, max int64) ([]byte, string, error) {
	f, path, err := record.OpenRecorded(dir, e.Tracker, e.Ticket, name)
	if err != nil {
		return nil, path, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, path, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(data)) > max {
		return nil, path, fmt.Errorf("%s is larger than %d bytes", path, max)
	}
	return data, path, nil
}

// Written is one file Write put in place (or found there already, identical).
type Written struct {
	Path    string
	Already bool
}

// Write puts a copy under outDir as the bundles folder lays it out: <tracker>/<ticket>/<bundle>, with the
// sidecars beside it (<bundle>.jws, …; a second sidecar of one kind gets the first 12 digits of its sha256 before
// the suffix, as <bundle>.<sha12>.jws). The archive's digest is checked again just before it is written. Each file
// is written atomically and never over an existing one: a file already there with the same bytes is left as
// it is, with other bytes it is an error.
func Write(outDir string, c *Copy) ([]Written, error) {
	if got := sum(c.Archive); got != c.Entry.BundleSHA256 {
		return nil, fmt.Errorf("archive for %s %s has sha256 %s, not the noted %s: not written", c.Entry.Tracker, c.Entry.Ticket, got, c.Entry.BundleSHA256)
	}
	name := c.Entry.Bundle
	if name == "" || name != filepath.Base(name) || record.PathPart(name) != name {
		return nil, fmt.Errorf("the note names bundle %q, which is not an archive's file name", name)
	}
	dir := filepath.Join(outDir, record.PathPart(c.Entry.Tracker), record.PathPart(c.Entry.Ticket))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var out []Written
	put := func(file string, data []byte) error {
		w, err := writeNew(filepath.Join(dir, file), data)
		if err != nil {
			return err
		}
		out = append(out, w)
		return nil
	}
	if err := put(name, c.Archive); err != nil {
		return out, err
	}
	seen := map[string]bool{}
	for _, s := range c.Sidecars {
		file := name + s.Kind
		if seen[s.Kind] {
			file = name + "." + s.SHA256[:12] + s.Kind
		}
		seen[s.Kind] = true
		if err := put(file, s.Data); err != nil {
			return out, err
		}
	}
	return out, nil
}

// writeNew writes data to path atomically unless path exists: the same bytes there are fine, others an error.
func writeNew(path string, data []byte) (Written, error) {
	if old, err := os.Lstat(path); err == nil {
		if !old.Mode().IsRegular() {
			return Written{}, fmt.Errorf("%s exists and is not a regular file: not overwriting it", path)
		}
		have, err := os.ReadFile(path)
		if err != nil {
			return Written{}, err
		}
		if !bytes.Equal(have, data) {
			return Written{}, fmt.Errorf("%s exists with other content: not overwriting it; remove it or choose another --out", path)
		}
		return Written{Path: path, Already: true}, nil
	}
	f, err := atomicfile.Create(path, 0o644)
	if err != nil {
		return Written{}, err
	}
	defer f.Abort()
	if _, err := f.Write(data); err != nil {
		return Written{}, fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Commit(true); err != nil {
		return Written{}, err
	}
	return Written{Path: path}, nil
}
