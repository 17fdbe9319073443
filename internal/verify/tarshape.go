package verify

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The one tar shape a bundle may have (doc.go, "Archive shape"). Every header that tar readers are known to read
// differently is outside it: GNU long names and links, sparse files, global and repeated PAX headers, PAX
// records beyond path and mtime, non-canonical numbers, bytes hidden after a terminator or in padding. Go's
// archive/tar still does the parsing; shapeReader sits under it and refuses a byte that leaves the shape before
// archive/tar can act on it, so the two never have to agree on anything outside the shape.

const (
	blockSize = 512
	// MaxNameLength is the longest member name accepted, in bytes: far above any real path (Linux allows 4096
	// for a whole path), low enough that names cannot be a memory bomb.
	MaxNameLength = 4096
	// maxPAXSize bounds one PAX extended header: a path record of MaxNameLength plus an mtime record.
	maxPAXSize = 2 * blockSize * 5
)

// errShape is what shapeReader returns to archive/tar once the archive has left the shape; the reason is in
// shapeReader.fail.
var errShape = errors.New("archive outside the bundle shape")

type shapeState int

const (
	stHeader   shapeState = iota // collecting a 512-byte header block
	stPAX                        // collecting a PAX header's records
	stPAXPad                     // zero padding after the PAX records
	stData                       // member content: not judged here
	stPad                        // zero padding after the content
	stEndBlock                   // after one zero block: the second must be zero too
	stEnded                      // after the end-of-archive marker: readArchive judges what follows
)

// shapeMember is a member as the shape check read its headers.
type shapeMember struct {
	name  string
	size  int64
	mtime string // the PAX mtime record, when there is one
}

// shapeReader reads the inflated tar stream and checks each byte against the bundle shape as it passes.
type shapeReader struct {
	r   io.Reader
	lim Limits

	state      shapeState
	block      [blockSize]byte
	blockLen   int
	remaining  int64        // bytes left in the current PAX body, data or padding
	pax        bytes.Buffer // the PAX body being collected
	pending    *paxRecords  // a PAX header read, waiting for its member's header
	headers    int          // header blocks read, PAX headers included
	members    int          // regular-file headers read
	nameBytes  int64        // all member names so far
	cur        shapeMember  // the member whose header was read last
	fail       *archiveFailure
	atEnd      bool  // the end-of-archive marker (two zero blocks) was read
	readOffset int64 // bytes of the tar stream judged so far
}

type paxRecords struct {
	path, mtime       string
	hasPath, hasMTime bool
}

func newShapeReader(r io.Reader, lim Limits) *shapeReader { return &shapeReader{r: r, lim: lim} }

// Read fills p from the stream and checks it. When a byte breaks the shape it returns no bytes at all and
// errShape, so a header archive/tar would misread never reaches it.
func (s *shapeReader) Read(p []byte) (int, error) {
	if s.fail != nil {
		return 0, errShape
	}
	// Fill p (archive/tar asks for whole header blocks), so that a header arrives in one piece and is judged
	// before any of it is returned. An error ends the fill; bytes read before it are still judged and returned.
	n := 0
	var err error
	for n < len(p) && err == nil {
		var k int
		k, err = s.r.Read(p[n:])
		n += k
	}
	if err != nil && n > 0 {
		err = nil // the next Read reports it again: readers keep returning their error
	}
	if f := s.feed(p[:n]); f != nil {
		s.fail = f
		return 0, errShape
	}
	return n, err
}

