package verify

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"

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
	// manifest is manifestJSON parsed when it was read (manifestErr when it does not parse): its sections are
	// checked before any other member streams by.
	manifest     *manifest.Manifest
	manifestErr  error
	members      map[string]member
	entries      int   // tar members, manifest included
	total        int64 // bytes the gzip stream inflated to
	nameWarnings []string
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
func readArchive(r io.Reader, lim Limits, sink Sink) (*contents, *archiveFailure) {
	br := bufio.NewReader(r)
	magic, err := br.Peek(4)
	switch {
	case len(magic) == 0 && err == io.EOF:
		return nil, unreadable("the file is empty: not a ticket bundle")
	case err != nil && err != io.EOF:
		return nil, unreadable("read: %v", err)
	case len(magic) < 2 || magic[0] != 0x1f || magic[1] != 0x8b:
		return nil, unreadable("not a gzip file (starts with %q): not a ticket bundle (.tar.gz)", magic)
	case len(magic) == 4 && magic[3]&^gzipAllowedFlags != 0:
		// RFC 1952 section 2.3.1: FEXTRA and FCOMMENT carry bytes that no signature covers and that some
		// tools show; the reserved bits must be zero. Bundle writers set at most FNAME (Python's gzip).
		return nil, refuse("the gzip header has flags %#02x (FEXTRA 0x04, FCOMMENT 0x10 or reserved bits): a bundle's gzip header carries at most a file name", magic[3]&^gzipAllowedFlags)
	}
	// br is an io.ByteReader, so gzip and flate read from it directly and never past the end of the gzip
	// member: whatever follows stays in br for the trailing-data check.
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, unreadable("gzip header: %v", err)
	}
	zr.Multistream(false)
	cr := &countingReader{r: zr, limit: lim.MaxTotalSize}
	c, fail := readTar(cr, lim, sink)
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

// gzipAllowedFlags are the gzip FLG bits a bundle may have: FTEXT, FHCRC and FNAME.
const gzipAllowedFlags = 0x01 | 0x02 | 0x08

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

