package bundle

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/git-bernstein/git-bernstein/internal/manifest"
)

// hashMember reads a member's source once and fills in its size and sha256.
func hashMember(m *member, clk clock) error {
	f, err := m.open()
	if err != nil {
		return err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.CopyN(h, clk.reader(f, m.source), m.entry.SizeBytes)
	if errors.Is(err, ErrDeadline) {
		return err
	}
	if err != nil {
		return fmt.Errorf("read %s: %w (it shrank to %d bytes while bundling; run again)", m.source, err, n)
	}
	m.entry.SHA256 = hex.EncodeToString(h.Sum(nil))
	return nil
}

// writeArchive streams the deterministic tar.gz (see package manifest, "Bundle layout"): manifest.json first,
// then members in the order given, regular files only, mtime 0, mode 0644, uid/gid 0, no owner names; gzip
// header with no name and mtime 0.
// Each member is read again and must hash as it did when the manifest was made: a file appended to in between
// contributes only the bytes the manifest describes, a file rewritten in between is an error.
func writeArchive(w io.Writer, manifestJSON []byte, members []member, progress func(done int), clk clock) error {
	zw, err := gzip.NewWriterLevel(w, gzip.DefaultCompression)
	if err != nil {
		return err
	}
	zw.Header.ModTime = time.Time{}
	zw.Header.Name = ""
	zw.Header.OS = 255 // "unknown", as Go's own gzip writes: the same bytes on every platform
	tw := tar.NewWriter(zw)
	if err := writeMember(tw, manifest.Name, int64(len(manifestJSON)), bytes.NewReader(manifestJSON), nil, ""); err != nil {
		return err
	}
	for i, m := range members {
		if err := copyMember(tw, m, clk); err != nil {
			return err
		}
		if progress != nil {
			progress(i + 1)
		}
	}
	if err := tw.Close(); err != nil {
		return fmt.Errorf("finish tar: %w", err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("finish gzip: %w", err)
	}
	return nil
}

func copyMember(tw *tar.Writer, m member, clk clock) error {
	f, err := m.open()
	if err != nil {
		return err
	}
	defer f.Close()
	return writeMember(tw, m.entry.Arcname, m.entry.SizeBytes, clk.reader(f, m.source), sha256.New(), m.entry.SHA256)
}

func writeMember(tw *tar.Writer, name string, size int64, r io.Reader, h hash.Hash, want string) error {
	hdr := &tar.Header{
		Typeflag: tar.TypeReg,
		Name:     name,
		Size:     size,
		Mode:     0o644,
		ModTime:  time.Unix(0, 0),
		Format:   tar.FormatPAX, // PAX only adds records when a name needs them (long or non-ASCII)
	}
	if err := tw.WriteHeader(hdr); err != nil {
		return fmt.Errorf("tar header for %s: %w", name, err)
	}
	src := r
	if h != nil {
		src = io.TeeReader(r, h)
	}
	if n, err := io.CopyN(tw, src, size); errors.Is(err, ErrDeadline) {
		return err
	} else if err != nil {
		return fmt.Errorf("pack %s: %w (read %d of %d bytes; it changed while bundling, run again)", name, err, n, size)
	}
	if h != nil && hex.EncodeToString(h.Sum(nil)) != want {
		return fmt.Errorf("pack %s: its content changed while bundling (hash differs from the manifest's); run again", name)
	}
	return nil
}