// feed runs the state machine over b.
func (s *shapeReader) feed(b []byte) *archiveFailure {
	for len(b) > 0 {
		switch s.state {
		case stHeader, stEndBlock:
			k := copy(s.block[s.blockLen:], b)
			s.blockLen += k
			b = b[k:]
			s.readOffset += int64(k)
			if s.blockLen < blockSize {
				continue
			}
			s.blockLen = 0
			if f := s.endBlock(); f != nil {
				return f
			}
		case stPAX:
			k := int(min(s.remaining, int64(len(b))))
			s.pax.Write(b[:k])
			b, s.remaining, s.readOffset = b[k:], s.remaining-int64(k), s.readOffset+int64(k)
			if s.remaining == 0 {
				rec, f := parsePAX(s.pax.Bytes(), s.headers)
				if f != nil {
					return f
				}
				s.pending = rec
				s.state, s.remaining = stPAXPad, pad(int64(s.pax.Len()))
				s.pax.Reset()
				if s.remaining == 0 {
					s.state = stHeader
				}
			}
		case stData:
			k := min(s.remaining, int64(len(b)))
			b, s.remaining, s.readOffset = b[k:], s.remaining-k, s.readOffset+k
			if s.remaining == 0 {
				s.state, s.remaining = stPad, pad(s.cur.size)
				if s.remaining == 0 {
					s.state = stHeader
				}
			}
		case stPad, stPAXPad:
			k := min(s.remaining, int64(len(b)))
			if i := bytes.IndexFunc(b[:k], func(r rune) bool { return r != 0 }); i >= 0 {
				what := fmt.Sprintf("member %d %q", s.members, s.cur.name)
				if s.state == stPAXPad {
					what = fmt.Sprintf("the PAX header before member %d", s.members+1)
				}
				return refuse("non-zero bytes in the padding after %s (offset %d in the tar stream): padding is zeros; bytes there are signed by no one", what, s.readOffset+int64(i))
			}
			b, s.remaining, s.readOffset = b[k:], s.remaining-k, s.readOffset+k
			if s.remaining == 0 {
				s.state = stHeader
			}
		case stEnded:
			return nil // readArchive reads the rest itself and wants only zeros
		}
	}
	return nil
}

// endBlock judges a whole block read in stHeader or stEndBlock.
func (s *shapeReader) endBlock() *archiveFailure {
	zero := isZero(s.block[:])
	if s.state == stEndBlock {
		if !zero {
			return refuse("a lone zero block before member %d: some tar readers stop there and others read on (GNU tar -i), so they would list different members", s.members+1)
		}
		s.state, s.atEnd = stEnded, true
		return nil
	}
	if zero {
		if s.pending != nil {
			return refuse("a PAX header with no member after it, at the end of the archive")
		}
		s.state = stEndBlock
		return nil
	}
	s.headers++
	h, f := parseHeader(&s.block, s.headers)
	if f != nil {
		return f
	}
	switch h.typeflag {
	case 'x':
		if s.pending != nil {
			return refuse("two PAX headers in a row before member %d: readers disagree on whether the first still applies (Python merges both, Go keeps only the second)", s.members+1)
		}
		if h.size > maxPAXSize {
			return refuse("the PAX header before member %d is %d bytes (at most %d): a bundle's PAX header holds only a path and an mtime", s.members+1, h.size, maxPAXSize)
		}
		if h.size == 0 {
			return refuse("an empty PAX header before member %d", s.members+1)
		}
		s.state, s.remaining = stPAX, h.size
		return nil
	case '0':
	default:
		return refuse("header %d (before member %d) has tar type %s: a bundle has only regular files (type '0'), each optionally after one PAX header", s.headers, s.members+1, typeflagName(h.typeflag))
	}
	s.members++
	name := h.name
	s.cur = shapeMember{size: h.size}
	if p := s.pending; p != nil {
		if p.hasPath {
			name = p.path
		}
		if p.hasMTime {
			s.cur.mtime = p.mtime
		}
		s.pending = nil
	}
	if name == "" {
		return refuse("member %d has an empty name", s.members)
	}
	if len(name) > MaxNameLength {
		return refuse("member %d has a %d-byte name (at most %d): no bundle writer makes one; such names only inflate whatever reads them", s.members, len(name), MaxNameLength)
	}
	if d := strings.Count(name, "/") + 1; d > MaxNameDepth {
		return refuse("member %d %.200q is %d folders deep (at most %d parts to a name): no bundle writer makes one; such names only make extraction slow", s.members, name, d-1, MaxNameDepth)
	}
	s.nameBytes += int64(len(name))
	if s.nameBytes > s.lim.MaxNamesSize {
		return unreadable("the member names add up to more than %s (--max-names-size) by member %d", FormatSize(s.lim.MaxNamesSize), s.members)
	}
	if s.members > s.lim.MaxEntries {
		return unreadable("more than %d members (--max-entries)", s.lim.MaxEntries)
	}
	s.cur.name = name
	s.state, s.remaining = stData, h.size
	if h.size == 0 {
		s.state = stHeader
	}
	return nil
}

// header is what parseHeader reads of one ustar header block.
type header struct {
	typeflag byte
	name     string // prefix/name, or name
	size     int64
}

