package verify

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/git-bernstein/git-bernstein/internal/manifest"
)

// member is what the archive check learns of one member, counted and hashed as it was read.
type member struct {
	size   int64
	sha256 [32]byte
}

// contents is the archive as read: the manifest's bytes and every other member.
type contents struct {
	manifestJSON []byte
	members      map[string]member
	entries      int   // tar members, manifest included
	total        int64 // bytes the gzip stream inflated to
	caseClashes  []string
}

// errTotal is returned by the inflated stream once it passes MaxTotalSize.
var errTotal = errors.New("total size limit")

// countingReader counts inflated bytes and stops at the limit, whatever the tar headers claim.
type countingReader struct {
	r     io.Reader
	n     int64
	limit int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.n > c.limit {
		return 0, errTotal
	}
	if int64(len(p)) > c.limit+1-c.n {
		p = p[:c.limit+1-c.n]
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.n > c.limit {
		return n, errTotal
	}
	return n, err
}

// archiveFailure is a failed archive check: Detail says why, unusable whether it means exit 2 rather than 1.
type archiveFailure struct {
	detail   string
	unusable bool
}

func refuse(format string, a ...any) *archiveFailure {
	return &archiveFailure{detail: fmt.Sprintf(format, a...)}
}

func unreadable(format string, a ...any) *archiveFailure {
	return &archiveFailure{detail: fmt.Sprintf(format, a...), unusable: true}
}

// readArchive reads the tar.gz once, front to back, in memory only: manifest.json must be the first member and
// is kept; every other member is hashed as it streams by. It refuses (exit 1) what no bundle writer makes and
// could fool an extractor: unsafe names, non-regular members, duplicates, a manifest that is not first, data
// after the tar end or after the gzip stream. It calls unusable (exit 2) what cannot be read: not gzip, a damaged
// or cut-short stream, a tar it cannot parse, no manifest at all, a limit passed.
//
// The gzip stream is read to its end, so its CRC-32 and length are checked (RFC 1952 section 2.3.1). A second
// gzip member after the first (RFC 1952 allows concatenated members) is refused like any trailing data: bundle
// writers, ours and upstream's, write one member, and a second is only a place to hide bytes.
func readArchive(r io.Reader, lim Limits) (*contents, *archiveFailure) {
	br := bufio.NewReader(r)
	magic, err := br.Peek(2)
	switch {
	case len(magic) == 0 && err == io.EOF:
		return nil, unreadable("the file is empty: not a ticket bundle")
	case err != nil && err != io.EOF:
		return nil, unreadable("read: %v", err)
	case len(magic) < 2 || magic[0] != 0x1f || magic[1] != 0x8b:
		return nil, unreadable("not a gzip file (starts with %q): not a ticket bundle (.tar.gz)", magic)
	}
	// br is an io.ByteReader, so gzip and flate read from it directly and never past the end of the gzip
	// member: whatever follows stays in br for the trailing-data check.
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, unreadable("gzip header: %v", err)
	}
	zr.Multistream(false)
	cr := &countingReader{r: zr, limit: lim.MaxTotalSize}
	c, fail := readTar(cr, lim)
	if fail != nil {
		// Read on to the gzip trailer: if the stream is damaged, that is the cause to report, not the odd tar
		// header it produced on the way. The total limit still bounds this.
		if _, err := io.Copy(io.Discard, cr); err != nil && err != errTotal {
			return nil, streamError(err, cr)
		}
		return nil, fail
	}
	// After the tar end-of-archive marker only zero padding may follow (tar writers pad to a record size).
	if n, err := copyZeros(cr); err != nil {
		if err == errNonZero {
			return nil, refuse("data after the tar end-of-archive marker (non-zero bytes %d bytes past it): something was appended inside the gzip stream", n)
		}
		return nil, streamError(err, cr)
	}
	if b, err := br.ReadByte(); err == nil {
		extra := 1
		for ; extra < 1<<20; extra++ {
			if _, err := br.ReadByte(); err != nil {
				break
			}
		}
		more := ""
		if extra >= 1<<20 {
			more = "+"
		}
		what := "data"
		if b == 0x1f {
			what = "data (perhaps a second gzip member)"
		}
		return nil, refuse("%d%s bytes of %s after the gzip stream: bundles are one gzip member, nothing may follow", extra, more, what)
	} else if err != io.EOF {
		return nil, unreadable("read: %v", err)
	}
	c.total = cr.n
	return c, nil
}