// readTar walks the tar members through the shape check (tarshape.go), which refuses any header outside the
// one bundle shape before archive/tar parses it. It returns on the first refusal; the caller then reads the gzip
// stream out.
func readTar(cr *countingReader, lim Limits, sink Sink) (*contents, *archiveFailure) {
	shape := newShapeReader(cr, lim)
	tr := tar.NewReader(shape)
	c := &contents{members: map[string]member{}}
	seen := map[string]int{} // name → member number, manifest included
	names := newNameClashes()
	tree := newMemberTree()
	manifestAt := 0 // member number of manifest.json, 1 when in place
	for {
		hdr, err := tr.Next()
		if shape.fail != nil {
			return nil, shape.fail
		}
		if err == io.EOF {
			// Next reports EOF also when the stream simply stops at a block boundary. A complete archive
			// ends with two zero blocks (POSIX ustar).
			if !shape.atEnd {
				return nil, unreadable("the tar archive ends without its end-of-archive marker: it is cut short")
			}
			break
		}
		if err != nil && !errors.Is(err, tar.ErrInsecurePath) { // names are judged below, with a reason
			if err == errTotal || errors.Is(err, gzip.ErrChecksum) || errors.Is(err, io.ErrUnexpectedEOF) {
				return nil, streamError(err, cr)
			}
			return nil, unreadable("member %d: tar header refused (%v): not a tar archive, or one with a header "+
				"this verifier will not read", c.entries+1, err)
		}
		c.entries++
		name := hdr.Name
		// The shape check read the same header bytes; archive/tar must have read them the same way. This
		// cannot differ inside the shape, and is checked so that it never silently does.
		if name != shape.cur.name || hdr.Size != shape.cur.size || hdr.Typeflag != tar.TypeReg || hdr.Linkname != "" || len(hdr.PAXRecords) > 2 {
			return nil, refuse("member %d: Go's tar reader read %.200q (%d bytes, type %q) where the shape check read %.200q (%d bytes): "+
				"tar readers disagree on this archive", c.entries, name, hdr.Size, hdr.Typeflag, shape.cur.name, shape.cur.size)
		}
		if err := manifest.CheckName(name); err != nil {
			return nil, refuse("member %d: unsafe name: %v; no bundle writer makes one: do not unpack this archive with any tool", c.entries, err)
		}
		if n, dup := seen[name]; dup {
			return nil, refuse("member %d %.200q has the same name as member %d: an extractor would keep only one of them", c.entries, name, n)
		}
		seen[name] = c.entries
		if name != manifest.Name {
			if f := tree.add(c.entries, name); f != nil {
				return nil, f
			}
		}
		names.add(name)
		if name == manifest.Name {
			manifestAt = c.entries
			if c.entries != 1 {
				continue // refused after the walk; its content is not needed
			}
			if hdr.Size > lim.MaxManifestSize {
				return nil, unreadable("manifest.json declares %d bytes, more than %s (--max-manifest-size)", hdr.Size, FormatSize(lim.MaxManifestSize))
			}
			data, err := io.ReadAll(io.LimitReader(tr, lim.MaxManifestSize+1))
			if err != nil {
				return nil, memberError(err, cr, shape, name)
			}
			if int64(len(data)) > lim.MaxManifestSize {
				return nil, unreadable("manifest.json is more than %s (--max-manifest-size)", FormatSize(lim.MaxManifestSize))
			}
			c.manifestJSON = data
			if c.manifest, c.manifestErr = manifest.Parse(data); c.manifestErr == nil {
				if f := checkManifestSections(c.manifest); f != nil {
					return nil, f
				}
			}
			if f := toSink(sink, name, data); f != nil {
				return nil, f
			}
			continue
		}
		if hdr.Size > lim.MaxMemberSize {
			return nil, unreadable("member %.200q declares %d bytes, more than %s (--max-member-size)", name, hdr.Size, FormatSize(lim.MaxMemberSize))
		}
		h := sha256.New()
		var dst io.Writer = h
		var out *sinkWriter
		if sink != nil {
			w, err := sink.Member(name, hdr.Size)
			if err != nil {
				return nil, unreadable("member %.200q: %v", name, err)
			}
			if w != nil {
				out = &sinkWriter{w: w}
				dst = io.MultiWriter(h, out)
			}
		}
		n, err := io.Copy(dst, io.LimitReader(tr, lim.MaxMemberSize+1))
		if out != nil && out.err != nil {
			return nil, unreadable("member %.200q: %v", name, out.err)
		}
		if err != nil {
			return nil, memberError(err, cr, shape, name)
		}
		if n > lim.MaxMemberSize {
			return nil, unreadable("member %.200q is more than %s (--max-member-size)", name, FormatSize(lim.MaxMemberSize))
		}
		var m member
		m.size = n
		copy(m.sha256[:], h.Sum(nil))
		c.members[name] = m
	}
	c.nameWarnings = names.warnings()
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

// toSink hands the manifest's bytes to the sink.
func toSink(sink Sink, name string, data []byte) *archiveFailure {
	if sink == nil {
		return nil
	}
	w, err := sink.Member(name, int64(len(data)))
	if err == nil && w != nil {
		_, err = w.Write(data)
	}
	if err != nil {
		return unreadable("member %.200q: %v", name, err)
	}
	return nil
}

func memberError(err error, cr *countingReader, shape *shapeReader, name string) *archiveFailure {
	if shape.fail != nil {
		return shape.fail
	}
	if err == errTotal || errors.Is(err, gzip.ErrChecksum) || errors.Is(err, io.ErrUnexpectedEOF) {
		return streamError(err, cr)
	}
	return unreadable("read member %.200q: %v", name, err)
}

// pad is the zero padding after a member of size n: tar data comes in 512-byte blocks.
func pad(n int64) int64 { return (512 - n%512) % 512 }