// ustar field offsets and lengths (POSIX.1-1988 ustar, as POSIX.1-2001 pax uses it).
var (
	fName     = field{0, 100}
	fMode     = field{100, 8}
	fUID      = field{108, 8}
	fGID      = field{116, 8}
	fSize     = field{124, 12}
	fMTime    = field{136, 12}
	fChksum   = field{148, 8}
	fLinkname = field{157, 100}
	fMagic    = field{257, 6}
	fVersion  = field{263, 2}
	fUname    = field{265, 32}
	fGname    = field{297, 32}
	fDevmajor = field{329, 8}
	fDevminor = field{337, 8}
	fPrefix   = field{345, 155}
	fTail     = field{500, 12}
)

type field struct{ off, len int }

func (f field) of(b *[blockSize]byte) []byte { return b[f.off : f.off+f.len] }

// parseHeader checks one non-zero header block against the shape and reads what the state machine needs.
func parseHeader(b *[blockSize]byte, n int) (header, *archiveFailure) {
	var h header
	bad := func(format string, a ...any) (header, *archiveFailure) {
		return h, refuse("tar header %d: "+format, append([]any{n}, a...)...)
	}
	if string(fMagic.of(b)) != "ustar\x00" || string(fVersion.of(b)) != "00" {
		return bad("magic %q version %q: a bundle is POSIX ustar/pax (magic \"ustar\\x00\", version \"00\"); GNU and old V7 headers are read differently by different tools", fMagic.of(b), fVersion.of(b))
	}
	chk := fChksum.of(b)
	want, ok := octalField(chk[:7])
	if !ok || len(bytes.TrimRight(chk[:7], "\x00")) != 6 || chk[6] != 0 || chk[7] != ' ' {
		return bad("checksum field %q is not six octal digits, NUL, space", chk)
	}
	var sum int64
	for i, c := range b {
		if i >= fChksum.off && i < fChksum.off+fChksum.len {
			c = ' '
		}
		sum += int64(c)
	}
	if sum != want {
		return bad("checksum %o does not match the header's bytes (unsigned sum %o): damaged, or built to be read differently", want, sum)
	}
	if !isZero(fTail.of(b)) {
		return bad("bytes 500–511 are not zero (other tar formats keep data there)")
	}
	h.typeflag = b[156]
	for _, f := range []struct {
		name string
		fld  field
	}{{"name", fName}, {"linkname", fLinkname}, {"uname", fUname}, {"gname", fGname}, {"prefix", fPrefix}} {
		v := f.fld.of(b)
		if i := bytes.IndexByte(v, 0); i >= 0 && !isZero(v[i:]) {
			return bad("the %s field has bytes after its NUL terminator: readers disagree on where it ends", f.name)
		}
	}
	if !isZero(fLinkname.of(b)) {
		return bad("a link target %q: a bundle has only regular files", cstr(fLinkname.of(b)))
	}
	if !isZero(fUname.of(b)) || !isZero(fGname.of(b)) {
		return bad("owner names %q/%q: a bundle has none (extracting as root would hand the files to that user)", cstr(fUname.of(b)), cstr(fGname.of(b)))
	}
	nums := map[string]int64{}
	for _, f := range []struct {
		name string
		fld  field
	}{{"mode", fMode}, {"uid", fUID}, {"gid", fGID}, {"size", fSize}, {"mtime", fMTime}} {
		v, ok := octalField(f.fld.of(b))
		if !ok {
			return bad("the %s field %q is not plain octal digits ended by NUL or space (no sign, no leading spaces, no base-256)", f.name, f.fld.of(b))
		}
		nums[f.name] = v
	}
	for _, f := range []field{fDevmajor, fDevminor} {
		if v := f.of(b); !isZero(v) {
			if d, ok := octalField(v); !ok || d != 0 {
				return bad("device numbers %q: a bundle has only regular files", v)
			}
		}
	}
	if m := nums["mode"]; m&^0o777 != 0 {
		return bad("mode %04o has bits beyond the permissions (setuid, setgid or sticky): extracted as root they would be restored", m)
	}
	if nums["uid"] != 0 || nums["gid"] != 0 {
		return bad("owner %d:%d: a bundle's members are owned by 0:0 (extracting as root restores owners)", nums["uid"], nums["gid"])
	}
	h.size = nums["size"]
	h.name = cstr(fName.of(b))
	if p := cstr(fPrefix.of(b)); p != "" {
		h.name = p + "/" + h.name
	}
	return h, nil
}