var errNonZero = errors.New("non-zero data")

// copyZeros reads r to its end and fails at the first non-zero byte.
func copyZeros(r io.Reader) (int64, error) {
	buf := make([]byte, 32<<10)
	var n int64
	for {
		k, err := r.Read(buf)
		for i, b := range buf[:k] {
			if b != 0 {
				return n + int64(i), errNonZero
			}
		}
		n += int64(k)
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// streamError explains an error from the inflated stream.
func streamError(err error, cr *countingReader) *archiveFailure {
	switch {
	case err == errTotal:
		return unreadable("inflates to more than %s (--max-total-size): a gzip bomb, or a bundle larger than the limit; raise it only for a bundle you expect to be that large", FormatSize(cr.limit))
	case errors.Is(err, gzip.ErrChecksum):
		return unreadable("the gzip checksum does not match its data: the file is damaged or was changed")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return unreadable("the gzip stream is cut short after %d inflated bytes: the file is truncated (an interrupted download or copy?)", cr.n)
	}
	return unreadable("the gzip stream is damaged: %v", err)
}

// readTar walks the tar members. It returns on the first refusal; the caller then reads the gzip stream out.
func readTar(cr *countingReader, lim Limits) (*contents, *archiveFailure) {
	tr := tar.NewReader(cr)
	c := &contents{members: map[string]member{}}
	seen := map[string]int{}      // name → member number, manifest included
	folded := map[string]string{} // lower-cased name → first name with it
	manifestAt := 0               // member number of manifest.json, 1 when in place
	var prevTail int64            // what Next skips before the next header: unread content and padding
	for {
		before := cr.n
		hdr, err := tr.Next()
		if err == io.EOF {
			// Next reports EOF also when the stream simply stops at a block boundary. A complete archive
			// ends with two zero blocks (POSIX ustar), right after the previous member's padding.
			if cr.n-before != prevTail+2*512 {
				return nil, unreadable("the tar archive ends without its end-of-archive marker: it is cut short")
			}
			break
		}
		if err != nil && !errors.Is(err, tar.ErrInsecurePath) { // names are judged below, with a reason
			if err == errTotal || errors.Is(err, gzip.ErrChecksum) || errors.Is(err, io.ErrUnexpectedEOF) {
				return nil, streamError(err, cr)
			}
			return nil, unreadable("member %d: tar header refused (%v): not a tar archive, or one with a header "+
				"this verifier will not read (a NUL in a name, a bad checksum)", c.entries+1, err)
		}
		c.entries++
		if c.entries > lim.MaxEntries {
			return nil, unreadable("more than %d members (--max-entries)", lim.MaxEntries)
		}
		name := hdr.Name
		if err := manifest.CheckName(name); err != nil {
			return nil, refuse("member %d: unsafe name: %v; a bundle has only relative names inside the archive", c.entries, err)
		}
		if hdr.Typeflag != tar.TypeReg {
			return nil, refuse("member %d %q is %s: a bundle has only regular files", c.entries, name, typeName(hdr))
		}
		if hdr.Linkname != "" {
			return nil, refuse("member %d %q is a regular file with a link target %q", c.entries, name, hdr.Linkname)
		}
		for k := range hdr.PAXRecords {
			if strings.HasPrefix(k, "GNU.sparse.") {
				return nil, refuse("member %d %q is a sparse file: a bundle has only plain regular files", c.entries, name)
			}
		}
		if n, dup := seen[name]; dup {
			return nil, refuse("member %d %q has the same name as member %d: an extractor would keep only one of them", c.entries, name, n)
		}
		seen[name] = c.entries
		// Names that differ only in case are distinct here but overwrite each other when extracted on a
		// case-insensitive file system (macOS, Windows): worth a warning, not a failure (.sdd may hold both).
		if first, clash := folded[strings.ToLower(name)]; clash {
			c.caseClashes = append(c.caseClashes, fmt.Sprintf("%q and %q differ only in letter case: extracted on a case-insensitive file system, one overwrites the other", first, name))
		} else {
			folded[strings.ToLower(name)] = name
		}
		if name == manifest.Name {
			manifestAt = c.entries
			if c.entries != 1 {
				prevTail = hdr.Size + pad(hdr.Size)
				continue // refused after the walk; its content is not needed
			}
			if hdr.Size > lim.MaxManifestSize {
				return nil, unreadable("manifest.json declares %d bytes, more than %s (--max-manifest-size)", hdr.Size, FormatSize(lim.MaxManifestSize))
			}
			data, err := io.ReadAll(io.LimitReader(tr, lim.MaxManifestSize+1))
			if err != nil {
				return nil, memberError(err, cr, name)
			}
			if int64(len(data)) > lim.MaxManifestSize {
				return nil, unreadable("manifest.json is more than %s (--max-manifest-size)", FormatSize(lim.MaxManifestSize))
			}
			c.manifestJSON = data
			prevTail = pad(int64(len(data)))
			continue
		}
		if hdr.Size > lim.MaxMemberSize {
			return nil, unreadable("member %q declares %d bytes, more than %s (--max-member-size)", name, hdr.Size, FormatSize(lim.MaxMemberSize))
		}
		h := sha256.New()
		n, err := io.Copy(h, io.LimitReader(tr, lim.MaxMemberSize+1))
		if err != nil {
			return nil, memberError(err, cr, name)
		}
		if n > lim.MaxMemberSize {
			return nil, unreadable("member %q is more than %s (--max-member-size)", name, FormatSize(lim.MaxMemberSize))
		}
		var m member
		m.size = n
		copy(m.sha256[:], h.Sum(nil))
		c.members[name] = m
		prevTail = pad(n)
	}
	switch {
	case manifestAt == 0 && c.entries == 0:
		return nil, unreadable("the tar archive has no members: not a ticket bundle")
	case manifestAt == 0:
		return nil, unreadable("no manifest.json in %d members: not a ticket bundle", c.entries)
	case manifestAt != 1:
		return nil, refuse("manifest.json is member %d; it must be the first, so that a reader can check the rest as it streams", manifestAt)
	}
	return c, nil
}

func memberError(err error, cr *countingReader, name string) *archiveFailure {
	if err == errTotal || errors.Is(err, gzip.ErrChecksum) || errors.Is(err, io.ErrUnexpectedEOF) {
		return streamError(err, cr)
	}
	return unreadable("read member %q: %v", name, err)
}

// pad is the zero padding after a member of size n: tar data comes in 512-byte blocks.
func pad(n int64) int64 { return (512 - n%512) % 512 }

func typeName(h *tar.Header) string {
	switch h.Typeflag {
	case tar.TypeSymlink:
		return fmt.Sprintf("a symbolic link to %q", h.Linkname)
	case tar.TypeLink:
		return fmt.Sprintf("a hard link to %q", h.Linkname)
	case tar.TypeDir:
		return "a directory"
	case tar.TypeChar, tar.TypeBlock:
		return "a device"
	case tar.TypeFifo:
		return "a FIFO"
	case tar.TypeXGlobalHeader:
		return "a PAX global header"
	case tar.TypeGNUSparse:
		return "a sparse file"
	}
	return fmt.Sprintf("of tar type %q", h.Typeflag)
}