// octalField reads a numeric field the way every writer we accept writes it: one or more octal digits, then
// only NUL or space. Anything else (a sign, leading spaces, base-256, an empty field) is not canonical.
func octalField(b []byte) (int64, bool) {
	i := 0
	for i < len(b) && b[i] >= '0' && b[i] <= '7' {
		i++
	}
	if i == 0 {
		return 0, false
	}
	for _, c := range b[i:] {
		if c != 0 && c != ' ' {
			return 0, false
		}
	}
	v, err := strconv.ParseInt(string(b[:i]), 8, 64)
	return v, err == nil
}

// parsePAX reads a PAX extended header's records: each "%d %s=%s\n" with its exact length written without
// leading zeros, each key once, keys only path and mtime.
func parsePAX(body []byte, n int) (*paxRecords, *archiveFailure) {
	bad := func(format string, a ...any) (*paxRecords, *archiveFailure) {
		return nil, refuse("PAX header (tar header %d): "+format, append([]any{n}, a...)...)
	}
	rec := &paxRecords{}
	for len(body) > 0 {
		sp := bytes.IndexByte(body, ' ')
		if sp <= 0 || sp > 5 || body[0] == '0' {
			return bad("a record does not start with its length in plain decimal")
		}
		length, err := strconv.Atoi(string(body[:sp]))
		if err != nil || length <= sp+3 || length > len(body) {
			return bad("record length %q is not a decimal within the header", body[:sp])
		}
		for _, c := range body[:sp] {
			if c < '0' || c > '9' {
				return bad("record length %q is not plain decimal digits", body[:sp])
			}
		}
		r := body[sp+1 : length]
		body = body[length:]
		if r[len(r)-1] != '\n' {
			return bad("a record does not end with a newline where its length says")
		}
		key, value, ok := bytes.Cut(r[:len(r)-1], []byte("="))
		if !ok {
			return bad("a record has no '='")
		}
		switch string(key) {
		case "path":
			if rec.hasPath {
				return bad("two path records: readers disagree on which one applies")
			}
			if !utf8.Valid(value) || bytes.IndexByte(value, 0) >= 0 {
				return bad("the path record is not UTF-8 without NUL")
			}
			rec.path, rec.hasPath = string(value), true
		case "mtime":
			if rec.hasMTime {
				return bad("two mtime records")
			}
			if !plainTime(value) {
				return bad("mtime %q is not decimal seconds", value)
			}
			rec.mtime, rec.hasMTime = string(value), true
		default:
			return bad("record %.64q is not one a bundle has (only path and mtime): tar readers apply such records differently, or they carry bytes no one signed", key)
		}
	}
	return rec, nil
}

// plainTime is "digits" or "digits.digits": what Python's tarfile writes for a float mtime.
func plainTime(v []byte) bool {
	whole, frac, dot := bytes.Cut(v, []byte("."))
	digits := func(b []byte) bool {
		if len(b) == 0 || len(b) > 19 {
			return false
		}
		for _, c := range b {
			if c < '0' || c > '9' {
				return false
			}
		}
		return true
	}
	return digits(whole) && (!dot || digits(frac))
}

func isZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// cstr is a NUL-terminated field's string.
func cstr(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

func typeflagName(t byte) string {
	switch t {
	case '1':
		return "'1' (hard link)"
	case '2':
		return "'2' (symbolic link)"
	case '3', '4':
		return fmt.Sprintf("%q (device)", t)
	case '5':
		return "'5' (directory)"
	case '6':
		return "'6' (FIFO)"
	case '7':
		return "'7' (contiguous file, read as a regular file by some tools only)"
	case 'g':
		return "'g' (PAX global header: applies to every later member in some readers, to none in others)"
	case 'L':
		return "'L' (GNU long name: readers disagree when it meets a PAX path)"
	case 'K':
		return "'K' (GNU long link name)"
	case 'S':
		return "'S' (GNU sparse file)"
	case 0:
		return "NUL (old V7 regular file: read as a directory when the name ends in /)"
	}
	return strconv.QuoteRune(rune(t))
}
